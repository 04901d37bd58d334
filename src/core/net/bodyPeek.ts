/**
 * Telling what a body is when its headers do not say: some servers stream server-sent events with no content
 * type, or with `text/plain` or `application/octet-stream`, and some stream JSON lines (one object per line, as
 * Ollama does) that way. The start of the body settles it.
 */

/** The start of a body, decoded (a BOM dropped), and the whole body replayed from its first byte. */
export interface PeekedBody {
  head: string;
  body: AsyncIterable<Uint8Array>;
}

/** How far `canTell` lets a peek read while waiting for a second line (a JSON line is rarely longer). */
export const PEEK_LIMIT_CHARS = 64 * 1024;

/** Text that is not white space or RFC 7464's record separator. */
const TEXT = /[^\s\u001e]/;

/**
 * Whether a body's start is enough for `looksLikeEventStream` and `looksLikeJsonLines` to tell: an event stream
 * shows in its first characters; JSON lines need their second line to have started.
 */
export function canTell(head: string): boolean {
  return (
    head.length >= 8 &&
    (looksLikeEventStream(head) || head.length >= PEEK_LIMIT_CHARS || hasSecondLine(head.trimStart()))
  );
}

/**
 * Whether a line end is followed by another line's text. In linear time: one search for the first line end, one for
 * text after it (a pattern searching for both rescanned a run of blank lines from each of its line ends: seconds on
 * a head of 64 KB, after every chunk).
 */
function hasSecondLine(text: string): boolean {
  const lf = text.indexOf('\n');
  const cr = text.indexOf('\r');
  const end = lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr);
  return end !== -1 && TEXT.test(text.slice(end + 1));
}

/** Reads chunks until `enough` says the start read is enough, or the body ended; nothing read is lost to `body`. */
export async function peekBody(
  source: AsyncIterable<Uint8Array>,
  enough: (head: string) => boolean,
): Promise<PeekedBody> {
  const chunks = source[Symbol.asyncIterator]();
  const seen: Uint8Array[] = [];
  const decoder = new TextDecoder('utf-8');
  let head = '';
  let ended = false;
  while (!enough(head)) {
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

/**
 * Whether a body starts as JSON lines do: a first line that is a whole JSON object on its own, followed by another
 * line that starts one (`canTell` waits for that). A JSON document written over several lines starts with
 * a line that is not whole, and one written on a single line has nothing after it, so neither is taken for lines.
 */
export function looksLikeJsonLines(head: string): boolean {
  const match = /^[\s\u001e]*(\{[^\r\n]*\})[ \t]*\r?\n[\s\u001e]*\{/.exec(head);
  if (!match) {
    return false;
  }
  try {
    JSON.parse(match[1]);
    return true;
  } catch {
    return false;
  }
}
