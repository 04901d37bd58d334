import { ServiceError, describeError } from '../service/errors';
import type { Logger } from '../logger';
import type { Answer, Article, SearchResult } from '../service/normalize';
import { ArticleUrls } from './articleUrls';
import type { CacheSnapshotFile } from './cacheSnapshotFile';
import { hoverMarkdown } from './hoverText';
import { LookupCache, type CacheEntry, type CacheResult, type FetchOptions } from './lookupCache';
import { cleanText, hoverPhrases, lookupKey, type LookupRequest, type LookupValue } from './lookupTypes';
import { TermIndex } from './termIndex';

/** The three calls of the encyclopedia (AxoClient has them). */
export interface EncyclopediaClient {
  ask(query: string, model: string, signal?: AbortSignal): Promise<Answer>;
  search(query: string, signal?: AbortSignal): Promise<SearchResult[]>;
  article(title: string, signal?: AbortSignal): Promise<Article>;
}

/**
 * The cache's budget: 64 Mi characters of JSON, in memory and in its file. 2,000 entries of a few KB each fit many
 * times over; a handful of articles near the service's 32 MiB body bound do not pile up.
 */
export const CACHE_MAX_CHARS = 64 * 1024 * 1024;
/** Most entries of the cache of agents' tool lookups, and the characters of JSON they may hold together. */
export const TOOL_CACHE_CAPACITY = 200;
/** See {@link TOOL_CACHE_CAPACITY}. */
export const TOOL_CACHE_MAX_CHARS = 16 * 1024 * 1024;

/** Construction options of the store. */
export interface EncyclopediaStoreOptions {
  client: EncyclopediaClient;
  /** Where the cache persists; none keeps it in memory only. */
  file?: CacheSnapshotFile<LookupValue>;
  /** The TTL, read on every use (a setting); 0 turns the cache off (nothing served from it, nothing persisted). */
  ttlMs: () => number;
  capacity?: number;
  /** The cache's budget in characters of JSON (default `CACHE_MAX_CHARS`). */
  maxChars?: number;
  log?: Logger;
  now?: () => number;
  /** Delay before a change is written to disk, so a burst of lookups writes once. */
  saveDelayMs?: number;
}

/** A hover found in a line. */
export interface HoverHit {
  start: number;
  end: number;
  phrase: string;
  key: string;
  markdown: string;
}

/** Errors that mean "the service cannot answer now", after which a cached result is better than nothing. */
const UNREACHABLE = new Set(['network', 'timeout', 'tls', 'server', 'rateLimited', 'badResponse', 'cut']);

/**
 * The encyclopedia's results: lookups through the cache (shared in flight, stale on failure), the persisted
 * snapshot (loaded on first use, written after changes), and the index of looked-up phrases behind hovers.
 */
export class EncyclopediaStore {
  readonly cache: LookupCache<LookupValue>;
  /** What agents' tool calls fetched: no hover terms, never persisted (the user did not look it up). */
  private readonly toolCache: LookupCache<LookupValue>;
  readonly index = new TermIndex();
  /** The article URLs the cached lookups returned: which of a grounded reply's sources are articles. */
  readonly articleUrls = new ArticleUrls();
  private readonly phrasesOf = new Map<string, string[]>();
  private readonly hoverMemo = new Map<string, string | undefined>();
  private loading: Promise<void> | undefined;
  private isLoaded = false;
  private dirty = false;
  private saveTimer: ReturnType<typeof setTimeout> | undefined;
  private saving: Promise<void> = Promise.resolve();

