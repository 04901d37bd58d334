import { ServiceError, isAbortError } from './errors';
import { errorFromTransport } from './httpErrors';
import { normalizeChatReply } from './normalize';
import { readJson, requireKey, urlFor, type ServiceContext } from './serviceContext';
import { readContentDeltas } from './sse';
import { l10n } from './l10n';

/** One message of a conversation as the service takes it. */
export interface ChatMessage {
  role: 'user' | 'assistant' | 'system';
  content: string;
}

/** A chat request. */
export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
}

/** The ALPHA chat model: `POST /v1/alpha`, streamed or in one response. Never retried automatically. */
export class AlphaClient {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly timeoutMs: () => number,
  ) {}

  /**
   * Streams the reply as content deltas. An abort ends the stream quietly (what arrived was already yielded);
   * a stream that ends early throws a `cut` error after yielding everything that arrived.
   */
  async *stream(request: ChatRequest, signal?: AbortSignal): AsyncGenerator<string, void, undefined> {
    const res = await this.post(request, true, signal);
    const type = res.headers['content-type'] ?? '';
    if (!type.includes('text/event-stream')) {
      // The server ignored `stream: true` and answered in one piece.
      yield normalizeChatReply(await readJson(res, 'chat', signal));
      return;
    }
    const url = urlFor(this.ctx, 'v1/alpha');
    let skipped = 0;
    // A model may echo a key, token by token: the filter holds back an end that could begin one.
    const scrubber = this.ctx.http.scrubber;
    const filter = scrubber.streamFilter();
    try {
      const deltas = readContentDeltas(res.body, {
        onSkipped: (reason, payload) => {
          skipped++;
          this.ctx.log.warn(`Stream: skipped ${reason}: ${payload}`);
        },
      });
      for await (const delta of deltas) {
        const safe = filter.push(delta);
        if (safe) {
          yield safe;
        }
      }
      const rest = filter.end();
      if (rest) {
        yield rest;
      }
    } catch (error) {
      if (signal?.aborted || isAbortError(error)) {
        return;
      }
      const rest = filter.end();
      if (rest) {
        yield rest;
      }
      if (error instanceof ServiceError) {
        // An error event's text is the service's own words: it may echo the key.
        throw scrubber.scrubError(error);
      }
      const mapped = errorFromTransport(error, url, this.timeoutMs(), 'chat');
      if (mapped.kind === 'network') {
        const message = l10n.t('The reply was cut off: the connection closed before the reply was complete.');
        throw new ServiceError('cut', message, {
          cause: error,
          keyKind: 'chat',
        });
      }
      throw scrubber.scrubError(mapped);
    } finally {
      res.dispose();
      if (skipped > 0) {
        this.ctx.log.warn(`Stream: ${skipped} event(s) could not be read and were skipped.`);
      }
    }
  }

  /** Sends the conversation and returns the whole reply, normalised from any of the known shapes. */
  async complete(request: ChatRequest, signal?: AbortSignal): Promise<string> {
    const res = await this.post(request, false, signal);
    return normalizeChatReply(await readJson(res, 'chat', signal));
  }

  private async post(request: ChatRequest, stream: boolean, signal?: AbortSignal) {
    if (request.messages.length === 0 || request.messages.every((m) => !m.content.trim())) {
      throw new ServiceError('badRequest', l10n.t('Type a message first: it is empty.'));
    }
    const url = urlFor(this.ctx, 'v1/alpha');
    const key = await requireKey(this.ctx, 'chat');
    signal?.throwIfAborted();
    const body: Record<string, unknown> = { model: request.model, messages: request.messages };
    if (stream) {
      body.stream = true;
    }
    return this.ctx.http.send({
      method: 'POST',
      url,
      key,
      keyKind: 'chat',
      body,
      accept: stream ? 'text/event-stream' : 'application/json',
      signal,
    });
  }
}
