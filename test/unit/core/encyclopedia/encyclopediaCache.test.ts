import * as assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CacheSnapshotFile } from '../../../../src/core/encyclopedia/cacheSnapshotFile';
import {
  CACHE_MAX_CHARS,
  EncyclopediaStore,
  type EncyclopediaClient,
} from '../../../../src/core/encyclopedia/encyclopediaStore';
import { LookupCache } from '../../../../src/core/encyclopedia/lookupCache';
import { isLookupValue, lookupKey, type LookupValue } from '../../../../src/core/encyclopedia/lookupTypes';
import { ServiceError, isAbortError } from '../../../../src/core/service/errors';
import type { Article } from '../../../../src/core/service/normalize';

const HOUR = 3600_000;

function clock(start = 1_000_000): { now: () => number; advance: (ms: number) => void } {
  let t = start;
  return { now: () => t, advance: (ms) => (t += ms) };
}

/** A fetcher that waits until released (or aborted) and counts its calls. */
function deferredFetcher<V>() {
  const calls: AbortSignal[] = [];
  let release: (v: V) => void = () => undefined;
  let fail: (e: unknown) => void = () => undefined;
  const fetcher = (signal: AbortSignal) =>
    new Promise<V>((resolve, reject) => {
      calls.push(signal);
      release = resolve;
      fail = reject;
      signal.addEventListener('abort', () => reject(new ServiceError('aborted', 'cancelled')));
    });
  return { fetcher, calls, release: (v: V) => release(v), fail: (e: unknown) => fail(e) };
}

