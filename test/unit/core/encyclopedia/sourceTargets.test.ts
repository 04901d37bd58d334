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
  it('reads a title with a site name before or after it as the article its URL names', () => {
    const cases: [title: string, url: string, article: string][] = [
      ['Alan Turing - Wikipedia', 'https://en.wikipedia.example/wiki/Alan_Turing', 'Alan Turing'],
      ['AXO Encyclopedia: Alan Turing', 'https://axo.example/wiki/Alan_Turing', 'Alan Turing'],
      ['Alan Turing | Britannica', 'https://britannica.example/wiki/Alan%20Turing', 'Alan Turing'],
      ['Alan Turing — AXO', 'https://axo.example/wiki/alan_turing', 'Alan Turing'],
      ['Grace  Hopper – Encyclopedia', 'https://e.example/a/Grace_Hopper/', 'Grace Hopper'],
      // A title with a separator of its own: the site name is the part that does not match.
      ['C: A Reference Manual - Wikipedia', 'https://w.example/wiki/C:_A_Reference_Manual', 'C: A Reference Manual'],
      ['History - Part 2 | Site', 'https://w.example/wiki/History_-_Part_2', 'History - Part 2'],
    ];
    for (const [title, url, name] of cases) {
      assert.deepEqual(sourceTarget({ title, url }, []), { kind: 'article', title: name }, title);
      assert.ok(articleOriginsOf([{ title, url }], undefined).includes(new URL(url).origin), title);
    }
  });

  it('keeps a page whose title only resembles its URL a web page', () => {
    const cases: [title: string, url: string][] = [
      ['Alan Turing-Wikipedia', 'https://w.example/wiki/Alan_Turing'], // no separator with spaces
      ['Alan Turing’s legacy - Blog', 'https://blog.example/Alan_Turing'],
      ['Alan Turing - Wikipedia', 'https://w.example/wiki/Turing'],
      ['Wikipedia', 'https://w.example/wiki/Alan_Turing'],
    ];
    for (const [title, url] of cases) {
      assert.equal(sourceTarget({ title, url }, []).kind, 'web', title);
    }
  });

  it('a site-named source teaches its origin: another source there opens as an article', () => {
    const targets = sourceTargets(
      [
        { title: 'Alan Turing - Wikipedia', url: 'https://w.example/wiki/Alan_Turing' },
        { title: 'Turing machine', url: 'https://w.example/w/index.php?curid=30403' },
        { title: 'Elsewhere', url: 'https://blog.example/post' },
      ],
      'http://127.0.0.1:8787/',
    );
    assert.deepEqual(targets, [
      { kind: 'article', title: 'Alan Turing' },
      { kind: 'article', title: 'Turing machine' },
      { kind: 'web', url: 'https://blog.example/post' },
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
