import { escapeInline } from '../encyclopedia/articleMarkdown';
import { cleanText, clip } from '../encyclopedia/lookupTypes';
import type { Answer, Article, Citation, SearchResult } from '../service/normalize';
import { isWebUrl, webUrl } from '../../shared/links';
import { ARTICLE_BUDGET_CHARS, MAX_SEARCH_RESULTS, SNIPPET_LENGTH } from './axoToolSpecs';

/*
 * The text of a tool result, as the calling model reads it. Everything from the service is made inert first: raw
 * HTML cannot render, a link is a link only when it is http(s) (a `command:` or `javascript:` link keeps its text
 * and loses its target), and control and bidirectional-override characters are dropped.
 */

/** Most sources listed under an answer or an article. */
const MAX_SOURCES = 10;

/** Control characters but line feed and tab, and the bidirectional overrides and isolates. */
const INVISIBLE = /[^\P{Cc}\n\t]|[\u202A-\u202E\u2066-\u2069]/gu;
/**
 * An inline link or image `[text](target)`; the target has no line break, and parentheses only one deep. The text
 * holds no `[`, so a line full of `[` is not rescanned from each one (linear time).
 */
const INLINE_LINK = /\[([^\][\n]*)\]\(((?:[^()\n]|\([^()\n]*\))*)\)/g;
/** A link reference definition `[label]: target` at the start of a line. */
const LINK_DEFINITION = /^( {0,3}\[[^\]\n]*\]:)[ \t]*(\S+)/gm;

/** The target of a Markdown link: the part before a title, without the angle brackets it may be written in. */
function linkTarget(target: string): string {
  const first = target.trim().split(/\s/, 1)[0] ?? '';
  return first.replace(/^<|>$/g, '');
}

/** Service text made inert for a model's context (see the file comment); Markdown itself is kept. */
export function inertText(text: string): string {
  return text
    .replace(INVISIBLE, '')
    .replace(/</g, '&lt;')
    .replace(INLINE_LINK, (whole, label: string, target: string) => (isWebUrl(linkTarget(target)) ? whole : label))
    .replace(LINK_DEFINITION, (whole, label: string, target: string) =>
      isWebUrl(linkTarget(target)) ? whole : `${label} (link removed)`,
    )
    .trim();
}

/** One line of plain text from the service, inert and escaped for a Markdown line (`<` as `&lt;`, as in text). */
function inertLine(text: string): string {
  return escapeInline(text.replace(INVISIBLE, '').replace(/</g, '&lt;'));
}

/** `[n] Title — URL` lines, the URL only when it is http(s). */
function sourceLines(citations: readonly Citation[]): string[] {
  return citations.slice(0, MAX_SOURCES).map((c, i) => {
    const url = webUrl(c.url);
    return `[${i + 1}] ${inertLine(c.title) || inertLine(url ?? '')}${url ? ` — ${url}` : ''}`;
  });
}

/** The title a citation's URL names: its last path segment, decoded, with `_` as a space. */
function titleInUrl(url: string | undefined): string | undefined {
  const parsed = webUrl(url);
  if (!parsed) {
    return undefined;
  }
  const segment = new URL(parsed).pathname.split('/').filter(Boolean).pop();
  if (!segment) {
    return undefined;
  }
  try {
    return cleanText(decodeURIComponent(segment).replace(/_/g, ' '));
  } catch {
    return undefined;
  }
}

/**
 * The article an answer is about, as far as it can be told: the first citation whose URL names its own title (an
 * encyclopedia page, `…/wiki/Alan_Turing` titled "Alan Turing").
 */
export function articleCitedByTitle(citations: readonly Citation[]): string | undefined {
  const found = citations.find((c) => {
    const named = titleInUrl(c.url);
    return named !== undefined && named.toLowerCase() === cleanText(c.title).toLowerCase();
  });
  return found && cleanText(found.title);
}

/**
 * The result of `axo_ask`: the answer, its numbered sources, and the article it is about (`about`, when the caller
 * knows it from a looked-up term; else a citation naming its title), or a sentence when AXO had no answer.
 */