describe('LookupCache', () => {
  it('serves a second identical lookup from the cache within the TTL', async () => {
    const c = clock();
    const cache = new LookupCache<string>({ capacity: 10, ttlMs: () => HOUR, now: c.now });
    let calls = 0;
    const fetcher = async () => `v${++calls}`;
    const first = await cache.fetch('k', fetcher);
    const second = await cache.fetch('k', fetcher);
    assert.deepEqual([first.value, first.cached, second.value, second.cached], ['v1', false, 'v1', true]);
    assert.equal(calls, 1);
  });

  it('fetches again once the TTL has passed', async () => {
    const c = clock();
    const cache = new LookupCache<string>({ capacity: 10, ttlMs: () => HOUR, now: c.now });
    let calls = 0;
    await cache.fetch('k', async () => `v${++calls}`);
    c.advance(HOUR - 1);
    assert.equal((await cache.fetch('k', async () => `v${++calls}`)).value, 'v1');
    c.advance(1);
    assert.equal((await cache.fetch('k', async () => `v${++calls}`)).value, 'v2');
  });

  it('serves nothing from the cache when the TTL is 0', async () => {
    const cache = new LookupCache<string>({ capacity: 10, ttlMs: () => 0 });
    let calls = 0;
    await cache.fetch('k', async () => `v${++calls}`);
    await cache.fetch('k', async () => `v${++calls}`);
    assert.equal(calls, 2);
  });

  it('evicts the least recently used entry beyond capacity', async () => {
    const cache = new LookupCache<string>({ capacity: 2, ttlMs: () => HOUR });
    cache.set('a', 'A');
    cache.set('b', 'B');
    assert.ok(cache.fresh('a')); // a is now the most recently used
    cache.set('c', 'C');
    assert.ok(cache.peek('a'));
    assert.equal(cache.peek('b'), undefined);
    assert.ok(cache.peek('c'));
    assert.equal(cache.size, 2);
  });

  it('keeps its entries within a character budget, least recently used first, the newest always', async () => {
    const cache = new LookupCache<string>({ capacity: 100, maxChars: 1000, ttlMs: () => HOUR });
    cache.set('a', 'A'.repeat(398)); // 400 characters as JSON
    cache.set('b', 'B'.repeat(398));
    assert.ok(cache.fresh('a'));
    cache.set('c', 'C'.repeat(398));
    assert.deepEqual([cache.peek('a')?.key, cache.peek('b')?.key, cache.peek('c')?.key], ['a', undefined, 'c']);
    assert.equal(cache.totalChars, 800);
    cache.set('huge', 'H'.repeat(5000));
    assert.equal(cache.size, 1, 'an entry larger than the budget stays alone');
    cache.delete('huge');
    assert.equal(cache.totalChars, 0);
    cache.restore([1, 2, 3, 4].map((i) => ({ key: `r${i}`, value: 'R'.repeat(298), storedAt: Date.now() })));
    assert.deepEqual(
      cache.snapshot().map((e) => e.key),
      ['r2', 'r3', 'r4'],
    );
  });

  it('the encyclopedia store keeps articles of megabytes within CACHE_MAX_CHARS', async function () {
    this.timeout(60_000);
    const big = 'x'.repeat(20 * 1024 * 1024);
    const client = {
      ...fakeClient({}),
      article: async (title: string) => ({ ...turing, title, content: big }),
    } as EncyclopediaClient;
    const store = new EncyclopediaStore({ client, ttlMs: () => HOUR });
    for (const title of ['a', 'b', 'c', 'd', 'e']) {
      await store.lookup({ kind: 'article', title });
    }
    const cached = ['a', 'b', 'c', 'd', 'e'].filter((title) => store.peekFresh({ kind: 'article', title }));
    assert.deepEqual(cached, ['c', 'd', 'e']);
    assert.ok(CACHE_MAX_CHARS <= 64 * 1024 * 1024);
  });

  it('shares one request between identical lookups in flight', async () => {
    const cache = new LookupCache<string>({ capacity: 10, ttlMs: () => HOUR });
    const d = deferredFetcher<string>();
    const p1 = cache.fetch('k', d.fetcher);
    const p2 = cache.fetch('k', d.fetcher);
    d.release('one');
    const [r1, r2] = await Promise.all([p1, p2]);
    assert.equal(d.calls.length, 1);
    assert.deepEqual([r1.value, r1.shared, r2.value, r2.shared], ['one', false, 'one', true]);
  });

  it('keeps a shared request running when one of two callers cancels, and aborts it when the last leaves', async () => {
    const cache = new LookupCache<string>({ capacity: 10, ttlMs: () => HOUR });
    const d = deferredFetcher<string>();
    const a = new AbortController();
    const b = new AbortController();
    const p1 = cache.fetch('k', d.fetcher, { signal: a.signal });
    const p2 = cache.fetch('k', d.fetcher, { signal: b.signal });
    a.abort();
    await assert.rejects(p1, (e) => isAbortError(e));
    assert.equal(d.calls[0].aborted, false);
    b.abort();
    await assert.rejects(p2, (e) => isAbortError(e));
    assert.equal(d.calls[0].aborted, true);
    assert.equal(cache.peek('k'), undefined);
  });

  it('starts a new request for a caller who arrives while a cancelled one is still winding down', async () => {
    // Cancel, then run the same lookup again (or hover away and back): the first request notices its abort only a
    // moment later, as a real HTTP request does. The second caller must not join it and be cancelled with it.
    const cache = new LookupCache<string>({ capacity: 10, ttlMs: () => HOUR });
    const signals: AbortSignal[] = [];
    const fetcher = (signal: AbortSignal) => {
      signals.push(signal);
      if (signals.length > 1) {
        return Promise.resolve('second');
      }
      return new Promise<string>((_resolve, reject) => {
        signal.addEventListener('abort', () => setImmediate(() => reject(new ServiceError('aborted', 'cancelled'))));
      });
    };
    const first = new AbortController();
    const p1 = cache.fetch('k', fetcher, { signal: first.signal });
    first.abort();
    await assert.rejects(p1, (e) => isAbortError(e));
    const again = await cache.fetch('k', fetcher, { signal: new AbortController().signal });
    assert.deepEqual([again.value, again.shared, signals.length], ['second', false, 2]);
    assert.equal(signals[1].aborted, false);
    // The first request ending late neither removes nor overwrites what the second one stored.
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(cache.peek('k')?.value, 'second');
  });

  it('starts a new request after abortAll() rather than joining an aborted one', async () => {
    const cache = new LookupCache<string>({ capacity: 10, ttlMs: () => HOUR });
    const d = deferredFetcher<string>();
    const p1 = cache.fetch('k', d.fetcher).catch((e: unknown) => e);
    cache.abortAll();
    const p2 = cache.fetch('k', d.fetcher);
    d.release('fresh');
    assert.equal((await p2).value, 'fresh');
    assert.ok(isAbortError(await p1));
    assert.equal(d.calls.length, 2);
  });

  it('shows an expired value, marked stale, when the service cannot be reached', async () => {
    const c = clock();
    const cache = new LookupCache<string>({
      capacity: 10,
      ttlMs: () => HOUR,
      now: c.now,
      staleOnError: (e) => e instanceof ServiceError && e.kind === 'network',
    });
    await cache.fetch('k', async () => 'old');
    c.advance(2 * HOUR);
    const r = await cache.fetch('k', async () => {
      throw new ServiceError('network', 'unreachable');
    });
    assert.deepEqual([r.value, r.cached, r.stale], ['old', true, true]);
    assert.match(String((r.error as Error).message), /unreachable/);
    await assert.rejects(
      cache.fetch('k', async () => {
        throw new ServiceError('badKey', 'bad key');
      }),
      /bad key/,
    );
  });

  it('forgets entries past TTL plus grace, and does not persist them', async () => {
    const c = clock();
    const cache = new LookupCache<string>({ capacity: 10, ttlMs: () => HOUR, graceMs: HOUR, now: c.now });
    cache.set('k', 'v');
    c.advance(2 * HOUR);
    assert.deepEqual(cache.snapshot(), []);
    assert.equal(cache.peek('k'), undefined);
  });

  it('restores persisted entries as older than this session, memory winning', () => {
    const c = clock();
    const cache = new LookupCache<string>({ capacity: 2, ttlMs: () => HOUR, now: c.now });
    cache.set('b', 'session');
    cache.restore([
      { key: 'a', value: 'disk-a', storedAt: c.now() },
      { key: 'b', value: 'disk-b', storedAt: c.now() },
      { key: 'old', value: 'gone', storedAt: c.now() - 30 * 24 * HOUR },
    ]);
    assert.equal(cache.peek('b')?.value, 'session');
    assert.equal(cache.peek('a')?.value, 'disk-a');
    assert.equal(cache.peek('old'), undefined);
    cache.set('c', 'C'); // evicts the restored 'a' first
    assert.equal(cache.peek('a'), undefined);
  });
});

