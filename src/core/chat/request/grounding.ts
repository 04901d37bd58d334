/**
 * Grounded answers: ALPHA answers with AXO's cited facts. This file holds what has no `vscode` in it: the query
 * sent to AXO, the bounded lookup, the grounding text put into the chat request, and the failure notes.
 */

import type { AskOptions } from '../../service/axoClient';
import { NO_RETRY } from '../../service/axoClient';
import { ServiceError } from '../../service/errors';
import * as l10n from '@vscode/l10n';
import type { Answer, Citation, Fact } from '../../service/normalize';
import { fenceFor } from './promptMessages';
import { webUrl } from '../../../shared/links';

/** The lookup's own limit: a grounded answer must not wait on the encyclopedia's 15 s retry policy. */
export const GROUNDING_LIMIT_MS = 3000;

/** The longest query sent to AXO; longer prompts are cut at a word boundary. */
export const GROUNDING_QUERY_MAX_CHARS = 200;

/** The longest citation title put into the request (a hostile title cannot flood the prompt). */
const TITLE_MAX_CHARS = 200;

/** What the lookup needs of `AxoClient`. */
export interface GroundingAsker {
  ask(query: string, model: string, signal?: AbortSignal, options?: AskOptions): Promise<Answer>;
}

/** The facts of an article looked up before (from the encyclopedia's cache), which the question names. */
export interface FactSource {
  title: string;
  facts: readonly Fact[];
}

/**
 * The outcome of a lookup: AXO's answer and its numbered sources (with the facts that go along, see `withFacts`,
 * and a note when there is something to say), or the note shown instead and its reason.
 */
export type GroundingResult =
  | { kind: 'grounded'; answer: string; sources: Citation[]; facts: FactSource[]; note?: string }
  | { kind: 'ungrounded'; note: string; reason: string }
  | { kind: 'cancelled' };

/** At most this many facts of one article go into a request, each cut to FACT_MAX_CHARS. */
export const FACTS_PER_ARTICLE = 12;
const FACT_MAX_CHARS = 200;

/**
 * The query AXO is asked, derived from the prompt: fenced code blocks and inline code are dropped (AXO answers
 * questions, not code), whitespace is collapsed to single spaces, and the rest is cut to
 * `GROUNDING_QUERY_MAX_CHARS` at the last word boundary. Empty when nothing is left (then no lookup is made).
 */
export function groundingQuery(prompt: string): string {
  const withoutCode = withoutFences(prompt).replace(/(?<!`)(`+)(?!`)[^`]*?\1/g, ' ');
  const text = withoutCode.replace(/\s+/g, ' ').trim();
  if (text.length <= GROUNDING_QUERY_MAX_CHARS) {
    return text;
  }
  const cut = text.slice(0, GROUNDING_QUERY_MAX_CHARS + 1);
  const space = cut.lastIndexOf(' ');
  return (space > GROUNDING_QUERY_MAX_CHARS / 2 ? cut.slice(0, space) : cut.slice(0, -1)).trim();
}

/** A fence's opening line: up to 3 spaces, then a run of 3+ backticks or tildes (taken whole). */
const FENCE_OPENER = / {0,3}(`{3,}|~{3,})/y;

/**
 * The text with each fenced code block (an unclosed one runs to the end) as one space. Each line is read once, and
 * only what is kept is copied: a pattern over the whole text scanned to the next `\n` from every `\r` that starts a
 * line, and `\r` alone ends a line too.
 */
function withoutFences(text: string): string {
  const kept: string[] = [];
  let fence: string | undefined;
  let start = 0;
  while (start <= text.length) {
    let end = start;
    while (end < text.length && text[end] !== '\n' && text[end] !== '\r') {
      end++;
    }
    const next = text.startsWith('\r\n', end) ? end + 2 : end + 1;
    FENCE_OPENER.lastIndex = start;
    const found = FENCE_OPENER.exec(text);
    const marker = found && found.index + found[0].length <= end ? found[1] : undefined;
    if (fence === undefined && marker) {
      fence = marker;
      if (kept.at(-1) !== ' ') {
        kept.push(' ');
      }
    } else if (fence === undefined) {
      kept.push(text.slice(start, Math.min(next, text.length)));
    } else if (
      marker &&
      marker[0] === fence[0] &&
      marker.length >= fence.length &&
      found &&
      closesFence(text, found, end)
    ) {
      fence = undefined;
    }
    start = next;
  }
  return kept.join('');
}

/** Whether the rest of a line after a fence's marker (`found`, the line ending at `end`) is more of it and blanks. */
function closesFence(text: string, found: RegExpExecArray, end: number): boolean {
  for (let at = found.index + found[0].length; at < end; at++) {
    if (!'`~ \t'.includes(text[at])) {
      return false;
    }
  }
  return true;
}

