import { cleanText, clip } from '../encyclopedia/lookupTypes';
import type { Answer, Article, Citation, SearchResult } from '../service/normalize';
import { webUrl } from '../../shared/links';
import {
  ANSWER_BUDGET_CHARS,
  ARTICLE_BUDGET_CHARS,
  MAX_SEARCH_RESULTS,
  SEARCH_BUDGET_CHARS,
  SNIPPET_LENGTH,
} from './axoToolSpecs';
import { inertLine, inertText } from './inertMarkdown';

/*
 * The text of a tool result, as the calling model reads it: service text made inert (`inertMarkdown.ts`), and every
 * part bounded, so a result holds at most its tool's budget whatever the service sends: titles, URLs, facts and
 * sources each have a length of their own, the text is cut to the room left, and `withinBudget` holds the whole.
 */

/** Most sources listed under an answer or an article. */
const MAX_SOURCES = 10;
/** Longest title shown of a source, a search result or an article. */
const TITLE_CHARS = 200;
/** Longest URL shown; a longer one is left out (a cut URL would lead elsewhere). */
const URL_CHARS = 400;
/** Longest fact name and value in an article's facts table. */
const FACT_NAME_CHARS = 100;
const FACT_VALUE_CHARS = 300;
/** Room kept for the line that says what was cut (with the article's URL). */
export const NOTE_ROOM = 520;

/** A title from the service on one line, bounded. */
export function titleLine(text: string): string {
  return inertLine(clip(cleanText(text), TITLE_CHARS));
}

/** A URL that is http(s) and not longer than `URL_CHARS`, else undefined. */
export function shownUrl(url: string | undefined): string | undefined {
  const web = webUrl(url);
  return web && web.length <= URL_CHARS ? web : undefined;
}

/**
 * `text` cut to at most `budget` characters at a line, with a last line saying so: the hold on the whole result,
 * whatever its parts did.
 */
export function withinBudget(text: string, budget: number): string {
  if (text.length <= budget) {
    return text;
  }
  const note = `\n[Trimmed to fit ${budget} characters.]`;
  return cutText(text, Math.max(0, budget - note.length)) + note;
}

/** `[n] Title — URL` lines, the URL only when it is http(s). */
export function sourceLines(citations: readonly Citation[]): string[] {
  return citations.slice(0, MAX_SOURCES).map((c, i) => {
    const url = shownUrl(c.url);
    return `[${i + 1}] ${titleLine(c.title) || inertLine(url ?? '')}${url ? ` — ${url}` : ''}`;
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
export function answerResult(answer: Answer, about?: string, budget = ANSWER_BUDGET_CHARS): string {
  const text = inertText(answer.text.slice(0, budget * 4));
  if (!text && answer.citations.length === 0) {
    return `AXO has no answer to “${inertLine(clip(cleanText(answer.query), 120))}”.`;
  }
  const tail: string[] = [];
  if (answer.citations.length) {
    tail.push('', 'Sources:', ...sourceLines(answer.citations));
  }
  const article = about ?? articleCitedByTitle(answer.citations);
  if (article) {
    tail.push('', `About the article: ${titleLine(article)} (read it with axo_article).`);
  }
  const room = Math.max(0, budget - tail.join('\n').length - NOTE_ROOM);
  const shown = cutText(text, room);
  const out = [shown || 'AXO gave no answer text, only the sources below.', ...tail];
  if (shown.length < text.length) {
    const cut = `the answer was cut from ${answer.text.length} to ${shown.length} characters`;
    out.push('', `[Trimmed to fit ${budget} characters: ${cut}.]`);
  }
  return withinBudget(out.join('\n'), budget);
}

/** The result of `axo_search`: numbered titles with a one-line snippet and URL each, or a sentence when none. */
export function searchResult(query: string, results: readonly SearchResult[], budget = SEARCH_BUDGET_CHARS): string {
  const terms = inertLine(clip(cleanText(query), 120));
  if (results.length === 0) {
    return `AXO found no articles for “${terms}”.`;
  }
  const shown = results.slice(0, MAX_SEARCH_RESULTS);
  const lines = shown.map((r, i) => {
    const snippet = r.snippet ? inertLine(clip(cleanText(r.snippet), SNIPPET_LENGTH)) : '';
    const url = shownUrl(r.url);
    return `${i + 1}. ${titleLine(r.title)}${snippet ? ` — ${snippet}` : ''}${url ? ` (${url})` : ''}`;
  });
  const more = results.length > shown.length ? ` (the first ${shown.length} of ${results.length})` : '';
  return withinBudget([`AXO search results for “${terms}”${more}:`, ...lines].join('\n'), budget);
}

/** Cuts text to at most `max` characters at a paragraph break, else a line, else a word. */
export function cutText(text: string, max: number): string {
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
export function rowsWithin(rows: readonly string[], max: number): string[] {
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

/** The lines above an article's facts rows. */
export const FACTS_HEAD = ['', '## Facts', '', '| Fact | Value |', '| --- | --- |'];

/** An article's facts as Markdown table rows, each name and value inert and bounded. */
export function factRows(article: Article): string[] {
  return article.facts.map(
    (f) =>
      `| ${inertLine(clip(cleanText(f.name), FACT_NAME_CHARS))} | ${inertLine(clip(cleanText(f.value), FACT_VALUE_CHARS))} |`,
  );
}

/** An article's title and URL lines, and its sources lines (empty when it cites none). */
export function articleFrame(article: Article): { head: string[]; sources: string[]; url: string | undefined } {
  const url = shownUrl(article.url);
  const head = [`# ${titleLine(article.title)}`, ...(url ? [`URL: ${url}`] : []), ''];
  const sources = article.citations.length ? ['', 'Sources:', ...sourceLines(article.citations)] : [];
  return { head, sources, url };
}

/**
 * The result of `axo_article`: title, URL, the text as inert Markdown and the facts as a table, within `budget`
 * characters. When it does not fit, the text is cut first (at a paragraph) down to half the room, then the facts
 * rows, and the last line says what was cut and where the whole article is.
 */
export function articleResult(article: Article, budget = ARTICLE_BUDGET_CHARS): string {
  return wholeArticle(article, budget).text;
}

/** `articleResult`, and whether anything of the article was left out to fit `budget`. */
export function wholeArticle(article: Article, budget = ARTICLE_BUDGET_CHARS): { text: string; trimmed: boolean } {
  const { head, sources, url } = articleFrame(article);
  const summary = article.summary?.trim();
  // Only what can fit is made inert (inert text is never shorter than a quarter of its source).
  const source = article.content.trim() ? article.content : (summary ?? '');
  const content = inertText(source.slice(0, budget * 4));
  const rows = factRows(article);
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
    cuts.push(`the text was cut from ${Math.max(content.length, source.length)} to ${text.length} characters`);
  }
  if (keptRows.length < rows.length) {
    cuts.push(`${keptRows.length} of ${rows.length} facts are shown`);
  }
  if (cuts.length) {
    const where = url ? ` The whole article is at ${url}.` : '';
    out.push('', `[Trimmed to fit ${budget} characters: ${cuts.join('; ')}.${where}]`);
  }
  const whole = out.join('\n');
  return {
    text: withinBudget(whole, budget),
    trimmed: cuts.length > 0 || whole.length > budget || source.length > budget * 4,
  };
}
