import { ServiceError, isAbortError } from './errors';
import { errorFromTransport } from './httpErrors';
import type { HttpResponse } from './http';
import { isEventStream } from './mediaType';
import { normalizeChatReply } from './normalize';
import { readJson, requireKey, urlFor, type ServiceContext } from './serviceContext';
import { readContentDeltas } from './sse';
import { l10n } from './l10n';

/** How long a stream's response may take to end by itself after `[DONE]` before its connection is closed. */
export const DONE_GRACE_MS = 200;

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
    if (!isEventStream(res.headers['content-type'])) {
      // The server ignored `stream: true` and answered in one piece.
      yield normalizeChatReply(await readJson(res, 'chat', signal));
      return;
    }
    yield* this.readStream(res, signal);
  }

  /**
   * Sends the conversation and returns the whole reply, normalised from any of the known shapes. A service that
   * streams anyway (answers `text/event-stream`) is read as a stream and its text returned whole.
   */
  async complete(request: ChatRequest, signal?: AbortSignal): Promise<string> {
    const res = await this.post(request, false, signal);
    if (!isEventStream(res.headers['content-type'])) {
      return normalizeChatReply(await readJson(res, 'chat', signal));
    }
    let text = '';
    for await (const delta of this.readStream(res, signal)) {
      text += delta;
    }
    if (signal?.aborted) {
      throw new ServiceError('aborted', l10n.t('The request was cancelled.'), { keyKind: 'chat' });
    }
    return text;
  }

  /**
   * The deltas of an event-stream response. At `[DONE]` the reply is complete at once; the response then gets
   * `DONE_GRACE_MS` to end by itself, so its connection can be reused, before it is closed.
   */
  private async *readStream(res: HttpResponse, signal?: AbortSignal): AsyncGenerator<string, void, undefined> {
    const url = urlFor(this.ctx, 'v1/alpha');
    let skipped = 0;
    let finished = false;
    try {
      yield* readContentDeltas(res.body, {
        onSkipped: (reason, payload) => {
          skipped++;
          this.ctx.log.warn(`Stream: skipped ${reason}: ${payload}`);
        },
      });
      finished = true;
    } catch (error) {
      if (signal?.aborted || isAbortError(error)) {
        return;
      }
      if (error instanceof ServiceError) {
        throw error;
      }
      const mapped = errorFromTransport(error, url, this.timeoutMs(), 'chat');
      if (mapped.kind === 'network') {
        const message = l10n.t('The reply was cut off: the connection closed before the reply was complete.');
        throw new ServiceError('cut', message, {
          cause: error,
          keyKind: 'chat',
        });
      }
      throw mapped;
    } finally {
      res.dispose(finished ? DONE_GRACE_MS : 0);
      if (skipped > 0) {
        this.ctx.log.warn(`Stream: ${skipped} event(s) could not be read and were skipped.`);
      }
    }
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