/** A citation title on one line, without control characters, bounded in length. */
export function cleanTitle(title: string): string {
  const one = title
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return one.length > TITLE_MAX_CHARS ? `${one.slice(0, TITLE_MAX_CHARS - 1)}…` : one;
}

/** One numbered source line: `[n] Title <url>`; the URL only when it parses as http(s). Its facts follow it. */
function sourceLines(citation: Citation, n: number, facts: readonly FactSource[]): string[] {
  const url = webUrl(citation.url);
  const line = `[${n}] ${cleanTitle(citation.title) || url || '?'}${url ? ` <${url}>` : ''}`;
  const title = cleanTitle(citation.title).toLowerCase();
  const own = facts.find((f) => cleanTitle(f.title).toLowerCase() === title);
  const factLines = (own?.facts ?? [])
    .slice(0, FACTS_PER_ARTICLE)
    .map((fact) => `    - ${cleanTitle(fact.name)}: ${cleanFact(fact.value)}`);
  return [line, ...factLines];
}

/** A fact's value on one line, bounded in length. */
function cleanFact(value: string): string {
  const one = cleanTitle(value);
  return one.length > FACT_MAX_CHARS ? `${one.slice(0, FACT_MAX_CHARS - 1)}…` : one;
}

/**
 * Adds the cached facts of the articles the question names (`articles`, from `EncyclopediaStore.articlesNamedIn`)
 * to a lookup's result. Each article becomes a numbered source after AXO's, unless AXO cites it by title already
 * (with or without a URL), and its facts go under its source's line in the grounding text. When the lookup gave nothing, the facts alone ground the
 * answer, and the note says why AXO's answer is missing. The note names the articles whose facts went along.
 */
export function withFacts(result: GroundingResult, articles: readonly FactSource[]): GroundingResult {
  if (result.kind === 'cancelled' || articles.length === 0) {
    return result;
  }
  const titles = articles.map((a) => cleanTitle(a.title));
  const added = l10n.t('Cached facts of {0} went along.', titles.join(', '));
  if (result.kind === 'ungrounded') {
    return {
      kind: 'grounded',
      answer: '',
      sources: articles.map((a) => ({ title: a.title })),
      facts: [...articles],
      note: `${l10n.t('Answered with cached facts only: {0}', result.reason)} ${added}`,
    };
  }
  const cited = new Set(result.sources.map((s) => cleanTitle(s.title).toLowerCase()));
  const sources = [...result.sources];
  for (const article of articles) {
    if (!cited.has(cleanTitle(article.title).toLowerCase())) {
      sources.push({ title: article.title });
    }
  }
  return { ...result, sources, facts: [...articles], note: result.note ? `${result.note} ${added}` : added };
}

/**
 * The grounding as the model reads it: one fenced block (its fence longer than any backtick run inside, so AXO's
 * text cannot close it) that says these are numbered sources and asks for `[1]`, `[2]` citations. It goes into the
 * user's message before the prompt, as context blocks do; the spec shows only the `user` role. Written for the
 * model, so it is not translated.
 */
