import { trimOf } from '../../shared/trimChars';

/**
 * Prepares a proposed replacement for the selected lines: line ends made the document's, and the indentation
 * restored when the model dropped the selection's common indentation (models often return a method flush left).
 */
export function fitProposal(proposal: string, original: string, eol: '\n' | '\r\n'): string {
  const lines = proposal.replace(/\r\n?/g, '\n').split('\n');
  const wanted = commonIndent(original.replace(/\r\n?/g, '\n').split('\n'));
  const have = commonIndent(lines);
  if (wanted.length > have.length && wanted.startsWith(have)) {
    const extra = wanted.slice(have.length);
    for (let i = 0; i < lines.length; i++) {
      if (lines[i].trim() !== '') {
        lines[i] = extra + lines[i];
      }
    }
  }
  return lines.join(eol);
}

/** Whether two texts are the same code, ignoring line-end style, trailing white space and blank lines around it. */
export function sameCode(a: string, b: string): boolean {
  // Blank lines around the code do not count; the first line's indentation does.
  const norm = (text: string) =>
    trimOf(
      text
        .replace(/\r\n?/g, '\n')
        .split('\n')
        .map((line) => line.trimEnd())
        .join('\n'),
      '\n',
    );
  return norm(a) === norm(b);
}

/** The longest leading white space shared by every non-blank line ('' when there is none). */
export function commonIndent(lines: readonly string[]): string {
  let common: string | undefined;
  for (const line of lines) {
    if (line.trim() === '') {
      continue;
    }
    const indent = /^[ \t]*/.exec(line)?.[0] ?? '';
    if (common === undefined) {
      common = indent;
      continue;
    }
    let n = 0;
    while (n < common.length && n < indent.length && common[n] === indent[n]) {
      n++;
    }
    common = common.slice(0, n);
  }
  return common ?? '';
}
