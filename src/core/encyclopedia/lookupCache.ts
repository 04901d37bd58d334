import { ServiceError, isAbortError } from '../service/errors';
import * as l10n from '@vscode/l10n';

/** One stored result. */
export interface CacheEntry<V> {
  key: string;
  value: V;
  /** When the value arrived from the service (ms since the epoch). */
  storedAt: number;
}

/** What a lookup through the cache returns. */
export interface CacheResult<V> {
  value: V;
  storedAt: number;
  /** Served from the cache rather than from this request's fetch. */
  cached: boolean;
  /** A cached value shown because the fetch failed; `error` says why. */
  stale: boolean;
  /** True when this caller joined a request another caller had started. */
  shared: boolean;
  error?: unknown;
}

/** Options of a fetch through the cache. */
export interface FetchOptions {
  /** Ends this caller's wait; the shared request is aborted once no caller waits for it. */
  signal?: AbortSignal;
  /** Skip the fresh cached value (Refresh); a failure still falls back to it. */
  force?: boolean;
}

/** Construction options. */
export interface LookupCacheOptions<V = unknown> {
  /** Most entries kept in memory (least recently used go first). */
  capacity: number;
  /**
   * Most characters the entries may hold together, as `sizeOf` counts them (least recently used go first; the
   * newest entry stays even when it alone is larger). No byte budget when absent.
   */
  maxChars?: number;
  /** An entry's size in characters (default: the length of its JSON, as the snapshot file writes it). */
  sizeOf?: (value: V) => number;
  /** Time to live of an entry, read on every use (a setting); 0 means nothing is served from the cache. */
  ttlMs: () => number;
  /** How long past its TTL an entry is kept to be shown when the service is unreachable. */
  graceMs?: number;
  now?: () => number;
  /** Which fetch errors fall back to a stale value; by default every error but an abort. */
  staleOnError?: (error: unknown) => boolean;
}

/** Listener of changes: an entry set, or a key removed (evicted, expired or deleted). */
export interface CacheListener<V> {
  onSet?(entry: CacheEntry<V>): void;
  onDelete?(key: string): void;
  onClear?(): void;
}

interface Shared<V> {
  promise: Promise<V>;
  controller: AbortController;
  waiters: number;
  settled: boolean;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * An in-memory LRU of results with a TTL, sharing identical requests in flight and falling back to an expired
 * value when the service fails. Persistence is the owner's job (`snapshot` / `restore`).
 */
export class LookupCache<V> {
  private readonly entries = new Map<string, CacheEntry<V>>();
  /** Each entry's size (`LookupCacheOptions.sizeOf`), and their sum. */
  private readonly sizes = new Map<string, number>();
  private chars = 0;
  private readonly inFlight = new Map<string, Shared<V>>();
  private readonly listeners = new Set<CacheListener<V>>();
  private readonly now: () => number;
  private readonly graceMs: number;

  constructor(private readonly options: LookupCacheOptions<V>) {
    this.now = options.now ?? Date.now;
    this.graceMs = options.graceMs ?? 7 * DAY_MS;
  }

  /** Number of entries in memory. */
  get size(): number {
    return this.entries.size;
  }

  /** Characters the entries hold together (see `LookupCacheOptions.maxChars`). */
  get totalChars(): number {
    return this.chars;
  }

  /** Adds a listener; returns a function removing it. */
  listen(listener: CacheListener<V>): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The entry of a key whatever its age (within the grace period), without touching its recency. */
  peek(key: string): CacheEntry<V> | undefined {
    const entry = this.entries.get(key);
    if (entry && this.isGone(entry)) {
      this.delete(key);
      return undefined;
    }
    return entry;
  }

  /** The entry when it is younger than the TTL; marks it recently used. */
  fresh(key: string): CacheEntry<V> | undefined {
    const entry = this.peek(key);
    if (!entry || !this.isFresh(entry)) {
      return undefined;
    }
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry;
  }

  /** Whether an entry is younger than the TTL. */
  isFresh(entry: CacheEntry<V>): boolean {
    const ttl = this.options.ttlMs();
    return ttl > 0 && this.now() - entry.storedAt < ttl;
  }

  /** Stores a value (most recently used), evicting the least recently used beyond capacity. */
  set(key: string, value: V, storedAt = this.now()): CacheEntry<V> {
    const entry: CacheEntry<V> = { key, value, storedAt };
    this.untrack(key);
    this.entries.delete(key);
    this.entries.set(key, entry);
    this.track(entry);
    this.emit((l) => l.onSet?.(entry));
    this.evictBeyondBounds();
    return entry;
  }

  /** Removes a key. */
  delete(key: string): void {
    if (this.entries.delete(key)) {
      this.untrack(key);
      this.emit((l) => l.onDelete?.(key));
    }
  }

  /** Removes everything (requests in flight go on, and store their result when they end). */
  clear(): void {
    this.entries.clear();
    this.sizes.clear();
    this.chars = 0;
    this.emit((l) => l.onClear?.());
  }

