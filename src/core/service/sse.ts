import { ServiceError } from './errors';
import { boundedJson } from './jsonText';
import * as l10n from '@vscode/l10n';
import { chunkText, isEndEvent } from './replyShapes';
import { simpleContent } from './sseContent';
import { reportedUsage, type TokenUsage } from './usage';

/** What the reader tells as it reads, beside the content: what it skipped, and the usage the service reported. */
export interface SseObserver {
  /** An event whose payload was not JSON, or JSON without a string `content`. */
  onSkipped?(reason: string, payload: string): void;
  /** An event reported the reply's token usage (see `reportedUsage`); the last report counts. */
  onUsage?(usage: TokenUsage): void;
}

/** Limits and framing of the reader. */
export interface SseLimits {
  /** Largest event, or unfinished line, held in memory, in characters (default `MAX_EVENT_CHARS`). */
  maxEventChars?: number;
  /**
   * `jsonLines`: the body is JSON lines (NDJSON, as Ollama streams), each line one event's payload, with no `data:`
   * and no `[DONE]`; the body's clean end is the reply's end. Default `sse`, where a line without `data:` is
   * ignored, as the spec says.
   */
  framing?: 'sse' | 'jsonLines';
}

/** 8 MiB of text, a whole reply's bound (`replyBounds.MAX_REPLY_CHARS`): far above any real event. */
export const MAX_EVENT_CHARS = 8 * 1024 * 1024;

/** Most of an error event in plain words that is shown. */
const ERROR_WORDS = 300;
const LF = 10;
const MIB = 1024 * 1024;
const SPACE = 32;

/**
 * Reads an SSE body exactly as the service's spec says (section 6) and yields content deltas.
 *
 * - A line that starts with `data:` is one event, handled the moment its line ends (LF, CRLF or lone CR; a CR at
 *   a chunk's end ends its line at once, and an LF that follows in the next chunk belongs to it). No blank line
 *   is needed: a server may never send one.
 * - The payload is the text after `data:`, trimmed. `[DONE]` ends the reply at once, even while the connection
 *   stays open; nothing after it is read, and the body is left to its owner (`HttpResponse.dispose`).
 * - `{content: string}` appends; so do the chunk forms of other servers (`replyShapes.chunkText`: OpenAI's
 *   `choices[0].delta.content`, Anthropic's `delta.text`, …); an `error` payload throws `streamError`; anything else
 *   is skipped and reported.
 * - The browser standard's form also works: a `data:` line that is not JSON on its own is held, and the event's
 *   held lines are joined with `\n` and parsed once at its blank line (so one object split over two lines reads).
 * - `:` comments, `event:`/`id:`/`retry:` lines are ignored; a BOM is dropped; bytes go through a streaming
 *   TextDecoder, so a character split across chunks arrives whole.
 * - An event or unfinished line longer than `maxEventChars` stops the reply with a `badResponse` error.
 * - A body that ends without `[DONE]` yields what arrived, then throws a `cut` error, unless another server's own
 *   end of the reply came (`replyShapes.isEndEvent`: Anthropic's `message_stop`, Ollama's `done: true`, …).
 * - JSON lines (`limits.framing`): each line is a payload as above (an RFC 7464 record separator before it is
 *   dropped); a line that is not JSON is skipped and reported; a `data:` line is still an event. Such a body has
 *   no `[DONE]`: its clean end ends the reply (a connection lost midway is still a `cut`).
 *
 * Deltas from one network chunk are joined into one string, so the consumer wakes once per chunk.
 */
export async function* readContentDeltas(
  body: AsyncIterable<Uint8Array>,
  observer: SseObserver = {},
  limits: SseLimits = {},
): AsyncGenerator<string, void, undefined> {
  const reader = new EventReader(observer, limits.maxEventChars ?? MAX_EVENT_CHARS, limits.framing === 'jsonLines');
  const decoder = new TextDecoder('utf-8');
  // Iterated by hand: leaving the loop at [DONE] must not close the body (that would also close its socket).
  const chunks = body[Symbol.asyncIterator]();
  for (;;) {
    const next = await chunks.next();
    if (next.done) {
      break;
    }
    reader.feed(decoder.decode(next.value, { stream: true }));
    if (reader.content !== '') {
      yield reader.take();
    }
    if (reader.failure) {
      throw reader.failure;
    }
    if (reader.done) {
      return;
    }
  }
  reader.end(decoder.decode());
  if (reader.content !== '') {
    yield reader.take();
  }
  if (reader.failure) {
    throw reader.failure;
  }
  if (!reader.done && !reader.sawEnd && !reader.jsonLines) {
    throw new ServiceError(
      'cut',
      l10n.t('The reply was cut off: the stream ended before the service said it was done.'),
    );
  }
}

