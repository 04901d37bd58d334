/** A code fence's opening or closing line: three or more backticks or tildes. */
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * The line the export writes after the fence it adds to close a message's unclosed code block (a reply stopped in
 * the middle of one): without it the block would run on through every later heading. The import takes both away.
 */
export const FENCE_CLOSED_NOTE = '<!-- alpha: the export closed this code block -->';

/** The code fence `text` leaves open at its end (its marker), if any. */
export function openFenceAt(text: string): string | undefined {
  let fence: string | undefined;
  for (const line of text.split(/\r\n|\r|\n/)) {
    fence = nextFence(line, fence);
  }
  return fence;
}

/** The fence open after `line`: opened by a fence line, closed by one of the same kind at least as long. */
export function nextFence(line: string, open: string | undefined): string | undefined {
  const match = FENCE.exec(line);
  if (!match) {
    return open;
  }
  const marker = match[1];
  if (open === undefined) {
    return marker;
  }
  const closes = marker[0] === open[0] && marker.length >= open.length && line.trim() === marker;
  return closes ? undefined : open;
}
