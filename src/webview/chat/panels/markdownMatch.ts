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
