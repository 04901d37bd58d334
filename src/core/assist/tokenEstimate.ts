/**
 * An estimate of the tokens a BPE tokenizer makes of `text`, for `provideTokenCount` (the service publishes no
 * tokenizer). Runs of ASCII letters and digits count one token per four characters (at least one), each other
 * ASCII symbol one, white space is folded into the following token except for line ends and long indentation,
 * and every non-ASCII character (CJK, emoji, accented letters) counts one: BPE vocabularies rarely merge them.
 * It errs on the high side, so callers that budget with it stay under the limit.
 */
export function estimateTokens(text: string): number {
  let tokens = 0;
  const pattern = /([A-Za-z0-9_]+)|(\r?\n)|( {4,}|\t+)|([ ]{1,3})|([\x21-\x7e])|([\s\S])/gu;
  for (const m of text.matchAll(pattern)) {
    if (m[1] !== undefined) {
      tokens += Math.ceil(m[1].length / 4);
    } else if (m[3] !== undefined) {
      tokens += Math.ceil(m[3].length / 8);
    } else if (m[4] === undefined) {
      tokens += 1;
    }
  }
  return tokens;
}
