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
 * One pass over the character codes, no regular expression: the chat estimates its whole conversation each time it
 * shows its state.
 */
export function estimateTokens(text: string): number {
  let tokens = 0;
  const length = text.length;
  let i = 0;
  while (i < length) {
    const code = text.charCodeAt(i);
    if (isWordCode(code)) {
      const start = i;
      do {
        i++;
      } while (i < length && isWordCode(text.charCodeAt(i)));
      tokens += Math.ceil((i - start) / 4);
    } else if (code === 0x20 || code === 0x09) {
      const start = i;
      do {
        i++;
      } while (i < length && text.charCodeAt(i) === code);
      const run = i - start;
      if (code === 0x09 || run >= 4) {
        tokens += Math.ceil(run / 8);
      }
    } else {
      tokens++;
      // "\r\n" is one line end; a surrogate pair is one character.
      const next = text.charCodeAt(i + 1);
      const pair =
        (code === 0x0d && next === 0x0a) || (code >= 0xd800 && code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff);
      i += pair ? 2 : 1;
    }
  }
  return tokens;
}

function isWordCode(code: number): boolean {
  return (
    (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || (code >= 0x30 && code <= 0x39) || code === 0x5f
  );
}
