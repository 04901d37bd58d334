import { ServiceError, isAbortError } from './errors';
import {
  normalizeAnswer,
  normalizeArticle,
  normalizeSearch,
  type Answer,
  type Article,
  type SearchResult,
} from './normalize';
import { readJson, requireKey, requireText, urlFor, type ServiceContext } from './serviceContext';
import * as l10n from '@vscode/l10n';

/** How idempotent GETs are retried. */
export interface RetryPolicy {
  /** Attempts in all, the first included. */
  attempts: number;
  /** First backoff step; doubles each retry, with full jitter. */
  baseDelayMs: number;
  /** Longest single wait, Retry-After included; a longer Retry-After is not waited for. */
  maxDelayMs: number;
  /** Longest total time spent waiting between attempts. */
  budgetMs: number;
}

/** The default: three attempts, at most 10 s per wait and 15 s of waiting in all. */
export const DEFAULT_RETRY: RetryPolicy = { attempts: 3, baseDelayMs: 400, maxDelayMs: 10_000, budgetMs: 15_000 };

/** No retries: one attempt (a grounded answer must not wait on the encyclopedia's retry policy). */
export const NO_RETRY: RetryPolicy = { attempts: 1, baseDelayMs: 0, maxDelayMs: 0, budgetMs: 0 };

/** Per-call options of `AxoClient.ask`. */
export interface AskOptions {
  /** Replaces the client's retry policy for this call (`NO_RETRY` for a single attempt). */
  retry?: RetryPolicy;
}

const RETRY_STATUS = new Set([429, 502, 503, 504]);

/** The AXO encyclopedia: ask, search and articles with facts. GETs retry bounded, cancellable. */
export class AxoClient {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly retry: RetryPolicy = DEFAULT_RETRY,
    private readonly random: () => number = Math.random,
  ) {}

  /** `GET /v1/axo/ask?model=&q=`; spaces as `+`, as the spec shows for `q`. */
  async ask(query: string, model: string, signal?: AbortSignal, options: AskOptions = {}): Promise<Answer> {
    const q = requireText(query, l10n.t('Type a question first: it is empty.'));
    const m = requireText(model, l10n.t('Type an encyclopedia model first: it is empty.'));
    const body = await this.get('v1/axo/ask', { model: m, q }, '+', signal, options.retry);
    return this.ctx.http.scrubber.scrubValue(normalizeAnswer(body, q, m));
  }

  /** `GET /v1/axo/search?q=`; spaces as `%20` (the spec shows `+` only for ask). */
  async search(query: string, signal?: AbortSignal): Promise<SearchResult[]> {
    const q = requireText(query, l10n.t('Type search terms first: it is empty.'));
    return this.ctx.http.scrubber.scrubValue(normalizeSearch(await this.get('v1/axo/search', { q }, '%20', signal)));
  }

  /** `GET /v1/axo/article?title=&facts=1`; spaces as `%20` (the spec shows `+` only for ask). */
  async article(title: string, signal?: AbortSignal): Promise<Article> {
    const t = requireText(title, l10n.t('Type an article title first: it is empty.'));
    const body = await this.get('v1/axo/article', { title: t, facts: '1' }, '%20', signal);
    return this.ctx.http.scrubber.scrubValue(normalizeArticle(body, t));
  }

  private async get(
    path: string,
    query: Record<string, string>,
    spaces: '+' | '%20',
    signal?: AbortSignal,
    retry: RetryPolicy = this.retry,
  ): Promise<unknown> {
    const url = urlFor(this.ctx, path, query, spaces);
    const key = await requireKey(this.ctx, 'encyclopedia');
    let waited = 0;
    for (let attempt = 1; ; attempt++) {
      try {
        const res = await this.ctx.http.send({ method: 'GET', url, key, keyKind: 'encyclopedia', signal });
        return await readJson(res, 'encyclopedia', signal);
      } catch (error) {
        const delay = this.retryDelay(error, attempt, waited, retry);
        if (delay === undefined || signal?.aborted) {
          throw error;
        }
        this.ctx.log.info(`Retrying ${url.pathname} in ${delay} ms (attempt ${attempt + 1} of ${retry.attempts}).`);
        await sleep(delay, signal);
        waited += delay;
      }
    }
  }

  /** The wait before the next attempt, or undefined when the error is final. */
  private retryDelay(error: unknown, attempt: number, waited: number, retry: RetryPolicy): number | undefined {
    if (attempt >= retry.attempts || isAbortError(error) || !(error instanceof ServiceError)) {
      return undefined;
    }
    // A timeout is not retried: the user already waited the whole timeout once.
    const transient = error.kind === 'network' || (error.status !== undefined && RETRY_STATUS.has(error.status));
    if (!transient) {
      return undefined;
    }
    const backoff = this.random() * retry.baseDelayMs * 2 ** (attempt - 1);
    const delay = Math.round(error.retryAfterSeconds !== undefined ? error.retryAfterSeconds * 1000 : backoff);
    if (delay > retry.maxDelayMs || waited + delay > retry.budgetMs) {
      return undefined;
    }
    return delay;
  }
}

/** Waits, or rejects with an abort error as soon as the signal fires. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const abortError = () => new ServiceError('aborted', l10n.t('The request was cancelled.'));
    if (signal?.aborted) {
      reject(abortError());
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