  constructor(private readonly options: EncyclopediaStoreOptions) {
    const staleOnError = (e: unknown) => e instanceof ServiceError && UNREACHABLE.has(e.kind);
    this.cache = new LookupCache<LookupValue>({
      capacity: options.capacity ?? 2000,
      maxChars: options.maxChars ?? CACHE_MAX_CHARS,
      ttlMs: options.ttlMs,
      now: options.now,
      staleOnError,
    });
    this.toolCache = new LookupCache<LookupValue>({
      capacity: TOOL_CACHE_CAPACITY,
      maxChars: TOOL_CACHE_MAX_CHARS,
      ttlMs: options.ttlMs,
      now: options.now,
      staleOnError,
    });
    this.cache.listen({
      onSet: (entry) => this.indexEntry(entry),
      onDelete: (key) => this.unindex(key),
      onClear: () => {
        this.index.clear();
        this.articleUrls.clear();
        this.phrasesOf.clear();
        this.hoverMemo.clear();
      },
    });
  }

  /** Whether the persisted snapshot has been read. */
  get loaded(): boolean {
    return this.isLoaded;
  }

  /** Reads the persisted snapshot once (later calls share the first). Never rejects. */
  ensureLoaded(): Promise<void> {
    this.loading ??= this.load();
    return this.loading;
  }

  /** A result younger than the TTL, without any network (undefined before the snapshot is loaded). */
  peekFresh(request: LookupRequest): CacheEntry<LookupValue> | undefined {
    return this.cache.fresh(lookupKey(request));
  }

  /** Looks a request up: from the cache, a request in flight, the service, or (failing that) a stale result. */
  async lookup(request: LookupRequest, options: FetchOptions = {}): Promise<CacheResult<LookupValue>> {
    await this.ensureLoaded();
    const key = lookupKey(request);
    const result = await this.cache.fetch(key, (signal) => fetchLookup(this.options.client, request, signal), options);
    if (!result.cached && result.value.kind === 'article') {
      // Also file the article under its own title, so asking for the canonical title later is a cache hit.
      const alias = lookupKey({ kind: 'article', title: result.value.article.title });
      if (alias !== key && !this.cache.fresh(alias)) {
        this.cache.set(alias, result.value, result.storedAt);
      }
    }
    return result;
  }

  /**
   * Looks a request up for an agent's tool call: a fresh result of the user's own lookups comes from their cache;
   * anything else through the tools' cache, which adds no hover term and is not persisted. Same normalisation and
   * sharing of identical requests in flight as `lookup`.
   */
  async lookupForTool(request: LookupRequest, signal?: AbortSignal): Promise<LookupValue> {
    await this.ensureLoaded();
    const key = lookupKey(request);
    const own = this.cache.fresh(key);
    if (own) {
      return own.value;
    }
    return (await this.toolCache.fetch(key, (inner) => fetchLookup(this.options.client, request, inner), { signal }))
      .value;
  }

  /** The hover for the looked-up phrase covering `character` in `line`, from memory only. */
  hoverAt(line: string, character: number): HoverHit | undefined {
    const match = this.index.match(line, character);
    if (!match) {
      return undefined;
    }
    const entry = this.cache.peek(match.key);
    if (!entry) {
      return undefined;
    }
    let markdown = this.hoverMemo.get(match.key);
    if (markdown === undefined) {
      markdown = hoverMarkdown(entry.value);
      this.hoverMemo.set(match.key, markdown);
    }
    return markdown === undefined ? undefined : { ...match, markdown };
  }

  /**
   * The looked-up articles with facts that `text` names (their title, or the title they were asked by, as a whole
   * phrase: see `TermIndex.findAll`), first named first, each once, at most `limit`. From memory only: never a
   * network call (call `ensureLoaded` first to include the persisted cache).
   */
  articlesNamedIn(text: string, limit = 3): Article[] {
    const articles: Article[] = [];
    const seen = new Set<string>();
    for (const match of this.index.findAll(text)) {
      const value = this.cache.peek(match.key)?.value;
      if (value?.kind !== 'article' || !value.article.facts.length || seen.has(value.article.title)) {
        continue;
      }
      seen.add(value.article.title);
      articles.push(value.article);
      if (articles.length >= limit) {
        break;
      }
    }
    return articles;
  }

