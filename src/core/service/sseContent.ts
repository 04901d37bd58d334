/**
 * The SSE reader's fast path: the content of a `data:` payload written exactly `{"content":"…"}`, read without
 * JSON.parse. Most events of a stream look like that, and parsing them was most of the reader's time (see
 * sse.bench). A reply with code escapes many of them (`\n`, `\"`, `\\`, `\t`): those are unescaped here too.
 */

const SIMPLE_HEAD = '{"content":"';
const SPACE = 32;
const QUOTE = 34;
const BACKSLASH = 92;
const BRACE = 125;
/** A quote or control character: the string's text is not its JSON value, or not valid JSON. */
const NOT_PLAIN = /["\u0000-\u001f]/;

/** What a one-letter JSON escape stands for, by its letter's code (`"`, `\`, `/`, b, f, n, r, t). */
const ESCAPES: (string | undefined)[] = [];
for (const [letter, value] of Object.entries({
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
})) {
  ESCAPES[letter.charCodeAt(0)] = value;
}
const U = 117;

/**
 * The content of a `data:` payload (`text` from `from` to `end`) written exactly `{"content":"…"}` after one
 * optional space: the string's JSON value, the same as `JSON.parse(payload).content`. Anything else (another
 * shape, other fields, white space inside, an invalid escape or a raw control character): undefined, and the
 * payload goes through JSON.parse, which reads it or says why not.
 */
export function simpleContent(text: string, from: number, end: number): string | undefined {
  const at = text.charCodeAt(from) === SPACE ? from + 1 : from;
  if (
    end - at < SIMPLE_HEAD.length + 2 ||
    text.charCodeAt(end - 1) !== BRACE ||
    text.charCodeAt(end - 2) !== QUOTE ||
    !text.startsWith(SIMPLE_HEAD, at)
  ) {
    return undefined;
  }
  const start = at + SIMPLE_HEAD.length;
  const stop = end - 2;
  const slash = text.indexOf('\\', start);
  if (slash === -1 || slash >= stop) {
    const content = text.slice(start, stop);
    return NOT_PLAIN.test(content) ? undefined : content;
  }
  return unescaped(text, start, stop);
}

/**
 * The JSON string body `text[start, stop)` with its escapes read; undefined when
 * it is not a valid JSON string body (a bad escape, a lone backslash at its end, a raw quote or control character).
 */
function unescaped(text: string, start: number, stop: number): string | undefined {
  let out = '';
  let run = start;
  for (let i = start; i < stop; i++) {
    const code = text.charCodeAt(i);
    if (code === BACKSLASH) {
      if (i + 1 >= stop) {
        return undefined;
      }
      const letter = text.charCodeAt(i + 1);
      let value = ESCAPES[letter];
      let length = 2;
      if (value === undefined) {
        if (letter !== U || i + 6 > stop) {
          return undefined;
        }
        const unit = hex4(text, i + 2);
        if (unit < 0) {
          return undefined;
        }
        value = String.fromCharCode(unit);
        length = 6;
      }
      out += run === i ? value : text.slice(run, i) + value;
      i += length - 1;
      run = i + 1;
    } else if (code === QUOTE || code < SPACE) {
      return undefined;
    }
  }
  return run === stop ? out : out + text.slice(run, stop);
}

/** The value of the four hex digits at `at`, or -1 when one is not a hex digit. */
function hex4(text: string, at: number): number {
  let value = 0;
  for (let i = at; i < at + 4; i++) {
    const digit = hexDigit(text.charCodeAt(i));
    if (digit < 0) {
      return -1;
    }
    value = value * 16 + digit;
  }
  return value;
}

function hexDigit(code: number): number {
  if (code >= 48 && code <= 57) {
    return code - 48;
  }
  const lower = code | 32;
  return lower >= 97 && lower <= 102 ? lower - 87 : -1;
}
