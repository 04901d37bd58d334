import * as l10n from '@vscode/l10n';
import { ServiceError } from './errors';

/**
 * The bounds of one streamed reply, whatever the service sends: an endless or compressed stream ends at them, with a
 * clear notice, and keeps what arrived. Whole bodies are bounded by `responseBody.MAX_TEXT_BYTES` (32 MiB).
 */

/**
 * The most text one reply holds: 8 MiB characters, some two million tokens, far past any model's longest output, and
 * little for the extension host to hold. An event is bounded by the same (`sse.MAX_EVENT_CHARS`).
 */
export const MAX_REPLY_CHARS = 8 * 1024 * 1024;

/**
 * The most a streamed reply's body may decode to: 128 MiB. The wordiest framing seen (a chunk object of ~200 bytes
 * per token) spends ~25 MB on a reply of 128,000 tokens; events that carry no text (comments, empty deltas) count
 * too, so a stream of those alone also ends.
 */
export const MAX_REPLY_BYTES = 128 * 1024 * 1024;

const MIB = 1024 * 1024;

/** The notice a reply ends with past a bound: `what` is the bound, in words. */
function replyTooLong(what: string): ServiceError {
  return new ServiceError(
    'badResponse',
    l10n.t(
      'The reply was longer than {0}, more than this extension holds: it stops here, and what arrived is kept.',
      what,
    ),
  );
}

/** The body's chunks until `maxBytes` have come; past them, a `replyTooLong` error. */
export async function* boundedBytes(
  body: AsyncIterable<Uint8Array>,
  maxBytes: number = MAX_REPLY_BYTES,
): AsyncGenerator<Uint8Array, void, undefined> {
  let size = 0;
  // Iterated by hand, as `readContentDeltas` does: leaving early must not close the body (its owner does).
  const chunks = body[Symbol.asyncIterator]();
  for (let next = await chunks.next(); !next.done; next = await chunks.next()) {
    size += next.value.byteLength;
    if (size > maxBytes) {
      throw replyTooLong(l10n.t('{0} MB as sent', Math.round(maxBytes / MIB)));
    }
    yield next.value;
  }
}

/** Counts a reply's text: each delta as far as the bound, and the notice once it is reached. */
export class ReplyBound {
  private length = 0;
  /** Set once the bound was reached: the reply ends with it after the delta `take` returned. */
  over: ServiceError | undefined;

  constructor(private readonly maxChars: number = MAX_REPLY_CHARS) {}

  /** `delta`, cut where the reply reaches its bound. */
  take(delta: string): string {
    const room = this.maxChars - this.length;
    if (delta.length <= room) {
      this.length += delta.length;
      return delta;
    }
    this.length = this.maxChars;
    this.over = replyTooLong(l10n.t('{0} MB of text', Math.round(this.maxChars / MIB)));
    return delta.slice(0, Math.max(0, room));
  }
}