const turing: Article = {
  title: 'Alan Turing',
  summary: 'English mathematician.',
  content: 'Body',
  facts: [{ name: 'Born', value: '23 June 1912' }],
  media: [],
  citations: [],
};

function fakeClient(counts: Record<string, number>): EncyclopediaClient {
  const bump = (k: string) => (counts[k] = (counts[k] ?? 0) + 1);
  return {
    ask: async (query, model) => (bump('ask'), { query, model, text: `About ${query}`, citations: [] }),
    search: async () => (bump('search'), [{ title: 'Alan Turing' }]),
    article: async () => (bump('article'), turing),
  };
}

describe('EncyclopediaStore with a persisted snapshot', () => {
  let dir: string;
  beforeEach(async () => (dir = await mkdtemp(join(tmpdir(), 'axo-cache-'))));
  afterEach(async () => rm(dir, { recursive: true, force: true }));

  it('persists lookups and serves them after a restart without a request, hovers included', async () => {
    const path = join(dir, 'cache.json');
    const counts: Record<string, number> = {};
    const first = new EncyclopediaStore({
      client: fakeClient(counts),
      file: new CacheSnapshotFile(path, isLookupValue),
      ttlMs: () => HOUR,
    });
    await first.lookup({ kind: 'article', title: 'alan turing' });
    await first.lookup({ kind: 'ask', query: 'What is light?', model: 'axo' });
    await first.flush();
    first.dispose();

    const second = new EncyclopediaStore({
      client: fakeClient(counts),
      file: new CacheSnapshotFile(path, isLookupValue),
      ttlMs: () => HOUR,
    });
    assert.equal(second.hoverAt('Alan Turing', 2), undefined, 'nothing before the lazy load');
    await second.ensureLoaded();
    const r = await second.lookup({ kind: 'article', title: 'Alan Turing' }); // the canonical title, filed as an alias
    assert.equal(r.cached, true);
    assert.equal(counts.article, 1);
    assert.match(second.hoverAt('I read about alan  turing today', 16)?.markdown ?? '', /23 June 1912/);
    assert.match(second.hoverAt('what is light?', 3)?.markdown ?? '', /About What is light/);
  });

  it('keys by endpoint, parameters and model', async () => {
    const counts: Record<string, number> = {};
    const store = new EncyclopediaStore({ client: fakeClient(counts), ttlMs: () => HOUR });
    await store.lookup({ kind: 'ask', query: 'q', model: 'axo' });
    await store.lookup({ kind: 'ask', query: ' q ', model: 'axo' });
    await store.lookup({ kind: 'ask', query: 'q', model: 'axo.1' });
    assert.equal(counts.ask, 2);
    assert.notEqual(lookupKey({ kind: 'search', query: 'q' }), lookupKey({ kind: 'ask', query: 'q', model: '' }));
  });

  it('clear() empties memory, hovers and the file', async () => {
    const path = join(dir, 'cache.json');
    const store = new EncyclopediaStore({
      client: fakeClient({}),
      file: new CacheSnapshotFile(path, isLookupValue),
      ttlMs: () => HOUR,
    });
    await store.lookup({ kind: 'article', title: 'Alan Turing' });
    await store.flush();
    await store.clear();
    assert.equal(store.hoverAt('Alan Turing', 1), undefined);
    await assert.rejects(readFile(path), /ENOENT/);
  });

  it('reads a corrupt or foreign file as empty, dropping invalid entries', async () => {
    const path = join(dir, 'cache.json');
    await writeFile(path, '{not json');
    const file = new CacheSnapshotFile<LookupValue>(path, isLookupValue);
    assert.deepEqual((await file.load()).entries, []);
    await writeFile(
      path,
      JSON.stringify({ version: 1, entries: [{ k: 'x', t: 1, v: { kind: 'article', article: 'bad' } }] }),
    );
    assert.deepEqual((await file.load()).entries, []);
  });
});