/** The line reader and event interpreter behind `readContentDeltas`; text in, content and state out. */
class EventReader {
  /** Content appended since the last `take()`. */
  content = '';
  done = false;
  /** Another server's own end of the reply arrived (`replyShapes.isEndEvent`): a clean end of the body is no cut. */
  sawEnd = false;
  failure: ServiceError | undefined;
  /** The unfinished line's text so far, in pieces (joined once, when its line ends). */
  private partial: string[] = [];
  private partialLength = 0;
  /** The last text ended with a CR: an LF at the start of the next one ends nothing. */
  private afterCr = false;
  /** `data:` lines of the current event that were not JSON on their own, waiting for its blank line. */
  private held: string[] = [];
  private heldLength = 0;
  /** The `event:` name of the event being read (cleared by its data line, or its blank line). */
  private eventName: string | undefined;

  constructor(
    private readonly observer: SseObserver,
    private readonly max: number,
    /** Each line is a JSON payload (see `SseLimits.framing`); a `data:` line is still read as an event. */
    readonly jsonLines: boolean,
  ) {}

  /** Returns the content gathered so far and starts again. */
  take(): string {
    const content = this.content;
    this.content = '';
    return content;
  }

  /** Reads the lines that `text` completes and keeps its unfinished last line. */
  feed(text: string): void {
    if (text === '') {
      return;
    }
    let start = 0;
    if (this.afterCr) {
      this.afterCr = false;
      start = text.charCodeAt(0) === LF ? 1 : 0;
    }
    // Most streams use LF only: then one scan per chunk settles that no CR needs looking for.
    let cr = text.indexOf('\r', start);
    while (!this.done && this.failure === undefined) {
      let end = text.indexOf('\n', start);
      let next = end + 1;
      if (cr !== -1 && cr < start) {
        cr = text.indexOf('\r', start);
      }
      if (cr !== -1 && (end === -1 || cr < end)) {
        end = cr;
        next = text.charCodeAt(cr + 1) === LF ? cr + 2 : cr + 1;
        this.afterCr = cr + 1 === text.length;
      }
      if (end === -1) {
        this.keep(text, start);
        return;
      }
      if (this.partialLength === 0) {
        this.line(text, start, end);
      } else {
        const line = this.partial.join('') + text.slice(start, end);
        this.partial = [];
        this.partialLength = 0;
        this.line(line, 0, line.length);
      }
      start = next;
    }
  }

  /** Ends the text: the last line counts even without a line end, and a held event is read. */
  end(text: string): void {
    this.feed(text);
    if (this.partialLength > 0 && !this.done && this.failure === undefined) {
      const line = this.partial.join('');
      this.partial = [];
      this.partialLength = 0;
      this.line(line, 0, line.length);
    }
    if (!this.done && this.failure === undefined) {
      this.flushHeld();
    }
  }

  private keep(text: string, start: number): void {
    if (start >= text.length) {
      return;
    }
    this.partialLength += text.length - start;
    if (this.partialLength > this.max) {
      this.tooLarge();
      return;
    }
    this.partial.push(start === 0 ? text : text.slice(start));
  }

  private line(text: string, start: number, end: number): void {
    if (end === start) {
      this.flushHeld();
      this.eventName = undefined;
    } else if (end - start > this.max) {
      this.tooLarge();
    } else if (text.startsWith('data:', start)) {
      const content = simpleContent(text, start + 5, end);
      if (content === undefined) {
        this.data(text.slice(start + 5, end));
      } else {
        this.content += content;
        this.eventName = undefined;
      }
    } else if (this.jsonLines) {
      this.jsonLine(text.slice(start, end));
    } else if (text.startsWith('event:', start)) {
      this.eventName = text.slice(start + 6, end).trim();
    }
    // Anything else (a `:` comment, `id:`, `retry:`) carries nothing the reply needs.
  }

  /** One line of a JSON-lines body: a payload on its own, after any record separator and white space. */
  private jsonLine(line: string): void {
    const payload = line.replace(LEADING_SEPARATORS, '');
    if (payload === '') {
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(payload);
    } catch {
      this.observer.onSkipped?.('a line was not valid JSON', payload);
      return;
    }
    this.event(parsed, payload);
  }

