/**
 * Citations of a grounded reply: which ones are AXO articles, and the plain `[1]` markers in the reply's Markdown
 * turned into links to the numbered sources. Titles and URLs come from the service and are never trusted: they
 * never enter the Markdown the linker writes, only the source's number does.
 */

import type { Citation } from '../../service/normalize';
import { hasCredentials, WEB_LINK_SCHEMES } from '../../../shared/links';

/** How a source opens: in the Encyclopedia view by title, or its web page through the host. */
export type SourceTarget = { kind: 'article'; title: string } | { kind: 'web'; url: string } | { kind: 'none' };

/**
 * The article URLs the encyclopedia has returned (its article and search answers, as its cache holds them: see
 * `ArticleUrls`): their origins serve articles, and a source at one of them is that article.
 */
export interface KnownArticleUrls {
  /** The origins of the article URLs the encyclopedia returned. */
  origins(): Iterable<string>;
  /** The title of the article the encyclopedia returned at `href` (a URL as `URL.href` writes it), if any. */
  titleAt(href: string): string | undefined;
}

/**
 * The rule for "is this an AXO article", and which one: a citation without a URL is one (AXO cites its own articles
 * by title); so is a URL the encyclopedia returned for an article (`known`: that article), and one whose origin is
 * among `articleOrigins`, the origins the encyclopedia serves its articles from (see `articleOriginsOf`). Any other
 * http(s) URL is a web page, however its title resembles its path; anything else (`javascript:`, `file:`, a URL
 * with a user name) opens nothing.
 */
export function sourceTarget(
  citation: Citation,
  articleOrigins: Iterable<string>,
  known?: KnownArticleUrls,
): SourceTarget {
  const title = citation.title.trim();
  if (!citation.url?.trim()) {
    return title ? { kind: 'article', title } : { kind: 'none' };
  }
  let parsed: URL;
  try {
    parsed = new URL(citation.url.trim());
  } catch {
    return title ? { kind: 'article', title } : { kind: 'none' };
  }
  if (!WEB_LINK_SCHEMES.includes(parsed.protocol) || hasCredentials(parsed)) {
    return { kind: 'none' };
  }
  const named = known?.titleAt(parsed.href);
  if (named) {
    return { kind: 'article', title: named };
  }
  const origins = new Set([...articleOrigins].map(originOf).filter((o): o is string => o !== undefined));
  if (origins.has(parsed.origin) && title && title !== citation.url) {
    return { kind: 'article', title };
  }
  return { kind: 'web', url: parsed.href };
}

/** How each of a reply's sources opens: `sourceTarget` with the origins `articleOriginsOf` finds, worked out once. */
export function sourceTargets(
  sources: readonly Citation[],
  baseUrl: string | undefined,
  known?: KnownArticleUrls,
): SourceTarget[] {
  const origins = articleOriginsOf(baseUrl, known);
  return sources.map((source) => sourceTarget(source, origins, known));
}

/**
 * The origins the encyclopedia serves its articles from, as far as it has said: the service's own (`baseUrl`) and
 * the origins of the article URLs it returned (`known`). A source elsewhere is a web page, whatever its title and URL
 * look like: "Promise - JavaScript | MDN" at `…/Promise` is MDN's page, not the article "Promise".
 */
export function articleOriginsOf(baseUrl: string | undefined, known?: KnownArticleUrls): string[] {
  const origins = new Set<string>();
  const base = baseUrl ? originOf(baseUrl) : undefined;
  if (base) {
    origins.add(base);
  }
  for (const origin of known?.origins() ?? []) {
    origins.add(origin);
  }
  return [...origins];
}

/** The origin of a URL, or undefined when it does not parse. */
function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/** The fragment a marker links to; the page maps it to its numbered source. */
export function sourceAnchor(n: number): string {
  return `#alpha-source-${n}`;
}

