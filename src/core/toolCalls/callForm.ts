/*
 * The written form of a tool call: a fenced block whose info string is `tool_call`, holding one JSON object
 * `{"name": …, "arguments": {…}}`:
 *
 *     ```tool_call
 *     {"name": "create_file", "arguments": {"filePath": "/a.txt", "content": "hi"}}
 *     ```
 *
 * Why a fence: models write fenced blocks more reliably than any other structure, a fence survives the Markdown
 * around it (lists, headings, prose on the lines before and after), several blocks fit in one reply, and the
 * reserved info string cannot be mistaken for an ordinary code block (`json`, `ts`, …), whose contents stay text,
 * calls included. JSON strings cannot hold a raw line break, so a fence line inside a file's content can never
 * close the call early, and the parser follows the JSON's own braces and strings to know where the call ends.
 */

/** The info string of a call block, as the tools message teaches it. */
export const CALL_INFO = 'tool_call';

/** The first character of an info string that is not white space. */
const FIRST_LETTER = /\S/;

/** The info strings read as a call (lower-cased): the taught one and the spellings models slip into. */
const CALL_NAMES = ['tool_call', 'tool-call', 'toolcall'];

/**
 * Whether a fence's info string (as written so far) is a call marker: 'complete' when it is one, 'prefix' when more
 * characters could still make it one, 'no' otherwise. Accepts any case and a trailing ` json`.
 */
export function markerState(info: string): 'complete' | 'prefix' | 'no' {
  const first = FIRST_LETTER.exec(info)?.[0];
  if (first === undefined) {
    return 'prefix';
  }
  if (first !== 't' && first !== 'T') {
    return 'no'; // every call name starts with a t: an info string such as `ts` is told without copying it
  }
  const text = info.trimStart().toLowerCase();
  for (const name of CALL_NAMES) {
    if (name.startsWith(text)) {
      return text === name ? 'complete' : 'prefix';
    }
    if (text.startsWith(name)) {
      const rest = text.slice(name.length);
      if (/^\s*$/.test(rest) || /^\s+json\s*$/.test(rest)) {
        return 'complete';
      }
      return /^\s+(j(s(o)?)?)?$/.test(rest) ? 'prefix' : 'no';
    }
  }
  return 'no';
}

/** One call in the written form, as the model is taught to write it (history uses it for calls made earlier). */
export function formatCall(name: string, input: unknown): string {
  return `\`\`\`${CALL_INFO}\n${JSON.stringify({ name, arguments: input ?? {} })}\n\`\`\``;
}

/** The shortest backtick fence longer than every backtick run in `text` (at least three), to quote it whole. */
export function fenceFor(text: string): string {
  let longest = 0;
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    run = text.charCodeAt(i) === 0x60 ? run + 1 : 0;
    longest = Math.max(longest, run);
  }
  return '`'.repeat(Math.max(3, longest + 1));
}
