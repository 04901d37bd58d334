/**
 * Telling what a body is when its headers do not say: some servers stream server-sent events with no content
 * type, or with `text/plain` or `application/octet-stream`. The start of the body settles it.
 */

/** The start of a body, decoded (a BOM dropped), and the whole body replayed from its first byte. */
export interface PeekedBody {
  head: string;
  body: AsyncIterable<Uint8Array>;
}

/** Reads chunks until `chars` characters have arrived or the body ended; nothing read is lost to `body`. */
export async function peekBody(source: AsyncIterable<Uint8Array>, chars = 8): Promise<PeekedBody> {
  const chunks = source[Symbol.asyncIterator]();
  const seen: Uint8Array[] = [];
  const decoder = new TextDecoder('utf-8');
  let head = '';
  let ended = false;
  while (head.length < chars) {
    const next = await chunks.next();
    if (next.done) {
      ended = true;
      break;
    }
    seen.push(next.value);
    head += decoder.decode(next.value, { stream: true });
  }
  async function* replay(): AsyncGenerator<Uint8Array> {
    yield* seen;
    if (!ended) {
      for (let next = await chunks.next(); !next.done; next = await chunks.next()) {
        yield next.value;
      }
    }
  }
  return { head, body: replay() };
}

/** Whether a body starts as server-sent events do: a `data:`, `event:`, `id:` or `retry:` field, or a `:` comment. */
export function looksLikeEventStream(head: string): boolean {
  return /^[\r\n]*(?:data|event|id|retry)?:/.test(head);
}