/** A fence opener: up to 3 spaces, then 3+ backticks or tildes. */
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * Turns plain `[n]` markers (1 ≤ n ≤ `count`) into Markdown links to `sourceAnchor(n)`, outside fenced and
 * indented code blocks and inline code spans. Left alone: escaped `\[1]`, images `![1]`, links `[1](…)`, and
 * every number the reply defines as a Markdown reference (`[1]: …`), since those are Markdown, not markers.
 */
export function linkCitationMarkers(markdown: string, count: number): string {
  if (count < 1) {
    return markdown;
  }
  const lines = markdown.split('\n');
  const defined = new Set(
    lines
      .map((l) => /^ {0,3}\[(\d+)\]:/.exec(l)?.[1])
      .filter((d) => d !== undefined)
      .map(Number),
  );
  let fence: string | undefined;
  let previousBlank = true;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const opener = FENCE.exec(line)?.[1];
    if (fence !== undefined) {
      if (
        opener &&
        opener[0] === fence[0] &&
        opener.length >= fence.length &&
        !line.slice(line.indexOf(opener) + opener.length).trim()
      ) {
        fence = undefined;
      }
    } else if (opener) {
      fence = opener;
    } else if (!(previousBlank && /^(?: {4}|\t)/.test(line))) {
      lines[i] = linkLine(line, count, defined);
    } else {
      // An indented code line stays as it is; the next line may continue the block.
      previousBlank = true;
      continue;
    }
    previousBlank = line.trim() === '';
  }
  return lines.join('\n');
}

/**
 * Links the markers of one line outside its inline code spans. One pass: the backtick runs are found once, a run
 * closes at the next run of the same length (as CommonMark has it), and what was written is never read back.
 */
function linkLine(line: string, count: number, defined: ReadonlySet<number>): string {
  if (/^ {0,3}\[\d+\]:/.test(line)) {
    return line;
  }
  // Where each backtick run starts and how long it is (typed arrays: a line of thousands of runs makes no garbage).
  const starts: number[] = [];
  for (let at = line.indexOf('`'); at >= 0; at = line.indexOf('`', at)) {
    starts.push(at);
    while (line[at] === '`') {
      at++;
    }
  }
  const runs = starts.length;
  const runAt = Int32Array.from(starts);
  const runLength = new Int32Array(runs);
  for (let r = 0; r < runs; r++) {
    let end = runAt[r];
    while (line[end] === '`') {
      end++;
    }
    runLength[r] = end - runAt[r];
  }
  // The run that closes each run: the next one of the same length (-1: none, it is literal backticks).
  const closer = new Int32Array(runs).fill(-1);
  const lastOfLength = new Map<number, number>();
  for (let r = runs - 1; r >= 0; r--) {
    closer[r] = lastOfLength.get(runLength[r]) ?? -1;
    lastOfLength.set(runLength[r], r);
  }
  let out = '';
  let i = 0;
  let r = 0;
  while (i < line.length) {
    while (r < runs && runAt[r] < i) {
      r++;
    }
    const end = r < runs ? runAt[r] : line.length;
    out += linkText(line.slice(i, end), count, defined, i > 0 ? line[i - 1] : '');
    if (r >= runs) {
      break;
    }
    const close = closer[r];
    // An unclosed run is literal backticks; a closed one is a code span kept whole.
    const stop = close < 0 ? end + runLength[r] : runAt[close] + runLength[close];
    out += line.slice(end, stop);
    i = stop;
  }
  return out;
}

/** Links markers in text outside code; `before` is the character before it on the line ('' at the start). */
function linkText(text: string, count: number, defined: ReadonlySet<number>, before: string): string {
  return text.replace(/\[(\d{1,3})\](?!\()/g, (match: string, digits: string, offset: number) => {
    const n = Number(digits);
    const prev = offset > 0 ? text[offset - 1] : before;
    if (n < 1 || n > count || defined.has(n) || prev === '\\' || prev === '!') {
      return match;
    }
    return `[\\[${n}\\]](${sourceAnchor(n)})`;
  });
}
