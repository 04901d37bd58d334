import * as assert from 'node:assert/strict';
import { Marked } from 'marked';
import { escapeInline, lookupMarkdown } from '../../../../src/core/encyclopedia/articleMarkdown';
import { articleResult } from '../../../../src/core/mcp/toolResults';
import type { Article } from '../../../../src/core/service/normalize';
import { assertGrowth } from '../../../support/growth';

/** The text a reader sees of some Markdown (or of HTML already rendered: tags dropped, references decoded). */
function shown(markdown: string): string {
  return plain(new Marked({ gfm: true }).parse(markdown, { async: false }));
}

/** Rendered HTML as text: tags dropped, references decoded. */
function plain(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .trim();
}

describe('facts and titles escaped only where an escape changes the meaning', () => {
  const values = [
    '5.8 Mohs',
    '1. first',
    '12) twelve',
    '# not a heading',
    '- not a list',
    '+ not a list',
    '2026',
    'a*b*c',
    '~~kept~~',
    'x | y',
    '3.14',
  ];

  it('reads exactly as written, with no backslash showing, in a table cell and on its own line', () => {
    for (const value of values) {
      const table = new Marked({ gfm: true }).parse(`| a | b |\n| --- | --- |\n| ${escapeInline(value)} | x |`, {
        async: false,
      });
      assert.equal(plain(/<td>(.*?)<\/td>/.exec(table)?.[1] ?? ''), value, value);
      assert.equal(shown(escapeInline(value)), value, value);
    }
  });

  it('an article fact "5.8 Mohs" is written without a backslash before the digit, in the tool result and the document', () => {
    const article: Article = {
      title: 'Quartz',
      content: 'A mineral.',
      facts: [{ name: 'Hardness', value: '5.8 Mohs' }],
      media: [],
      citations: [],
    };
    assert.match(articleResult(article), /^\| Hardness \| 5\.8 Mohs \|$/m);
    assert.match(
      lookupMarkdown({ kind: 'article', article, requestedTitle: 'Quartz' }),
      /^\| Hardness \| 5\.8 Mohs \|$/m,
    );
  });

  it('escapes in linear time', function () {
    this.timeout(20_000);
    assertGrowth('escapeInline', (n) => '1.*_[<|~'.repeat(n), escapeInline, { n: 40_000, rounds: 3, maxMs: 5_000 });
  });
});
