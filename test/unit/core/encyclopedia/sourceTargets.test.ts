import * as assert from 'node:assert/strict';
import { articleOriginsOf, sourceTarget, sourceTargets } from '../../../../src/core/chat/request/citations';
import { EncyclopediaStore, type EncyclopediaClient } from '../../../../src/core/encyclopedia/encyclopediaStore';
import type { Article } from '../../../../src/core/service/normalize';

const HOUR = 3600_000;

function article(title: string, url?: string): Article {
  return { title, content: `About ${title}.`, url, facts: [], media: [], citations: [] };
}

/** An encyclopedia that knows two articles and answers a search with one result on another origin. */
const client: EncyclopediaClient = {
  ask: async (query, model) => ({
    query,
    model,
    text: 'An answer.',
    citations: [{ title: 'Any page', url: 'https://cited.example/any' }],
  }),
  search: async () => [
    { title: 'Grace Hopper', url: 'https://people.example/p?id=77' },
    { title: 'No address' },
    { title: 'Hostile', url: 'javascript:alert(1)' },
  ],
  article: async (title) =>
    /turing/i.test(title)
      ? article('Alan Turing', 'https://axo.example/wiki/Alan_Turing')
      : article('Ada Lovelace', 'https://lovelace.example/ada'),
};

describe('which sources open in the Encyclopedia view', () => {
  it('opens a page on another site as the website, however its title resembles its URL', () => {
    const cases: [title: string, url: string][] = [
      ['Promise - JavaScript | MDN', 'https://developer.mozilla.example/en-US/docs/Web/JavaScript/Reference/Promise'],
      ['Alan Turing - Wikipedia', 'https://en.wikipedia.example/wiki/Alan_Turing'],
      ['Alan Turing', 'https://britannica.example/wiki/Alan%20Turing'],
    ];
    for (const [title, url] of cases) {
      assert.deepEqual(sourceTarget({ title, url }, []), { kind: 'web', url }, title);
      assert.deepEqual(articleOriginsOf(undefined), [], title);
    }
  });

  it('one look-alike source teaches no origin: the other sources of that site stay web pages', () => {
    const targets = sourceTargets(
      [
        { title: 'Promise - JavaScript | MDN', url: 'https://mdn.example/docs/Promise' },
        { title: 'Array', url: 'https://mdn.example/docs/Array' },
        { title: 'On the service', url: 'http://127.0.0.1:8787/wiki/Service_page' },
      ],
      'http://127.0.0.1:8787/',
    );
    assert.deepEqual(targets, [
      { kind: 'web', url: 'https://mdn.example/docs/Promise' },
      { kind: 'web', url: 'https://mdn.example/docs/Array' },
      { kind: 'article', title: 'On the service' }, // the encyclopedia's own origin
    ]);
  });

  it('learns article origins and titles from the article URLs the encyclopedia returned, as its cache holds them', async () => {
    const store = new EncyclopediaStore({ client, ttlMs: () => HOUR });
    const sources = [
      { title: 'Pioneer of computing', url: 'https://axo.example/wiki/Alan_Turing' },
      { title: 'Turing machine', url: 'https://axo.example/w/index.php?curid=5' },
      { title: 'A page about her', url: 'https://people.example/p?id=77' },
      { title: 'Any page', url: 'https://cited.example/any' },
    ];
    const before = sourceTargets(sources, undefined, store.articleUrls);
    assert.deepEqual(
      before.map((t) => t.kind),
      ['web', 'web', 'web', 'web'],
      'nothing is known before a lookup',
    );

    await store.lookup({ kind: 'article', title: 'turing' });
    await store.lookup({ kind: 'search', query: 'hopper' });
    await store.lookup({ kind: 'ask', query: 'anything', model: 'axo' });
    assert.deepEqual(sourceTargets(sources, undefined, store.articleUrls), [
      { kind: 'article', title: 'Alan Turing' }, // the URL of the article "Alan Turing"
      { kind: 'article', title: 'Turing machine' }, // on the origin the encyclopedia's articles come from
      { kind: 'article', title: 'Grace Hopper' }, // a search result's URL
      { kind: 'web', url: 'https://cited.example/any' }, // an answer's citation may be any page
    ]);
    assert.deepEqual([...store.articleUrls.origins()].sort(), ['https://axo.example', 'https://people.example']);

    // Forgotten with the entries that returned them; the article filed twice (as asked and by its title) counts once.
    await store.lookup({ kind: 'article', title: 'Ada Lovelace' });
    store.cache.delete(JSON.stringify(['search', { q: 'hopper' }, '']));
    assert.deepEqual([...store.articleUrls.origins()].sort(), ['https://axo.example', 'https://lovelace.example']);
    store.cache.delete(JSON.stringify(['article', { title: 'turing', facts: 1 }, '']));
    assert.equal(store.articleUrls.titleAt('https://axo.example/wiki/Alan_Turing'), 'Alan Turing', 'its alias stays');
    await store.clear();
    assert.deepEqual([...store.articleUrls.origins()], []);
    assert.equal(sourceTargets(sources, undefined, store.articleUrls)[0].kind, 'web');
  });
});
