import * as assert from 'node:assert/strict';
import { citationList, lookupMarkdown } from '../../../../src/core/encyclopedia/articleMarkdown';
import { commandUri, escapeMarkdown, hoverMarkdown } from '../../../../src/core/encyclopedia/hoverText';
import { LookupHistory } from '../../../../src/core/encyclopedia/lookupHistory';
import type { LookupValue } from '../../../../src/core/encyclopedia/lookupTypes';
import { TermIndex } from '../../../../src/core/encyclopedia/termIndex';
import { webUrl } from '../../../../src/shared/links';

const hostile =
  '[click](command:workbench.action.terminal.new) <img src=x onerror=alert(1)> **bold** `code` https://evil.example $(alert)';

function article(overrides: Partial<Extract<LookupValue, { kind: 'article' }>['article']> = {}): LookupValue {
  return {
    kind: 'article',
    requestedTitle: 'Alan Turing',
    article: {
      title: 'Alan Turing',
      summary: 'English mathematician.',
      content: 'Body',
      facts: [
        { name: 'Born', value: '23 June 1912' },
        { name: 'Died', value: '7 June 1954' },
        { name: 'Fields', value: 'Maths' },
        { name: 'Known for', value: 'Turing machine' },
        { name: 'Alma mater', value: "King's College" },
        { name: 'Sixth', value: 'not shown' },
      ],
      media: [],
      citations: [],
      ...overrides,
    },
  };
}

/** The links a Markdown string would render (the `](target)` parts, ignoring escaped brackets). */
function linkTargets(markdown: string): string[] {
  return [...markdown.matchAll(/(?<!\\)\]\((?<target>[^)\s]+)/g)].map((m) => m.groups?.target ?? '');
}

