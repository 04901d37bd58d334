/** Searching a reply's Markdown for what the page would show, without the DOM (unit tests run it in Node). */

/**
 * Markdown's inline marks, and a link's target after its text: what the page does not show as text. A target holds
 * one level of balanced parentheses and no other `(`, so a scan from one `](` stops at the next: text full of `](`
 * is read in linear time (`[^)]*` rescanned it from each one, a second per search on 64,000 characters).
 */
const MARKS = /\]\((?:[^()]|\([^()]*\))*\)|[*_`~[\]\\]/g;

/**
 * Whether Markdown may hold `query` (lower case) as the page shows it, for waking a sleeping section (which has no
 * text on the page to search): inline marks and link targets are left out and white space is one space in both, so
 * a match across formatting (`the **zebra**corn`) wakes its section too. Waking one without a match costs a redraw.
 */
export function markdownMayHold(markdown: string, query: string): boolean {
  const plain = (text: string) => text.replace(MARKS, '').replace(/\s+/g, ' ');
  return plain(markdown.toLocaleLowerCase()).includes(plain(query));
}

/** One match of `pieceMatches`: the piece and offset it starts at, and the piece and offset it ends at. */
export interface PieceMatch {
  first: number;
  start: number;
  last: number;
  end: number;
}

/**
 * Where `needle` (lower case) stands in a message's text made of pieces (its text nodes, in order), matched case
 * insensitively; `breakBefore[i]` puts a line break (which a query from the one-line box cannot hold) between piece
 * i - 1 and piece i, another block. One forward `indexOf` pass over the joined text and a binary search per match:
 * linear in the text. It stops after `limit` matches.
 */
export function pieceMatches(
  pieces: readonly string[],
  breakBefore: readonly boolean[],
  needle: string,
  limit = Infinity,
): PieceMatch[] {
  const matches: PieceMatch[] = [];
  if (!needle) {
    return matches;
  }
  const starts: number[] = [];
  let text = '';
  for (let i = 0; i < pieces.length; i++) {
    if (i > 0 && breakBefore[i]) {
      text += '\n';
    }
    const value = pieces[i];
    const lower = value.toLocaleLowerCase();
    starts.push(text.length);
    // A letter whose lower case has another length (rare) is matched as written, so offsets stay the piece's.
    text += lower.length === value.length ? lower : value;
  }
  for (
    let at = text.indexOf(needle);
    at >= 0 && matches.length < limit;
    at = text.indexOf(needle, at + needle.length)
  ) {
    const first = pieceAt(starts, at, false);
    const last = pieceAt(starts, at + needle.length, true);
    matches.push({ first, start: at - starts[first], last, end: at + needle.length - starts[last] });
  }
  return matches;
}

/** The piece holding offset `at` of the joined text; for a match's end, the piece it ends in, not the next one. */
function pieceAt(starts: readonly number[], at: number, isEnd: boolean): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (isEnd ? starts[mid] < at : starts[mid] <= at) {
      low = mid;
    } else {
      high = mid - 1;
    }
  }
  return low;
}
