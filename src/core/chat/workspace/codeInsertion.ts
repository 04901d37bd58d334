/**
 * Fits a code block from a reply to where "Insert at cursor" puts it: the document's line ends; when the cursor
 * stands in a line's indentation, the block's later lines take that indentation too (the first line starts at the
 * cursor already); when text follows the cursor on its line, a multi-line block ends with a line break, so that
 * text starts a line of its own instead of trailing the block's last line.
 */
export function fitInsertion(code: string, before: string, after: string, eol: '\n' | '\r\n'): string {
  const lines = code.replace(/\r\n?/g, '\n').split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') {
    lines.pop();
  }
  const indent = /^[ \t]*$/.test(before) ? before : '';
  const fitted = lines.map((line, i) => (i > 0 && line.trim() !== '' ? indent + line : line));
  const breakAfter = fitted.length > 1 && after.trim() !== '' ? eol + indent : '';
  return fitted.join(eol) + breakAfter;
}
