import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CacheSnapshotFile } from '../../src/core/encyclopedia/cacheSnapshotFile';
import { EncyclopediaStore, type EncyclopediaClient } from '../../src/core/encyclopedia/encyclopediaStore';
import { isLookupValue, type LookupValue } from '../../src/core/encyclopedia/lookupTypes';
import type { Article } from '../../src/core/service/normalize';
import { seededRandom as rng } from '../fakeService/chunking';
import { median, percentile, type BenchFigure } from './benchFigure';

const ENTRIES = 10_000;
const HOVERS = 10_000;
const HOUR = 3600_000;

const WORDS = [
  'alpha',
  'beta',
  'gamma',
  'delta',
  'quantum',
  'river',
  'stone',
  '東京',
  'naïve',
  'C#',
  'AC/DC',
  'Tom & Jerry',
];

/** A realistic article: a two-to-four-word title, a summary, eight facts. */
function syntheticArticle(i: number, random: () => number): Article {
  const words = Array.from({ length: 2 + Math.floor(random() * 3) }, () => WORDS[Math.floor(random() * WORDS.length)]);
  const title = `${words.join(' ')} ${i}`;
  return {
    title,
    summary: `${title} is a synthetic article used to measure hovers; it has a summary of ordinary length with *marks* [and] links.`,
    content: `## ${title}\n\nBody text of the article.`.repeat(4),
    url: `https://axo.example/wiki/${encodeURIComponent(title)}`,
    facts: Array.from({ length: 8 }, (_, f) => ({ name: `Fact ${f}`, value: `Value ${f} of ${title} — 🇬🇧` })),
    media: [`https://axo.example/media/${i}.jpg`],
    citations: [{ title: 'Source', url: 'https://axo.example/source' }],
  };
}

const noClient: EncyclopediaClient = {
  ask: () => Promise.reject(new Error('no network in the bench')),
  search: () => Promise.reject(new Error('no network in the bench')),
  article: () => Promise.reject(new Error('no network in the bench')),
};

/** Hover from cache (10,000 hovers on 10,000 entries) and the cold start of that cache from disk. */
export async function run(): Promise<BenchFigure[]> {
  const dir = await mkdtemp(join(tmpdir(), 'axo-hover-bench-'));
  try {
    const random = rng(7);
    const path = join(dir, 'encyclopediaCache.json');
    const store = new EncyclopediaStore({
      client: noClient,
      file: new CacheSnapshotFile(path, isLookupValue),
      ttlMs: () => 24 * HOUR,
      capacity: ENTRIES,
    });
    await store.ensureLoaded();
    const titles: string[] = [];
    for (let i = 0; i < ENTRIES; i++) {
      const article = syntheticArticle(i, random);
      const value: LookupValue = { kind: 'article', article, requestedTitle: article.title };
      store.cache.set(JSON.stringify(['article', { title: article.title, facts: 1 }, '']), value);
      titles.push(article.title);
    }
    // Lines as they appear in code: the title inside a comment with text around it.
    const lines = Array.from({ length: HOVERS }, () => {
      const title = titles[Math.floor(random() * titles.length)];
      const prefix = `    // See ${'x'.repeat(Math.floor(random() * 40))} `;
      return { text: `${prefix}${title.toUpperCase()} for details; more text follows here.`, at: prefix.length + 1 };
    });
    const times: number[] = [];
    let misses = 0;
    for (const line of lines) {
      const started = performance.now();
      const hit = store.hoverAt(line.text, line.at);
      times.push(performance.now() - started);
      misses += hit && hit.markdown.includes('Fact 0') ? 0 : 1;
    }
    const med = median(times);
    const p99 = percentile(times, 99);

    await store.flush();
    const bytes = (await stat(path)).size;
    store.dispose();

    const coldStarted = performance.now();
    const cold = new EncyclopediaStore({
      client: noClient,
      file: new CacheSnapshotFile(path, isLookupValue),
      ttlMs: () => 24 * HOUR,
      capacity: ENTRIES,
    });
    await cold.ensureLoaded();
    const firstHover = cold.hoverAt(lines[0].text, lines[0].at);
    const coldMs = performance.now() - coldStarted;
    cold.dispose();

    return [
      {
        name: `hover from cache, median (${HOVERS} hovers, ${ENTRIES} entries)`,
        value: `${(med * 1000).toFixed(1)} µs`,
        target: '< 1 ms',
        pass: med < 1,
      },
      { name: 'hover from cache, p99', value: `${(p99 * 1000).toFixed(1)} µs`, target: '< 5 ms', pass: p99 < 5 },
      { name: 'hovers that found their article', value: `${HOVERS - misses} of ${HOVERS}`, pass: misses === 0 },
      {
        name: `cold start from disk (${ENTRIES} entries, ${(bytes / 1024 / 1024).toFixed(1)} MB), read to first hover`,
        value: `${coldMs.toFixed(0)} ms`,
        pass: firstHover !== undefined,
      },
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
