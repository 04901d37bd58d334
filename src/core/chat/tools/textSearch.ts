/** Most matches one search returns. */
export const SEARCH_MAX_MATCHES = 50;
/** Longest line shown of a match; a longer line is cut around the match. */
export const SEARCH_LINE_CHARS = 200;
/** Longest text searched for. */
export const SEARCH_MAX_QUERY = 200;

/** One line that holds the text searched for. */
export interface TextMatch {
  /** 1-based. */
  line: number;
  /** The line, cut to {@link SEARCH_LINE_CHARS} around the match. */
  text: string;
}

/**
 * The query as a pattern: the text taken literally (every character that means something in a pattern escaped),
 * matched without regard to case. A literal pattern tries at most its own length of characters at each position,
 * so a search is linear in the text for a query of bounded length: nothing ALPHA writes is run as a pattern.
 */
export function literalPattern(query: string): RegExp {
  // With the `u` flag only these may be escaped (`\-` would be an error).
  return new RegExp(query.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&'), 'giu');
}

/** Why a query cannot be searched for (empty, too long, more than one line), or undefined. */
export function queryProblem(query: string | undefined): string | undefined {
  if (!query) {
    return 'The call needs a non-empty "query": the text to search for.';
  }
  if (query.length > SEARCH_MAX_QUERY) {
    return `The query is ${query.length} characters long; at most ${SEARCH_MAX_QUERY} are searched for.`;
  }
  return /[\r\n]/.test(query) ? 'The query must be on one line: the search looks within lines.' : undefined;
}

/**
 * The lines of `text` that hold `pattern` (from {@link literalPattern}), first to last, at most `max` (one entry
 * per line, however often it holds the text); `more` when there were more. One pass: after a match the search goes
 * on from the end of its line, and line numbers are counted as the search moves forward.
 */
export function findInText(text: string, pattern: RegExp, max: number): { matches: TextMatch[]; more: boolean } {
  const matches: TextMatch[] = [];
  let line = 1;
  let lineStart = 0;
  let counted = 0;
  pattern.lastIndex = 0;
  for (let found = pattern.exec(text); found; found = pattern.exec(text)) {
    if (matches.length === max) {
      return { matches, more: true };
    }
    for (let nl = text.indexOf('\n', counted); nl >= 0 && nl < found.index; nl = text.indexOf('\n', nl + 1)) {
      line++;
      lineStart = nl + 1;
    }
    const newline = text.indexOf('\n', found.index + Math.max(found[0].length, 1) - 1);
    const lineEnd = newline < 0 ? text.length : newline;
    matches.push({ line, text: excerpt(text, lineStart, lineEnd, found.index) });
    if (newline < 0) {
      break;
    }
    // The next match is looked for on the next line; the line end is counted there.
    counted = newline;
    pattern.lastIndex = newline + 1;
  }
  return { matches, more: false };
}

/** The line from `start` to `end`, or a window of it around `at` when it is long; on one line, trimmed. */
function excerpt(text: string, start: number, end: number, at: number): string {
  const stop = text[end - 1] === '\r' ? end - 1 : end;
  if (stop - start <= SEARCH_LINE_CHARS) {
    return text.slice(start, stop).trim();
  }
  const from = Math.max(start, Math.min(at - 60, stop - SEARCH_LINE_CHARS));
  const to = Math.min(stop, from + SEARCH_LINE_CHARS);
  return `${from > start ? '…' : ''}${text.slice(from, to).trim()}${to < stop ? '…' : ''}`;
}

/** Most bytes of files one search reads, all files together (each file is at most 512 KB). */
export const SEARCH_MAX_BYTES = 32 * 1024 * 1024;
