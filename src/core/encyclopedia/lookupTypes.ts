import type { Answer, Article, SearchResult } from '../service/normalize';

/** What the user asked the encyclopedia for. */
export type LookupRequest =
  | { kind: 'ask'; query: string; model: string }
  | { kind: 'search'; query: string }
  | { kind: 'article'; title: string };

/** What came back (normalised), as cached and shown. */
export type LookupValue =
  | { kind: 'answer'; answer: Answer }
  | { kind: 'search'; query: string; results: SearchResult[] }
  | { kind: 'article'; article: Article; requestedTitle: string };

/** Collapses white space and trims: `  Alan\n Turing ` and `Alan Turing` are the same lookup. */
export function cleanText(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The cache key of a request: endpoint, parameters and model. */
export function lookupKey(request: LookupRequest): string {
  switch (request.kind) {
    case 'ask':
      return JSON.stringify(['ask', { q: cleanText(request.query) }, request.model.trim()]);
    case 'search':
      return JSON.stringify(['search', { q: cleanText(request.query) }, '']);
    case 'article':
      return JSON.stringify(['article', { title: cleanText(request.title), facts: 1 }, '']);
  }
}

/** The text of a request in quotes, for progress and messages. */
export function describeRequest(request: LookupRequest): string {
  return `“${clip(cleanText(request.kind === 'article' ? request.title : request.query), 80)}”`;
}

/** Whether a value holds nothing worth showing. */
export function isEmptyValue(value: LookupValue): boolean {
  switch (value.kind) {
    case 'answer':
      return !value.answer.text.trim() && !value.answer.citations.length;
    case 'search':
      return value.results.length === 0;
    case 'article':
      return (
        !value.article.content.trim() &&
        !value.article.summary?.trim() &&
        !value.article.facts.length &&
        !value.article.media.length
      );
  }
}

/** The phrases a value makes hoverable: an article's title (and the title asked for), an ask's query. */
export function hoverPhrases(value: LookupValue): string[] {
  if (value.kind === 'article') {
    const title = cleanText(value.article.title);
    const asked = cleanText(value.requestedTitle);
    return asked && asked.toLowerCase() !== title.toLowerCase() ? [title, asked] : [title];
  }
  if (value.kind === 'answer') {
    return [cleanText(value.answer.query)];
  }
  return [];
}

/** Cuts text to `max` characters at a word boundary where possible, with an ellipsis. */
export function clip(text: string, max: number): string {
  if (text.length <= max) {
    return text;
  }
  const cut = text.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStr = (v: unknown): v is string => typeof v === 'string';
const optStr = (v: unknown) => v === undefined || isStr(v);
const isCitations = (v: unknown) => Array.isArray(v) && v.every((c) => isObj(c) && isStr(c.title) && optStr(c.url));

/** Checks a value read back from disk (a file from another version or edited by hand must not break hovers). */
export function isLookupValue(v: unknown): v is LookupValue {
  if (!isObj(v)) {
    return false;
  }
  if (v.kind === 'answer') {
    const a = v.answer;
    return isObj(a) && isStr(a.query) && isStr(a.model) && isStr(a.text) && isCitations(a.citations);
  }
  if (v.kind === 'search') {
    return (
      isStr(v.query) &&
      Array.isArray(v.results) &&
      v.results.every((r) => isObj(r) && isStr(r.title) && optStr(r.snippet) && optStr(r.url))
    );
  }
  if (v.kind === 'article') {
    const a = v.article;
    return (
      isStr(v.requestedTitle) &&
      isObj(a) &&
      isStr(a.title) &&
      isStr(a.content) &&
      optStr(a.summary) &&
      optStr(a.url) &&
      Array.isArray(a.facts) &&
      a.facts.every((f) => isObj(f) && isStr(f.name) && isStr(f.value)) &&
      Array.isArray(a.media) &&
      a.media.every(isStr) &&
      isCitations(a.citations)
    );
  }
  return false;
}