describe('hover text escaping', () => {
  it('escapes every Markdown and HTML character of a value', () => {
    const escaped = escapeMarkdown(hostile);
    assert.doesNotMatch(escaped, /(?<!\\)[[\]()<>*`]/);
    assert.equal(linkTargets(escaped).length, 0);
    assert.match(escaped, /\\\[click\\\]\\\(command\\:workbench/);
  });

  it('collapses new lines so a value cannot start a block or a table row', () => {
    assert.equal(escapeMarkdown('a\n\n# heading\n| x |'), 'a \\# heading \\| x \\|');
  });

  it('percent-encodes command arguments, parentheses and quotes included', () => {
    const uri = commandUri('axo.article', [{ title: "C# (language) 'x'" }]);
    assert.match(uri, /^command:axo\.article\?/);
    assert.doesNotMatch(uri.slice('command:axo.article?'.length), /[()'"\s#]/);
    assert.deepEqual(JSON.parse(decodeURIComponent(uri.split('?')[1])), [{ title: "C# (language) 'x'" }]);
  });

  it('builds an article hover with the summary, five facts and the only link, to axo.article', () => {
    const md = hoverMarkdown(article()) ?? '';
    assert.match(md, /\*\*Alan Turing\*\*/);
    assert.match(md, /English mathematician\\\./);
    assert.match(md, /23 June 1912/);
    assert.match(md, /King\\'s College/);
    assert.doesNotMatch(md, /not shown/);
    assert.match(md, /1 more facts/);
    const targets = linkTargets(md);
    assert.equal(targets.length, 1);
    assert.match(targets[0], /^command:axo\.article\?/);
  });

  it('keeps hostile service values inert in article and answer hovers', () => {
    const values: LookupValue[] = [
      article({ title: hostile, summary: hostile, facts: [{ name: hostile, value: hostile }] }),
      {
        kind: 'answer',
        answer: { query: hostile, model: hostile, text: hostile, citations: [{ title: hostile, url: 'command:x' }] },
      },
    ];
    for (const value of values) {
      const md = hoverMarkdown(value) ?? '';
      assert.ok(
        linkTargets(md).every((t) => t.startsWith('command:axo.article?')),
        md,
      );
      assert.doesNotMatch(md, /(?<!\\)<img/);
      assert.doesNotMatch(md, /(?<!\\)\$\(/);
    }
  });

  it('has no hover for search results', () => {
    assert.equal(hoverMarkdown({ kind: 'search', query: 'q', results: [] }), undefined);
  });
});

describe('TermIndex phrase matching', () => {
  const index = new TermIndex();
  index.add('Alan Turing', 'turing');
  index.add('Turing', 'short');
  index.add('AC/DC', 'acdc');
  index.add('C# (language)', 'csharp');
  index.add('Tom & Jerry', 'tom');
  index.add('東京', 'tokyo');

  const at = (line: string, needle: string, offset = 1) => index.match(line, line.indexOf(needle) + offset);

  it('matches a phrase case-insensitively, with any white space between words', () => {
    assert.equal(at('// ALAN   turing wrote this', 'ALAN')?.key, 'turing');
    const m = at('see alan turing.', 'turing');
    assert.deepEqual([m?.start, m?.end, m?.phrase], [4, 15, 'Alan Turing']);
  });

  it('prefers the longest phrase covering the position', () => {
    assert.equal(at('Alan Turing', 'Turing')?.key, 'turing');
    assert.equal(at('a Turing machine', 'Turing')?.key, 'short');
  });

  it('matches whole words only', () => {
    assert.equal(at('Turingery', 'Turing'), undefined);
    assert.equal(at('xAlan Turing', 'Alan')?.key, undefined);
    assert.equal(at('xAlan Turing', 'Turing')?.key, 'short');
  });

  it('matches titles with punctuation and non-Latin scripts', () => {
    assert.equal(at('I like ac/dc a lot', 'dc')?.key, 'acdc');
    assert.equal(at('written in c# (Language) today', 'Lang')?.key, 'csharp');
    assert.equal(at('Tom & Jerry', '&', 0)?.key, 'tom');
    assert.equal(at('東京都に住む', '京', 0)?.key, 'tokyo');
  });

  it('returns nothing off a phrase, and forgets removed phrases', () => {
    assert.equal(at('nothing to see', 'see'), undefined);
    const local = new TermIndex();
    local.add('Photosynthesis', 'p');
    local.remove('photosynthesis', 'other');
    assert.equal(local.match('Photosynthesis', 2)?.key, 'p');
    local.remove('PHOTOSYNTHESIS', 'p');
    assert.equal(local.match('Photosynthesis', 2), undefined);
  });

  it('stays fast and correct on a very long line', () => {
    const line = `${'x '.repeat(50_000)}Alan Turing${' y'.repeat(50_000)}`;
    assert.equal(index.match(line, 100_003)?.key, 'turing');
  });
});

describe('article Markdown ("Open as Markdown")', () => {
  it('writes title, summary, content, a facts table, media and sources', () => {
    const md = lookupMarkdown(
      article({
        media: ['https://axo.example/media/portrait.jpg'],
        citations: [{ title: 'Biography', url: 'https://axo.example/bio' }],
        url: 'https://axo.example/wiki/Alan_Turing',
      }),
    );
    assert.match(md, /^# Alan Turing\n/);
    assert.match(md, /\| Born \| 23 June 1912 \|/);
    assert.match(md, /- \[portrait\.jpg\]\(<https:\/\/axo\.example\/media\/portrait\.jpg>\)/);
    assert.match(md, /1\. \[Biography\]\(<https:\/\/axo\.example\/bio>\)/);
  });

  it('makes only http(s) URLs into links and keeps cells from breaking the table', () => {
    const md = lookupMarkdown(
      article({
        facts: [{ name: 'a|b', value: 'line\nbreak <b>' }],
        citations: [{ title: 'Evil', url: 'javascript:alert(1)' }],
      }),
    );
    assert.match(md, /\| a\\\|b \| line break \\<b\\> \|/);
    assert.doesNotMatch(md, /javascript:/);
    assert.equal(webUrl('command:axo.ask'), undefined);
    assert.equal(webUrl('https://x.example/a b'), 'https://x.example/a%20b');
  });

  it('lists citations as @axo and the Markdown document show them: numbered, links only for http(s)', () => {
    assert.deepEqual(
      citationList([
        { title: 'Turing [1912]', url: 'https://en.example/Alan Turing' },
        { title: 'Evil', url: 'command:workbench.action.quit' },
        { title: '', url: 'https://x.example/' },
      ]),
      [
        '1. [Turing \\[1912\\]](<https://en.example/Alan%20Turing>)',
        '2. Evil',
        '3. [https://x.example/](<https://x.example/>)',
      ],
    );
  });
});

describe('LookupHistory', () => {
  it('goes back and forward, and a new lookup drops the forward pages', () => {
    const h = new LookupHistory<string>(3);
    h.push('a');
    h.push('b');
    h.push('c');
    assert.equal(h.back(), 'b');
    assert.equal(h.back(), 'a');
    assert.equal(h.back(), undefined);
    assert.equal(h.forward(), 'b');
    h.push('d');
    assert.equal(h.canGoForward, false);
    assert.deepEqual(h.position, { index: 3, length: 3 });
    h.push('e');
    assert.deepEqual(h.position, { index: 3, length: 3 });
    assert.equal(h.back(), 'd');
  });
});
