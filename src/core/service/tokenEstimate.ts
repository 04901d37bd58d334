/**
 * An estimate of the tokens a BPE tokenizer makes of `text` (the service publishes no tokenizer), for every budget
 * the extension keeps: the chat's context, the code-assistance context, `provideTokenCount`. Runs of ASCII letters,
 * digits and `_` count one token per four characters (at least one); each other ASCII symbol one; one to three
 * spaces are folded into the following token, longer runs of spaces (or any run of tabs) count one per eight; a line
 * end counts one; every other character (CJK, emoji, accented letters, other white space) counts one: BPE
 * vocabularies rarely merge them. It errs on the high side (English prose comes out near 3.2 characters per token
 * and code near 2.3, where BPE tokenizers commonly make about 4 and 3), so callers that budget with it stay under
 * the limit.
 *
 * One pass over the character codes, no regular expression, each ASCII code's kind from a table: the chat estimates
 * its whole conversation each time it shows its state (4.4 MB in a switch to a conversation of 5,000 messages).
 */
export function estimateTokens(text: string): number {
  let tokens = 0;
  const length = text.length;
  let i = 0;
  while (i < length) {
    const code = text.charCodeAt(i);
    const kind = code < 0x80 ? KIND[code] : OTHER;
    if (kind === WORD) {
      const start = i;
      do {
        i++;
      } while (i < length && isWordAt(text, i));
      tokens += Math.ceil((i - start) / 4);
    } else if (kind === OTHER) {
      tokens++;
      // "\r\n" is one line end; a surrogate pair is one character.
      const next = text.charCodeAt(i + 1);
      const pair =
        (code === 0x0d && next === 0x0a) || (code >= 0xd800 && code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff);
      i += pair ? 2 : 1;
    } else {
      // A run of the same blank: spaces or tabs.
      const start = i;
      do {
        i++;
      } while (i < length && text.charCodeAt(i) === code);
      const run = i - start;
      if (kind === TAB || run >= 4) {
        tokens += Math.ceil(run / 8);
      }
    }
  }
  return tokens;
}

const OTHER = 0;
const WORD = 1;
const SPACE = 2;
const TAB = 3;

/** Each ASCII code's kind: a word character (letters, digits, `_`), a space, a tab, or other. */
const KIND = (() => {
  const kinds = new Uint8Array(0x80);
  for (const [from, to] of [
    [0x30, 0x39],
    [0x41, 0x5a],
    [0x61, 0x7a],
    [0x5f, 0x5f],
  ]) {
    kinds.fill(WORD, from, to + 1);
  }
  kinds[0x20] = SPACE;
  kinds[0x09] = TAB;
  return kinds;
})();

function isWordAt(text: string, i: number): boolean {
  const code = text.charCodeAt(i);
  return code < 0x80 && KIND[code] === WORD;
}
