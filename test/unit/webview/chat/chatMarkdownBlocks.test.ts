import * as assert from 'node:assert/strict';
import {
  addDefinitions,
  lexBlocks,
  newLinkMap,
  normaliseNewlines,
  renderBlocks,
  splitFinished,
  undefinedLabels,
} from '../../../../src/webview/chat/render/markdownBlocks';
import { everyChar, random, renderStreamed, renderWhole } from '../../../support/streamedMarkdown';

const SAMPLE = [
  '# Title',
  '',
  '[ref]: https://example.com/ref',
  '',
  'A paragraph with **bold**, `code` and a [link][ref].',
  'It goes on a second line.',
  '',
  '- one',
  '- two',
  '',
  '  still two',
  '- three',
  '',
  '1. first',
  '2. second',
  '',
  '```ts',
  'const x = 1;',
  '',
  'function f() {}',
  '```',
  '',
  '| a | b |',
  '|---|---|',
  '| 1 | 2 |',
  '',
  '> quoted',
  '> more',
  '',
  'Setext heading',
  '--------------',
  '',
  '    indented code',
  '',
  'Crème brûlée 🚀 東京 and an unfinished ```fence',
  '',
  '```python',
  'print("never closed")',
].join('\n');

describe('chat webview: finished Markdown blocks', () => {
  it('the tokens of a text cover every character of it', () => {
    const tokens = lexBlocks(SAMPLE, newLinkMap());
    assert.equal(
      tokens.reduce((sum, t) => sum + t.raw.length, 0),
      SAMPLE.length,
    );
  });

  it('keeps only the last block live', () => {
    const split = splitFinished(lexBlocks('# A\n\npara\n\n- item', newLinkMap()));
    assert.deepEqual(
      split.finished.map((t) => t.type),
      ['heading', 'space', 'paragraph', 'space'],
    );
    assert.deepEqual(
      split.live.map((t) => t.type),
      ['list'],
    );
    assert.equal(split.finishedLength, '# A\n\npara\n\n'.length);
    assert.deepEqual(splitFinished([]).finished, []);
  });

  it('keeps a list or a definition before the last block live: the last block may still join it', () => {
    const types = (text: string): string[] => splitFinished(lexBlocks(text, newLinkMap())).live.map((t) => t.type);
    // `3` may become the list's third item (`3. bar`), the quote mark the definition's title on its next line.
    assert.deepEqual(types('para\n\n1. foo\n2.\n3'), ['list', 'paragraph']);
    assert.deepEqual(types("[a]: /url\n'ti"), ['def', 'paragraph']);
    // After a blank line a definition is complete.
    assert.deepEqual(types("[a]: /url\n\n'ti"), ['paragraph']);
  });

  it('takes definitions from quotes and list items too, the first of a label winning, whatever the label', () => {
    const links = newLinkMap();
    const text = '> [Quoted]: /q\n\n- [listed]: /l\n\n[constructor]: /c\n[quoted]: /second\n';
    assert.deepEqual(addDefinitions(lexBlocks(text, newLinkMap()), links).sort(), ['constructor', 'listed', 'quoted']);
    assert.equal(links.quoted.href, '/q');
    assert.deepEqual(undefinedLabels('[Quoted] [new  Label][] `a[i]`', links), ['new label', 'i']);
  });

  it('rendering in pieces gives the same HTML as rendering the whole, wherever the text is cut', () => {
    const whole = renderWhole(SAMPLE);
    for (let seed = 1; seed <= 60; seed++) {
      const next = random(seed);
      const cuts: number[] = [];
      for (let at = 0; at < SAMPLE.length; at += 1 + Math.floor(next() * 12)) {
        cuts.push(at);
      }
      assert.equal(renderStreamed(SAMPLE, cuts), whole, `seed ${seed}`);
    }
  });

  it('one character at a time gives the same HTML too', () => {
    assert.equal(renderStreamed(SAMPLE, everyChar(SAMPLE)), renderWhole(SAMPLE));
  });

  it('shows raw HTML as text and turns images into click-to-load placeholders', () => {
    const html = renderBlocks(
      lexBlocks('<script>alert(1)</script>\n\n![pic](https://x.example/p.png)', newLinkMap()),
      newLinkMap(),
    );
    assert.ok(!html.includes('<script>'), html);
    assert.match(html, /&#60;script&#62;/);
    assert.ok(!html.includes('<img'), html);
    assert.match(html, /class="image-placeholder" data-src="https:\/\/x\.example\/p\.png"/);
  });

  it('normalises CRLF and lone CR', () => {
    assert.equal(normaliseNewlines('a\r\nb\rc\n'), 'a\nb\nc\n');
    assert.equal(normaliseNewlines('plain'), 'plain');
  });
});
