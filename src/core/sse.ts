import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { ServiceError } from './errors';

/** What the reader noticed but did not stop for. */
export interface SseWarnings {
  /** An event whose payload was not JSON, or JSON without a string `content`. */
  onSkipped?(reason: string, payload: string): void;
}

/** Largest payload kept for a warning message. */
const PREVIEW = 120;

/**
 * Reads an SSE body exactly as the service's spec says and yields content deltas.
 *
 * - framing by eventsource-parser (LF, CRLF and lone CR line endings, `:` comments, `event:`/`id:` lines);
 * - bytes decoded with a streaming TextDecoder, so a character split across chunks arrives whole; a BOM is dropped;
 * - each `data:` line is one event (several `data:` lines in one block are split apart again), payload trimmed;
 * - `[DONE]` ends the stream and nothing after it is read;
 * - `{content: string}` appends; an `error` payload throws `streamError`; anything else is skipped and reported;
 * - a body that ends without `[DONE]` yields what arrived, then throws a `cut` error.
 *
 * Deltas from one network chunk are joined into one string, so the consumer wakes once per chunk.
 */
export async function* readContentDeltas(
  body: AsyncIterable<Uint8Array>,
  warnings: SseWarnings = {},
): AsyncGenerator<string, void, undefined> {
  const decoder = new TextDecoder('utf-8');
  const pending: string[] = [];
  let done = false;
  let failure: ServiceError | undefined;

  const onPayload = (raw: string): void => {
    const payload = raw.trim();
    if (done || failure || payload === '') {
      return;
    }
    if (payload === '[DONE]') {
      done = true;
      return;
    }
    const result = interpret(payload);
    if (typeof result === 'string') {
      pending.push(result);
    } else if (result instanceof ServiceError) {
      failure = result;
    } else {
      warnings.onSkipped?.(result.skipped, payload.slice(0, PREVIEW));
    }
  };
  const parser = createParser({
    onEvent: (event: EventSourceMessage) => {
      if (event.data.includes('\n')) {
        event.data.split('\n').forEach(onPayload);
      } else {
        onPayload(event.data);
      }
    },
  });

  for await (const chunk of body) {
    parser.feed(decoder.decode(chunk, { stream: true }));
    if (pending.length > 0) {
      yield pending.length === 1 ? pending[0] : pending.join('');
      pending.length = 0;
    }
    if (failure) {
      throw failure;
    }
    if (done) {
      return;
    }
  }
  // End the last line and the last event, in case the server stopped without a final blank line.
  parser.feed(`${decoder.decode()}\n\n`);
  if (pending.length > 0) {
    yield pending.join('');
  }
  if (failure) {
    throw failure;
  }
  if (!done) {
    throw new ServiceError('cut', 'The reply was cut off: the stream ended before the service said it was done.');
  }
}

/** A content string, an error the service reported in the stream, or a reason to skip the payload. */
function interpret(payload: string): string | ServiceError | { skipped: string } {
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch {
    return { skipped: 'an event was not valid JSON' };
  }
  if (value === null || typeof value !== 'object') {
    return { skipped: 'an event was not a JSON object' };
  }
  const event = value as Record<string, unknown>;
  if (typeof event.content === 'string') {
    return event.content;
  }
  if (event.error !== undefined && event.error !== null) {
    const error = event.error as { message?: unknown } | string;
    const message = typeof error === 'string' ? error : typeof error.message === 'string' ? error.message : undefined;
    return new ServiceError(
      'streamError',
      `The service reported an error during the reply: ${message ?? JSON.stringify(event.error)}`,
      { detail: message },
    );
  }
  return { skipped: 'an event had no content' };
}