export function groundingText(answer: string, sources: readonly Citation[], facts: readonly FactSource[] = []): string {
  const list = sources.flatMap((s, i) => sourceLines(s, i + 1, facts));
  const body = [
    'Numbered sources from the AXO encyclopedia follow. Answer the question after this block using them, and cite',
    'each source you use with its number in square brackets, like [1] or [2]. Do not cite numbers not listed.',
    '',
    "AXO's answer:",
    answer.trim() || '(none)',
    '',
    'Sources:',
    ...(list.length ? list : ['(none)']),
  ].join('\n');
  const fence = fenceFor(body);
  return `Sources from the AXO encyclopedia:\n${fence}text\n${body}\n${fence}`;
}

/** The result when the reply goes ahead without sources: the note shown, and its reason. */
function ungrounded(reason: string): GroundingResult {
  return { kind: 'ungrounded', note: l10n.t('Answered without sources: {0}', reason), reason };
}

/** Why a lookup failed, as a sentence for the note. */
function failureReason(error: unknown): string {
  if (error instanceof ServiceError) {
    if (error.kind === 'timeout') {
      return l10n.t('AXO did not answer within {0} s.', GROUNDING_LIMIT_MS / 1000);
    }
    return error.message;
  }
  return l10n.t('The encyclopedia lookup failed.');
}

/** A promise that settles after `ms`, and its cancel. */
function timer(ms: number): { done: Promise<void>; cancel: () => void } {
  let handle: ReturnType<typeof setTimeout> | undefined;
  const done = new Promise<void>((resolve) => {
    handle = setTimeout(resolve, ms);
  });
  return { done, cancel: () => clearTimeout(handle) };
}

/**
 * Asks AXO once, within `limitMs`, with no retries. Never throws: a failure, a timeout or an empty answer becomes
 * a note ("Answered without sources: …") so the reply still goes ahead; cancelling `signal` gives `cancelled`.
 */
export async function lookupGrounding(
  axo: GroundingAsker,
  prompt: string,
  model: string,
  signal?: AbortSignal,
  limitMs: number = GROUNDING_LIMIT_MS,
): Promise<GroundingResult> {
  const query = groundingQuery(prompt);
  if (!query) {
    return ungrounded(l10n.t('The question has no words to look up.'));
  }
  const controller = new AbortController();
  const onAbort = () => controller.abort();
  signal?.addEventListener('abort', onAbort, { once: true });
  const limit = timer(limitMs);
  try {
    const asked = axo.ask(query, model, controller.signal, { retry: NO_RETRY });
    const outcome = await Promise.race([asked, limit.done.then(() => 'timeout' as const)]);
    if (outcome === 'timeout') {
      controller.abort();
      asked.catch(() => undefined);
      return ungrounded(failureReason(new ServiceError('timeout', '')));
    }
    if (outcome.unrecognised || !outcome.text.trim()) {
      return ungrounded(l10n.t('AXO found nothing for this question.'));
    }
    return { kind: 'grounded', answer: outcome.text, sources: outcome.citations, facts: [] };
  } catch (error) {
    if (signal?.aborted) {
      return { kind: 'cancelled' };
    }
    return ungrounded(failureReason(error));
  } finally {
    limit.cancel();
    signal?.removeEventListener('abort', onAbort);
  }
}

/** What grounding needs of the encyclopedia's store (`EncyclopediaStore`): the cached facts a question names. */
export interface CachedFacts {
  ensureLoaded(): Promise<void>;
  articlesNamedIn(text: string): readonly FactSource[];
}

/**
 * What a grounded request is built from: AXO's answer to the question (`lookupGrounding`) and, read from the cache at
 * the same time without a network call, the facts of the articles it names (`withFacts`). Never throws.
 */
export async function groundQuestion(
  axo: GroundingAsker,
  cache: CachedFacts,
  prompt: string,
  model: string,
  signal?: AbortSignal,
  limitMs?: number,
): Promise<GroundingResult> {
  const cached = async () => {
    await cache.ensureLoaded();
    return cache.articlesNamedIn(prompt);
  };
  const [result, articles] = await Promise.all([
    lookupGrounding(axo, prompt, model, signal, limitMs),
    cached().catch(() => []),
  ]);
  return withFacts(result, articles);
}
