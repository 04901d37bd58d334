import * as buffer from 'node:buffer';

/**
 * JSON files the extension reads back often and whole (conversations) are written in ASCII: every character past
 * U+007F as its `\uXXXX` escape, as Python's `json.dumps` does by default. `JSON.parse` gives the same values, and
 * the file's bytes become a string without UTF-8 decoding: on the 2-core build machine a 3.2 MB conversation with
 * accents and emoji took 29 ms to decode and 1 ms as ASCII (a switch to a long conversation waits for it). Text of
 * other scripts takes more room (an accented letter six bytes instead of two, a CJK character six instead of three).
 */

/** Any character a JSON text in ASCII must escape. */
const NON_ASCII = /[^\x00-\x7f]/;
const NON_ASCII_ALL = /[^\x00-\x7f]/g;

/**
 * `json` (a JSON text, as `JSON.stringify` writes it) with every non-ASCII character escaped; the same text when
 * it has none. One pass, only over a text that has one: the reply streaming into a conversation is encoded at every
 * save.
 */
export function asciiJson(json: string): string {
  return NON_ASCII.test(json) ? json.replace(NON_ASCII_ALL, escapeCode) : json;
}

function escapeCode(char: string): string {
  // The class matches one UTF-16 unit: a pair is escaped as its two halves, as JSON writes it.
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

const isAscii: ((bytes: Buffer) => boolean) | undefined = (buffer as { isAscii?: (bytes: Buffer) => boolean }).isAscii;

/**
 * A file's bytes as text: read as Latin-1 (byte for character, no decoding) when they are all ASCII, which is the
 * same text, else decoded as UTF-8 (files written before `asciiJson`, or by hand). Where Node has no `isAscii`
 * (before 18.15), always UTF-8.
 */
export function textOfBytes(bytes: Buffer): string {
  return isAscii?.(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
}
