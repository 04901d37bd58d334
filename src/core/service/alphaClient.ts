import { ServiceError, isAbortError } from './errors';
import { errorFromTransport } from './httpErrors';
import { canTell, looksLikeEventStream, looksLikeJsonLines, peekBody, type PeekedBody } from '../net/bodyPeek';
import type { HttpResponse } from '../net/responseBody';
import { isEventStream, isJsonLines, isJsonType } from '../net/mediaType';
import { normalizeChatReply } from './normalize';
import { readJson, requireKey, urlFor, type ServiceContext } from './serviceContext';
import { readContentDeltas } from './sse';
import { boundedBytes, ReplyBound } from './replyBounds';
import { SkipLog } from './skipLog';
import * as l10n from '@vscode/l10n';
import { reportedUsage, type TokenUsage } from './usage';

/** Hears the token usage the service reports for a reply (many services report none). */
export type UsageListener = (usage: TokenUsage) => void;

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

/** A reply's response and how its body is framed (see `AlphaClient.framed`). */
interface FramedBody {
  framing: 'sse' | 'jsonLines' | 'whole';
  res: HttpResponse;
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
  async *stream(
    request: ChatRequest,
    signal?: AbortSignal,
    onUsage?: UsageListener,
  ): AsyncGenerator<string, void, undefined> {
    const res = await this.post(request, true, signal);
    const read = await this.framed(res, signal);
    if (!read) {
      return;
    }
    if (read.framing === 'whole') {
      // The server ignored `stream: true` and answered in one piece.
      yield this.whole(await readJson(read.res, 'chat', signal), onUsage);
      return;
    }
    yield* this.readStream(read.res, read.framing, signal, onUsage);
  }

  /**
   * How a reply's body is framed: an event stream, JSON lines or one JSON body by its Content-Type and its start
   * (some servers stream as `text/plain`, `application/octet-stream` or even `application/json`, or say nothing).
   * The response comes back with its body whole again after a look at its start; undefined when the request was
   * cancelled meanwhile.
   */
  private async framed(res: HttpResponse, signal?: AbortSignal): Promise<FramedBody | undefined> {
    const type = res.headers['content-type'];
    if (isEventStream(type)) {
      return { framing: 'sse', res };
    }
    if (isJsonLines(type)) {
      return { framing: 'jsonLines', res };
    }
    // A body typed JSON is looked at only as far as an event stream shows (a server that labels its stream
    // `application/json`); JSON never starts that way, and a JSON body cut short is still reported as one.
    const typedJson = isJsonType(type);
    const peeked = await this.peek(res, signal, typedJson ? (head) => head.length >= 8 : canTell);
    if (!peeked) {
      return undefined;
    }
    const whole = res.withBody(peeked.body);
    if (looksLikeEventStream(peeked.head)) {
      return { framing: 'sse', res: whole };
    }
    return { framing: !typedJson && looksLikeJsonLines(peeked.head) ? 'jsonLines' : 'whole', res: whole };
  }

  /** The text of a reply in one piece, after telling its reported usage. */
  private whole(body: unknown, onUsage?: UsageListener): string {
    const usage = reportedUsage(body);
    if (usage) {
      onUsage?.(usage);
    }
    // The raw body was scrubbed; a key written with JSON escapes shows only once parsed.
    return this.ctx.http.scrubber.scrubKeys(normalizeChatReply(body));
  }

  /** The start of a body, read until `enough`; undefined when the request was cancelled meanwhile. */
  private async peek(
    res: HttpResponse,
    signal: AbortSignal | undefined,
    enough: (head: string) => boolean,
  ): Promise<PeekedBody | undefined> {
    try {
      return await peekBody(res.body, enough);
    } catch (error) {
      res.dispose();
      const failure = this.readFailure(error, signal);
      if (failure) {
        throw failure;
      }
      return undefined;
    }
  }

  /**
   * Sends the conversation and returns the whole reply, normalised from any of the known shapes. A service that
   * streams anyway (answers `text/event-stream`) is read as a stream and its text returned whole.
   */
  async complete(request: ChatRequest, signal?: AbortSignal, onUsage?: UsageListener): Promise<string> {
    const res = await this.post(request, false, signal);
    const read = await this.framed(res, signal);
    if (read?.framing === 'whole') {
      return this.whole(await readJson(read.res, 'chat', signal), onUsage);
    }
    let text = '';
    if (read) {
      for await (const delta of this.readStream(read.res, read.framing, signal, onUsage)) {
        text += delta;
      }
    }
    if (signal?.aborted || !read) {
      throw new ServiceError('aborted', l10n.t('The request was cancelled.'), { keyKind: 'chat' });
    }
    return text;
  }

  /**
   * The deltas of an event-stream response. At `[DONE]` the reply is complete at once; the response then gets
   * `DONE_GRACE_MS` to end by itself, so its connection can be reused, before it is closed.
   */
  private async *readStream(
    res: HttpResponse,
    framing: 'sse' | 'jsonLines',
    signal?: AbortSignal,
    onUsage?: UsageListener,
  ): AsyncGenerator<string, void, undefined> {
    const skips = new SkipLog(this.ctx.log, (text) => this.ctx.http.scrubber.scrub(text));
    const bound = new ReplyBound();
    let finished = false;
    // A model may echo a key, token by token: the filter holds back an end that could begin one.
    const filter = this.ctx.http.scrubber.streamFilter();
    try {
      const deltas = readContentDeltas(boundedBytes(res.body), { onSkipped: skips.skipped, onUsage }, { framing });
      for await (const delta of deltas) {
        const safe = filter.push(bound.take(delta));
        if (safe) {
          yield safe;
        }
        if (bound.over) {
          throw bound.over;
        }
      }
      finished = true;
      const rest = filter.end();
      if (rest) {
        yield rest;
      }
    } catch (error) {
      const failure = this.readFailure(error, signal);
      if (!failure) {
        return;
      }
      const rest = filter.end();
      if (rest) {
        yield rest;
      }
      throw failure;
    } finally {
      res.dispose(finished ? DONE_GRACE_MS : 0);
      skips.end();
    }
  }

  /**
   * The error to report for a failure while reading a reply's body, scrubbed of the session's keys (an error event's
   * text is the service's own words); undefined when it was cancelled.
   */
  private readFailure(error: unknown, signal?: AbortSignal): ServiceError | undefined {
    if (signal?.aborted || isAbortError(error)) {
      return undefined;
    }
    return this.ctx.http.scrubber.scrubError(this.unscrubbedFailure(error));
  }

  private unscrubbedFailure(error: unknown): ServiceError {
    if (error instanceof ServiceError) {
      return error;
    }
    const mapped = errorFromTransport(error, urlFor(this.ctx, 'v1/alpha'), this.timeoutMs(), 'chat');
    if (mapped.kind === 'network') {
      const message = l10n.t('The reply was cut off: the connection closed before the reply was complete.');
      return new ServiceError('cut', message, { cause: error, keyKind: 'chat' });
    }
    return mapped;
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