  private data(value: string): void {
    let parsed: unknown;
    try {
      // JSON.parse ignores surrounding white space: the trim the spec asks for only matters for [DONE].
      parsed = JSON.parse(value);
    } catch {
      const payload = value.trim();
      if (payload === '[DONE]') {
        this.flushHeld();
        this.done = true;
      } else if (this.eventName === 'error' && payload !== '') {
        // An error event in plain words (`event: error` / `data: upstream timed out`).
        const words = payload.slice(0, ERROR_WORDS);
        this.failure = streamError(words, words);
      } else if (payload !== '' || this.held.length > 0) {
        this.hold(value);
      }
      return;
    }
    if (this.held.length > 0 && !isPlainObject(parsed)) {
      // `5` or `"x"` after a held line is more likely that object's continuation than an event of its own.
      this.hold(value);
      return;
    }
    this.event(parsed, value);
  }

  private event(value: unknown, raw: string): void {
    const name = this.eventName;
    this.eventName = undefined;
    if (isEndEvent(value)) {
      this.sawEnd = true;
    }
    const content = (value as { content?: unknown } | null)?.content;
    const usage = reportedUsage(value);
    if (usage) {
      this.observer.onUsage?.(usage);
    }
    if (typeof content === 'string') {
      this.content += content;
      return;
    }
    const other = chunkText(value);
    if (other !== undefined) {
      this.content += other;
      return;
    }
    if (usage) {
      return; // a usage-only event (a stream's last chunk) carries nothing else
    }
    const result = interpret(value, name);
    if (result instanceof ServiceError) {
      this.failure = result;
    } else {
      this.observer.onSkipped?.(result.skipped, raw);
    }
  }

  private hold(value: string): void {
    // The SSE standard drops one space after the colon, and joins the event's data lines with LF.
    const line = value.charCodeAt(0) === SPACE ? value.slice(1) : value;
    this.heldLength += line.length + 1;
    if (this.heldLength > this.max) {
      this.tooLarge();
      return;
    }
    this.held.push(line);
  }

  private flushHeld(): void {
    if (this.held.length === 0) {
      return;
    }
    const joined = this.held.join('\n');
    this.held = [];
    this.heldLength = 0;
    let parsed: unknown;
    try {
      parsed = JSON.parse(joined);
    } catch {
      this.observer.onSkipped?.('an event was not valid JSON', joined);
      return;
    }
    this.event(parsed, joined);
  }

  private tooLarge(): void {
    this.partial = [];
    this.partialLength = 0;
    this.held = [];
    this.heldLength = 0;
    const size = this.max >= MIB ? `${Math.round(this.max / MIB)} MB` : `${Math.round(this.max / 1024)} KB`;
    this.failure = new ServiceError(
      'badResponse',
      l10n.t(
        'The reply stopped: the service sent an event larger than {0}, more than this extension holds. What arrived before it is kept.',
        size,
      ),
    );
  }
}

/** White space and RFC 7464's record separator (U+001E) before a JSON line's value. */
const LEADING_SEPARATORS = /^[\s\u001e]+/;

function isPlainObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * For a payload without string content: the error the service reported in it, or the reason to skip it. An error
 * is an `error` field (OpenAI, Anthropic), or a `message` (or `detail`) in an event named `error` or of `type`
 * `error`, as other servers write it.
 */
function interpret(value: unknown, eventName?: string): ServiceError | { skipped: string } {
  if (value === null || typeof value !== 'object') {
    if (eventName === 'error' && typeof value === 'string' && value.trim() !== '') {
      return streamError(value, value);
    }
    return { skipped: 'an event was not a JSON object' };
  }
  const event = value as Record<string, unknown>;
  const named = eventName === 'error' || event.type === 'error';
  const ownMessage = typeof event.message === 'string' ? event.message : event.detail;
  if (named && (event.error === undefined || event.error === null) && typeof ownMessage === 'string') {
    return streamError(ownMessage, ownMessage);
  }
  if (event.error !== undefined && event.error !== null) {
    const error = event.error as { message?: unknown } | string;
    const message = typeof error === 'string' ? error : typeof error.message === 'string' ? error.message : undefined;
    return streamError(message ?? boundedJson(event.error, { maxChars: 300 }) ?? '', message);
  }
  return { skipped: 'an event had no content' };
}

function streamError(shown: string, detail: string | undefined): ServiceError {
  return new ServiceError('streamError', l10n.t('The service reported an error during the reply: {0}', shown), {
    detail,
  });
}
