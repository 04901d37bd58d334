import * as assert from 'node:assert/strict';
import { markdownMayHold } from '../../../../src/webview/chat/panels/markdownMatch';
import { lexBlocks, newLinkMap } from '../../../../src/webview/chat/render/markdownBlocks';
import { spokenText } from '../../../../src/webview/chat/spokenReply';
import { assertGrowth } from '../../../support/growth';
import { renderWhole } from '../../../support/streamedMarkdown';

/** The chat page's Markdown lexer (marked with the math extension), as each frame of a streaming reply runs it. */
const lex = (text: string) => lexBlocks(text, newLinkMap());

/** `run` done `times` times: a reader that takes under a millisecond is measured over several runs. */
const repeated =
  (run: (text: string) => unknown, times: number) =>
  (text: string): void => {
    for (let i = 0; i < times; i++) {
      run(text);
    }
  };

/**
 * The page's pure readers of reply text, each run on every adversarial input below, and the n each is measured at. A
 * measured run at n lasts some milliseconds (the cheap readers are repeated): on a busy machine a run shorter than the
 * scheduler's slice is seldom interrupted and a longer one always is, which read as a linear reader growing 20 to 70
 * times from n to 8n. Quadratic work at 8n is still seconds, far above `maxMs`.
 */
const READERS: Record<string, { run: (text: string) => unknown; n: number; factor?: number }> = {
  // The lexer's token list grows with the text, and V8's collections with it: its CPU time grew 20 to 26 times from
  // n to 8n on some inputs (marked alone about 12), so it is allowed 32; quadratic work grows 64 times.
  'the Markdown and math lexer': { run: lex, n: 3_000, factor: 32 },
  'the spoken text': { run: repeated(spokenText, 4), n: 2_000 },
  "the find bar's match in a sleeping section": {
    run: repeated((text) => markdownMayHold(text, 'zebra'), 4),
    n: 2_000,
  },
};

/**
 * Inputs that made a reader rescan: unclosed openers repeated, `\r` runs, one line without a line break. Sized so that
 * quadratic work at 8n is far above the growth floor. Deep nesting is left to marked's own bounds (see the report).
 */
const ADVERSARIAL: Record<string, (n: number) => string> = {
  '** repeated': (n) => '**a '.repeat(n),
  '__ repeated': (n) => '__a '.repeat(n),
  '~~ repeated': (n) => '~~a '.repeat(n),
  '$$ repeated on one line': (n) => '$$a '.repeat(n),
  '$ repeated': (n) => '$a '.repeat(n),
  '\\( repeated': (n) => '\\(a '.repeat(n),
  '\\[ repeated': (n) => '\\[ '.repeat(n),
  '[ repeated': (n) => '[a '.repeat(n),
  '< repeated': (n) => '<a '.repeat(n),
  ']( repeated': (n) => ']('.repeat(n),
  '``` lines with \\r': (n) => '```\r'.repeat(n),
  '\\r run': (n) => `a${'\r'.repeat(4 * n)}b`,
  'one line without a line break': (n) => 'word '.repeat(n),
  'blank lines': (n) => `Done.${'\n'.repeat(4 * n)}x`,
};

describe('The chat page reads reply text in linear time', function () {
  this.timeout(120_000);

  it('a paragraph of 48,000 characters of escapes is lexed without a scan to its end per token', () => {
    // The inline math `start` looked for `$` and `\(` over the rest of the paragraph at each token: 0.4 s at n, 3.7 s
    // at 8n before (28.6 s for `a\_` × 100,000).
    assertGrowth('a\\_ repeated', (n) => 'a\\_'.repeat(n), lex, { n: 2_000, maxMs: 1_500 });
  });

  it('a paragraph of lines that open formula blocks is lexed in one pass', () => {
    // 8n is 8,000 lines: 0.1 s here; CI's unit process once took 1.03 s (75 ms at n, the same growth), so the bound
    // is the file's 2 s, which quadratic work (4.7 s at half that size before) still passes by far.
    const GROWTH = { n: 1_000, rounds: 5, maxMs: 2_000 };
    // Each opener scanned to the paragraph's end: `text` then 4,000 lines of `$$x` took 4.7 s before (0.2 s at 500).
    for (const line of ['$$x', '$$ a', '\\[ a']) {
      assertGrowth(`text, then ${line} lines`, (n) => `text\n${`${line}\n`.repeat(n)}`, lex, GROWTH);
    }
    // In a list item and a quote the rest of the item was scanned again at each of its lines.
    assertGrowth('$$x lines in a list item', (n) => `- t\n${'  $$x\n'.repeat(n)}`, lex, GROWTH);
    assertGrowth('$$x lines in a quote', (n) => `> t\n${'> $$x\n'.repeat(n)}`, lex, GROWTH);
    // An opener that meets a blank line before its closer was scanned to it again at each block: 0.03 s at n, 0.8 s
    // at 8n (CPU time) before.
    assertGrowth(
      '\\[ a and closed $$x$$, then a blank line',
      (n) => `${'\\[ a\n$$x$$\n'.repeat(n / 2)}\nend`,
      lex,
      GROWTH,
    );
  });

  it('reads aloud a reply of unclosed strong marks on one line', () => {
    // The `(\*\*|__|~~)…\1` pattern searched the rest of the text from each mark: 0.18 s at n, 4.9 s at 8n before.
    assertGrowth('**a repeated, spoken', (n) => '**a '.repeat(n), repeated(spokenText, 16), {
      n: 2_000,
      rounds: 5,
      maxMs: 2_000,
    });
  });

  for (const [reader, { run, n, factor }] of Object.entries(READERS)) {
    it(`${reader}: every adversarial input`, () => {
      for (const [name, make] of Object.entries(ADVERSARIAL)) {
        assertGrowth(`${reader}, ${name}`, make, run, { n, factor, rounds: 5, maxMs: 2_000 });
      }
    });
  }

  it('reads what it read before: formulas, pairs of marks and what does not close', () => {
    // An opener closes at the first line ending in its closer: `$$x` here takes the lines up to the lone `$$` (whose
    // TeX does not parse, so it is shown as source); the paragraph before it is cut there.
    const html = renderWhole('text\n$$x\n$$ a\n\\[ b \\]\n$$\n\n$$ c $$\n');
    assert.ok(html.startsWith('<p>text</p>\n<p class="math-source"><code class="math-source"'), html);
    assert.equal((html.match(/<div class="math-block">/g) ?? []).length, 1, html);
    // The first `\)` closes, an escaped backslash before `)` does not.
    assert.equal((renderWhole('a \\(x\\) b \\(y \\\\) c\\)').match(/<math /g) ?? []).length, 2);
    assert.equal(spokenText('**a **b** ~~c~~ __ d__ **e'), 'a **b c __ d__ **e');
    assert.equal(spokenText('***x** and **\ny**'), 'x and * y**');
  });
});
