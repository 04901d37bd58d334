import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { ServiceError } from './errors';
import { l10n } from './l10n';

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
  let pending = '';
  let done = false;
  let failure: ServiceError | undefined;

  const onPayload = (raw: string): void => {
    if (done || failure) {
      return;
    }
    // JSON.parse ignores surrounding white space, so the trim the spec asks for only matters for [DONE].
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      const payload = raw.trim();
      if (payload === '[DONE]') {
        done = true;
      } else if (payload !== '') {
        warnings.onSkipped?.('an event was not valid JSON', payload.slice(0, PREVIEW));
      }
      return;
    }
    const content = (value as { content?: unknown } | null)?.content;
    if (typeof content === 'string') {
      pending += content;
      return;
    }
    const result = interpret(value);
    if (result instanceof ServiceError) {
      failure = result;
    } else {
      warnings.onSkipped?.(result.skipped, raw.trim().slice(0, PREVIEW));
    }
  };
  const parser = createParser({
    onEvent: (event: EventSourceMessage) => {
      const data = event.data;
      if (data.indexOf('\n') === -1) {
        onPayload(data);
      } else {
        data.split('\n').forEach(onPayload);
      }
    },
  });

  for await (const chunk of body) {
    parser.feed(decoder.decode(chunk, { stream: true }));
    if (pending !== '') {
      const delta = pending;
      pending = '';
      yield delta;
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
  if (pending !== '') {
    yield pending;
  }
  if (failure) {
    throw failure;
  }
  if (!done) {
    throw new ServiceError(
      'cut',
      l10n.t('The reply was cut off: the stream ended before the service said it was done.'),
    );
  }
}

/** For a payload without string content: the error the service reported in it, or the reason to skip it. */
function interpret(value: unknown): ServiceError | { skipped: string } {
  if (value === null || typeof value !== 'object') {
    return { skipped: 'an event was not a JSON object' };
  }
  const event = value as Record<string, unknown>;
  if (event.error !== undefined && event.error !== null) {
    const error = event.error as { message?: unknown } | string;
    const message = typeof error === 'string' ? error : typeof error.message === 'string' ? error.message : undefined;
    return new ServiceError(
      'streamError',
      l10n.t('The service reported an error during the reply: {0}', message ?? JSON.stringify(event.error)),
      { detail: message },
    );
  }
  return { skipped: 'an event had no content' };
}
