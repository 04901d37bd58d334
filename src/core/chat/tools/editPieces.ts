/** Most search-and-replace pieces one proposal takes. */
export const MAX_EDIT_PIECES = 50;

/** One piece of a proposed change: `search` must occur exactly once in the file, and becomes `replace`. */
export interface EditPiece {
  search: string;
  replace: string;
}

/**
 * The pieces of a `propose_edit` call, checked for shape: a list of `{search, replace}` strings, each search
 * non-empty; or the sentence saying what is wrong.
 */
export function readPieces(value: unknown): { pieces: EditPiece[] } | { problem: string } {
  if (!Array.isArray(value) || value.length === 0) {
    return { problem: '"edits" must be a non-empty list of {search, replace} pieces.' };
  }
  if (value.length > MAX_EDIT_PIECES) {
    return { problem: `"edits" has ${value.length} pieces; at most ${MAX_EDIT_PIECES} are taken in one proposal.` };
  }
  const pieces: EditPiece[] = [];
  for (const [i, piece] of value.entries()) {
    const { search, replace } = (piece ?? {}) as Record<string, unknown>;
    if (typeof search !== 'string' || !search || typeof replace !== 'string') {
      return { problem: `Edit ${i + 1} needs a non-empty "search" string and a "replace" string.` };
    }
    pieces.push({ search, replace });
  }
  return { pieces };
}

/**
 * `text` with each piece applied in order, each to the text the ones before left: its search must occur exactly
 * once (an overlapping second occurrence counts). A file with `\r\n` line ends takes pieces written with `\n`.
 * Refused, with the piece and why, when a search is missing or ambiguous, or when nothing changes.
 */
export function applyPieces(text: string, pieces: readonly EditPiece[]): { text: string } | { problem: string } {
  const crlf = text.includes('\r\n');
  let out = text;
  for (const [i, piece] of pieces.entries()) {
    const search = crlf ? toCrlf(piece.search) : piece.search;
    const replace = crlf ? toCrlf(piece.replace) : piece.replace;
    const at = out.indexOf(search);
    if (at < 0) {
      return {
        problem:
          `Edit ${i + 1}: its search text is not in the file (it must match exactly, spaces and line ends ` +
          'included): read the file again and copy the lines.',
      };
    }
    if (out.indexOf(search, at + 1) >= 0) {
      return {
        problem: `Edit ${i + 1}: its search text occurs more than once: include more of the lines around it.`,
      };
    }
    out = out.slice(0, at) + replace + out.slice(at + search.length);
  }
  return out === text ? { problem: 'The edits change nothing in the file.' } : { text: out };
}

/** `\n` line ends as `\r\n` (those already `\r\n` stay). */
function toCrlf(text: string): string {
  return text.replace(/\r?\n/g, '\r\n');
}

/** The lines a change touches: `[start, end)` of the old text, and what they become. */
export interface ChangedSpan {
  start: number;
  end: number;
  replacement: string;
}

/**
 * The whole lines of `before` that differ from `after`, and their new text: the text both share at the start and at
 * the end is left out, so a review shows, and an Apply replaces, only the lines that change. One pass each way.
 */
export function changedSpan(before: string, after: string): ChangedSpan {
  const most = Math.min(before.length, after.length);
  let prefix = 0;
  while (prefix < most && before.charCodeAt(prefix) === after.charCodeAt(prefix)) {
    prefix++;
  }
  let suffix = 0;
  while (
    suffix < most - prefix &&
    before.charCodeAt(before.length - 1 - suffix) === after.charCodeAt(after.length - 1 - suffix)
  ) {
    suffix++;
  }
  const start = prefix === 0 ? 0 : before.lastIndexOf('\n', prefix - 1) + 1;
  let end = before.length - suffix;
  if (end < before.length && before[end - 1] !== '\n') {
    const newline = before.indexOf('\n', end);
    end = newline < 0 ? before.length : before[newline - 1] === '\r' ? newline - 1 : newline;
  }
  return { start, end, replacement: after.slice(start, after.length - (before.length - end)) };
}
