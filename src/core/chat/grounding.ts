/**
 * Grounded answers: ALPHA answers with AXO's cited facts. This file holds what has no `vscode` in it: the query
 * sent to AXO, the bounded lookup, the grounding text put into the chat request, and the failure notes.
 */

import type { AskOptions } from '../axoClient';
import { NO_RETRY } from '../axoClient';
import { ServiceError } from '../errors';
import { l10n } from '../l10n';
import type { Answer, Citation } from '../normalize';
import { fenceFor } from './promptMessages';
import { safeUrl } from '../encyclopedia/articleMarkdown';

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

/** The outcome of a lookup: AXO's answer and its numbered sources, or the note shown instead. */
export type GroundingResult =
  | { kind: 'grounded'; answer: string; sources: Citation[] }
  | { kind: 'ungrounded'; note: string }
  | { kind: 'cancelled' };

/**
 * The query AXO is asked, derived from the prompt: fenced code blocks and inline code are dropped (AXO answers
 * questions, not code), whitespace is collapsed to single spaces, and the rest is cut to
 * `GROUNDING_QUERY_MAX_CHARS` at the last word boundary. Empty when nothing is left (then no lookup is made).
 */
export function groundingQuery(prompt: string): string {
  const withoutCode = prompt
    .replace(/^ {0,3}(`{3,}|~{3,})[^\n]*\n[\s\S]*?(?:^ {0,3}\1[`~]*[ \t]*$|(?![\s\S]))/gm, ' ')
    .replace(/(`+)[^`]*?\1/g, ' ');
  const text = withoutCode.replace(/\s+/g, ' ').trim();
  if (text.length <= GROUNDING_QUERY_MAX_CHARS) {
    return text;
  }
  const cut = text.slice(0, GROUNDING_QUERY_MAX_CHARS + 1);
  const space = cut.lastIndexOf(' ');
  return (space > GROUNDING_QUERY_MAX_CHARS / 2 ? cut.slice(0, space) : cut.slice(0, -1)).trim();
}

/** A citation title on one line, without control characters, bounded in length. */
export function cleanTitle(title: string): string {
  // eslint-disable-next-line no-control-regex
  const one = title
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return one.length > TITLE_MAX_CHARS ? `${one.slice(0, TITLE_MAX_CHARS - 1)}…` : one;
}

/** One numbered source line: `[n] Title <url>`; the URL only when it parses as http(s). */
function sourceLine(citation: Citation, n: number): string {
  const url = safeUrl(citation.url);
  return `[${n}] ${cleanTitle(citation.title) || url || '?'}${url ? ` <${url}>` : ''}`;
}

/**
 * The grounding as the model reads it: one fenced block (its fence longer than any backtick run inside, so AXO's
 * text cannot close it) that says these are numbered sources and asks for `[1]`, `[2]` citations. It goes into the
 * user's message before the prompt, as context blocks do; the spec shows only the `user` role. Written for the
 * model, so it is not translated.
 */
export function groundingText(answer: string, sources: readonly Citation[]): string {
  const list = sources.map((s, i) => sourceLine(s, i + 1));
  const body = [
    'Numbered sources from the AXO encyclopedia follow. Answer the question after this block using them, and cite',
    'each source you use with its number in square brackets, like [1] or [2]. Do not cite numbers not listed.',
    '',
    "AXO's answer:",
    answer.trim(),
    '',
    'Sources:',
    ...(list.length ? list : ['(none)']),
  ].join('\n');
  const fence = fenceFor(body);
  return `Sources from the AXO encyclopedia:\n${fence}text\n${body}\n${fence}`;
}

/** The note shown when the reply goes ahead without sources. */
export function withoutSourcesNote(reason: string): string {
  return l10n.t('Answered without sources: {0}', reason);
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
    return { kind: 'ungrounded', note: withoutSourcesNote(l10n.t('The question has no words to look up.')) };
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
      return { kind: 'ungrounded', note: withoutSourcesNote(failureReason(new ServiceError('timeout', ''))) };
    }
    if (outcome.unrecognised || !outcome.text.trim()) {
      return { kind: 'ungrounded', note: withoutSourcesNote(l10n.t('AXO found nothing for this question.')) };
    }
    return { kind: 'grounded', answer: outcome.text, sources: outcome.citations };
  } catch (error) {
    if (signal?.aborted) {
      return { kind: 'cancelled' };
    }
    return { kind: 'ungrounded', note: withoutSourcesNote(failureReason(error)) };
  } finally {
    limit.cancel();
    signal?.removeEventListener('abort', onAbort);
  }
}