export function answerResult(answer: Answer, about?: string): string {
  const text = inertText(answer.text);
  if (!text && answer.citations.length === 0) {
    return `AXO has no answer to “${inertLine(clip(cleanText(answer.query), 120))}”.`;
  }
  const out = [text || 'AXO gave no answer text, only the sources below.'];
  if (answer.citations.length) {
    out.push('', 'Sources:', ...sourceLines(answer.citations));
  }
  const article = about ?? articleCitedByTitle(answer.citations);
  if (article) {
    out.push('', `About the article: ${inertLine(article)} (read it with axo_article).`);
  }
  return out.join('\n');
}

/** The result of `axo_search`: numbered titles with a one-line snippet and URL each, or a sentence when none. */
export function searchResult(query: string, results: readonly SearchResult[]): string {
  const terms = inertLine(clip(cleanText(query), 120));
  if (results.length === 0) {
    return `AXO found no articles for “${terms}”.`;
  }
  const shown = results.slice(0, MAX_SEARCH_RESULTS);
  const lines = shown.map((r, i) => {
    const snippet = r.snippet ? inertLine(clip(cleanText(r.snippet), SNIPPET_LENGTH)) : '';
    const url = webUrl(r.url);
    return `${i + 1}. ${inertLine(r.title)}${snippet ? ` — ${snippet}` : ''}${url ? ` (${url})` : ''}`;
  });
  const more = results.length > shown.length ? ` (the first ${shown.length} of ${results.length})` : '';
  return [`AXO search results for “${terms}”${more}:`, ...lines].join('\n');
}

/** Cuts text to at most `max` characters at a paragraph break, else a line, else a word. */
function cutText(text: string, max: number): string {
  if (text.length <= max) {
    return text;
  }
  const head = text.slice(0, max);
  for (const mark of ['\n\n', '\n', ' ']) {
    const at = head.lastIndexOf(mark);
    if (at > max * 0.5) {
      return head.slice(0, at).trimEnd();
    }
  }
  return head.trimEnd();
}

/** Whole rows of a table that fit in `max` characters (each row counted with its line break). */
function rowsWithin(rows: readonly string[], max: number): string[] {
  const kept: string[] = [];
  let used = 0;
  for (const row of rows) {
    if (used + row.length + 1 > max) {
      break;
    }
    kept.push(row);
    used += row.length + 1;
  }
  return kept;
}

const FACTS_HEAD = ['', '## Facts', '', '| Fact | Value |', '| --- | --- |'];
/** Room kept for the line that says what was cut. */
const NOTE_ROOM = 320;

/**
 * The result of `axo_article`: title, URL, the text as inert Markdown and the facts as a table, within `budget`
 * characters. When it does not fit, the text is cut first (at a paragraph) down to half the room, then the facts
 * rows, and the last line says what was cut and where the whole article is.
 */
export function articleResult(article: Article, budget = ARTICLE_BUDGET_CHARS): string {
  const url = webUrl(article.url);
  const head = [`# ${inertLine(article.title)}`, ...(url ? [`URL: ${url}`] : []), ''];
  const summary = article.summary?.trim();
  const content = inertText(article.content) || (summary ? inertText(summary) : '');
  const rows = article.facts.map((f) => `| ${inertLine(f.name)} | ${inertLine(f.value)} |`);
  const sources = article.citations.length ? ['', 'Sources:', ...sourceLines(article.citations)] : [];
  const fixed = [...head, ...sources].join('\n').length + (rows.length ? FACTS_HEAD.join('\n').length + 1 : 0);
  const room = Math.max(0, budget - fixed - NOTE_ROOM);
  const factsLength = rows.reduce((sum, row) => sum + row.length + 1, 0);
  const textRoom = Math.max(room - factsLength, Math.floor(room / 2));
  const text = cutText(content, textRoom);
  const keptRows = rowsWithin(rows, room - text.length);
  const out = [...head, text || 'The article has no text.'];
  if (keptRows.length) {
    out.push(...FACTS_HEAD, ...keptRows);
  }
  out.push(...sources);
  const cuts: string[] = [];
  if (text.length < content.length) {
    cuts.push(`the text was cut from ${content.length} to ${text.length} characters`);
  }
  if (keptRows.length < rows.length) {
    cuts.push(`${keptRows.length} of ${rows.length} facts are shown`);
  }
  if (cuts.length) {
    const where = url ? ` The whole article is at ${url}.` : '';
    out.push('', `[Trimmed to fit ${budget} characters: ${cuts.join('; ')}.${where}]`);
  }
  return out.join('\n');
}