  /**
   * The value of `key`: fresh from the cache, else from `fetcher` (shared with identical callers in flight),
   * else, when the fetch fails, the expired cached value marked stale. Rejects with an abort error as soon as
   * `signal` fires, and aborts the fetch when the last waiting caller left.
   */
  async fetch(
    key: string,
    fetcher: (signal: AbortSignal) => Promise<V>,
    options: FetchOptions = {},
  ): Promise<CacheResult<V>> {
    options.signal?.throwIfAborted?.();
    const hit = options.force ? undefined : this.fresh(key);
    if (hit) {
      return { value: hit.value, storedAt: hit.storedAt, cached: true, stale: false, shared: false };
    }
    // A request whose signal was aborted (its last caller left, or abortAll) may still be winding down: a new
    // caller never joins it, or Cancel-then-run-again and hovering away and back would fail with its abort.
    const inFlight = this.inFlight.get(key);
    const existing = inFlight && !inFlight.controller.signal.aborted ? inFlight : undefined;
    const shared = existing ?? this.start(key, fetcher);
    shared.waiters++;
    try {
      const value = await untilAborted(shared.promise, options.signal);
      return {
        value,
        storedAt: this.peek(key)?.storedAt ?? this.now(),
        cached: false,
        stale: false,
        shared: !!existing,
      };
    } catch (error) {
      const fallback = this.peek(key);
      const usable = !isAbortError(error) && !options.signal?.aborted && (this.options.staleOnError?.(error) ?? true);
      if (fallback && usable) {
        return { value: fallback.value, storedAt: fallback.storedAt, cached: true, stale: true, shared: false, error };
      }
      throw error;
    } finally {
      shared.waiters--;
      if (shared.waiters === 0 && !shared.settled) {
        shared.controller.abort();
        this.forget(key, shared);
      }
    }
  }

  /** The entries worth persisting (within TTL plus grace), oldest use first. */
  snapshot(): CacheEntry<V>[] {
    return [...this.entries.values()].filter((e) => !this.isGone(e));
  }

  /** Loads persisted entries as older uses than this session's; an entry already in memory wins. */
  restore(entries: Iterable<CacheEntry<V>>): number {
    const session = [...this.entries.values()];
    const loaded: CacheEntry<V>[] = [];
    for (const entry of entries) {
      if (!this.entries.has(entry.key) && !this.isGone(entry)) {
        loaded.push(entry);
      }
    }
    const kept = loaded.slice(-this.options.capacity);
    this.entries.clear();
    for (const entry of kept) {
      this.entries.set(entry.key, entry);
      this.track(entry);
    }
    for (const entry of session) {
      this.entries.set(entry.key, entry);
    }
    for (const entry of kept) {
      this.emit((l) => l.onSet?.(entry));
    }
    this.evictBeyondBounds();
    return kept.length;
  }

  private track(entry: CacheEntry<V>): void {
    const size = this.options.sizeOf ? this.options.sizeOf(entry.value) : (JSON.stringify(entry.value)?.length ?? 0);
    this.sizes.set(entry.key, size);
    this.chars += size;
  }

  private untrack(key: string): void {
    this.chars -= this.sizes.get(key) ?? 0;
    this.sizes.delete(key);
  }

  /** Removes the least recently used entries beyond the capacity, then beyond the character budget. */
  private evictBeyondBounds(): void {
    const maxChars = this.options.maxChars ?? Infinity;
    while (this.entries.size > this.options.capacity || (this.chars > maxChars && this.entries.size > 1)) {
      this.delete(this.entries.keys().next().value as string);
    }
  }

  /** Aborts every request in flight. */
  abortAll(): void {
    for (const [key, shared] of [...this.inFlight]) {
      shared.controller.abort();
      this.forget(key, shared);
    }
  }

  /** Drops a request from the in-flight table, unless a newer one for the key has taken its place. */
  private forget(key: string, shared: Shared<V>): void {
    if (this.inFlight.get(key) === shared) {
      this.inFlight.delete(key);
    }
  }

  private start(key: string, fetcher: (signal: AbortSignal) => Promise<V>): Shared<V> {
    const controller = new AbortController();
    const shared: Shared<V> = { controller, waiters: 0, settled: false, promise: Promise.resolve(undefined as V) };
    shared.promise = (async () => {
      try {
        const value = await fetcher(controller.signal);
        if (!controller.signal.aborted) {
          this.set(key, value);
        }
        return value;
      } finally {
        shared.settled = true;
        this.forget(key, shared);
      }
    })();
    // Every waiter handles the outcome; this keeps a rejection nobody waits for from being reported as unhandled.
    shared.promise.catch(() => undefined);
    this.inFlight.set(key, shared);
    return shared;
  }

  private isGone(entry: CacheEntry<V>): boolean {
    return this.now() - entry.storedAt >= this.options.ttlMs() + this.graceMs;
  }

  private emit(call: (listener: CacheListener<V>) => void): void {
    for (const listener of this.listeners) {
      call(listener);
    }
  }
}

/** Resolves like `promise`, or rejects with an abort error as soon as `signal` fires. */
export function untilAborted<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) {
    return promise;
  }
  const cancelled = () => new ServiceError('aborted', l10n.t('The request was cancelled.'));
  if (signal.aborted) {
    return Promise.reject(cancelled());
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(cancelled());
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