  /** Empties memory and disk. */
  async clear(): Promise<void> {
    await this.ensureLoaded();
    this.cache.clear();
    this.toolCache.clear();
    this.cancelSave();
    this.dirty = false;
    await this.saving;
    await this.options.file?.delete();
  }

  /** Writes pending changes now. */
  async flush(): Promise<void> {
    this.cancelSave();
    if (!this.dirty || !this.options.file) {
      return;
    }
    this.dirty = false;
    const file = this.options.file;
    this.saving = this.saving.then(async () => {
      try {
        await (this.options.ttlMs() > 0 ? file.save(this.cache.snapshot()) : file.delete());
      } catch (error) {
        this.options.log?.warn(`Could not write the encyclopedia cache: ${describeError(error)}`);
      }
    });
    await this.saving;
  }

  /** Aborts lookups in flight and writes pending changes synchronously. */
  dispose(): void {
    this.cancelSave();
    this.cache.abortAll();
    this.toolCache.abortAll();
    if (this.dirty && this.options.file) {
      this.dirty = false;
      try {
        if (this.options.ttlMs() > 0) {
          this.options.file.saveSync(this.cache.snapshot());
        }
      } catch (error) {
        this.options.log?.warn(`Could not write the encyclopedia cache: ${describeError(error)}`);
      }
    }
  }

  private async load(): Promise<void> {
    const file = this.options.file;
    if (file && this.options.ttlMs() > 0) {
      const started = Date.now();
      const { entries, problem } = await file.load();
      if (problem) {
        this.options.log?.warn(`Encyclopedia cache: ${problem}.`);
      }
      const count = this.cache.restore(entries);
      this.options.log?.info(`Encyclopedia cache: loaded ${count} entries in ${Date.now() - started} ms.`);
    }
    this.isLoaded = true;
  }

  private indexEntry(entry: CacheEntry<LookupValue>): void {
    this.unindex(entry.key);
    const phrases = hoverPhrases(entry.value).filter((phrase) => {
      const current = this.index.keyOf(phrase);
      // An article's hover (facts) wins over an answer's for the same phrase.
      return !(entry.value.kind === 'answer' && current?.startsWith('["article"') && this.cache.peek(current));
    });
    for (const phrase of phrases) {
      this.index.add(phrase, entry.key);
    }
    this.phrasesOf.set(entry.key, phrases);
    this.articleUrls.add(entry.key, entry.value);
    if (this.isLoaded) {
      this.markDirty();
    }
  }

  private unindex(key: string): void {
    for (const phrase of this.phrasesOf.get(key) ?? []) {
      this.index.remove(phrase, key);
    }
    this.phrasesOf.delete(key);
    this.hoverMemo.delete(key);
    this.articleUrls.remove(key);
    if (this.isLoaded) {
      this.markDirty();
    }
  }

  private markDirty(): void {
    this.dirty = true;
    if (!this.saveTimer && this.options.file) {
      this.saveTimer = setTimeout(() => {
        this.saveTimer = undefined;
        void this.flush();
      }, this.options.saveDelayMs ?? 1500);
      this.saveTimer.unref?.();
    }
  }

  private cancelSave(): void {
    if (this.saveTimer) {
      clearTimeout(this.saveTimer);
      this.saveTimer = undefined;
    }
  }
}

/** Asks the encyclopedia for what `request` names (the cache's fetch, here and in the stdio MCP server). */
export async function fetchLookup(
  client: EncyclopediaClient,
  request: LookupRequest,
  signal: AbortSignal,
): Promise<LookupValue> {
  switch (request.kind) {
    case 'ask':
      return { kind: 'answer', answer: await client.ask(request.query, request.model, signal) };
    case 'search':
      return { kind: 'search', query: cleanText(request.query), results: await client.search(request.query, signal) };
    case 'article':
      return {
        kind: 'article',
        article: await client.article(request.title, signal),
        requestedTitle: cleanText(request.title),
      };
  }
}
