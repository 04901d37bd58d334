import * as assert from 'node:assert/strict';
import {
  definitionsOf,
  lexBlocks,
  normaliseNewlines,
  renderBlocks,
  splitFinished,
} from '../../src/webview/chat/markdownBlocks';

/** Renders a text the way the stream renderer does when it arrives in `cuts` pieces: finished blocks once, then the rest. */
function renderIncrementally(text: string, cuts: number[]): string {
  let finishedEnd = 0;
  let html = '';
  let links = {};
  for (const cut of [...cuts, text.length]) {
    const tail = text.slice(finishedEnd, cut);
    const tokens = lexBlocks(tail, links);
    const split = splitFinished(tokens);
    links = { ...definitionsOf(split.finished), ...links };
    html += renderBlocks(split.finished, links);
    finishedEnd += split.finishedLength;
  }
  const rest = lexBlocks(text.slice(finishedEnd), links);
  return html + renderBlocks(rest, { ...links, ...rest.links });
}

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

/** A deterministic pseudo-random sequence. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('chat webview: finished Markdown blocks', () => {
  it('the tokens of a text cover every character of it', () => {
    const tokens = lexBlocks(SAMPLE, {});
    assert.equal(
      tokens.reduce((sum, t) => sum + t.raw.length, 0),
      SAMPLE.length,
    );
  });

  it('keeps only the last block live', () => {
    const split = splitFinished(lexBlocks('# A\n\npara\n\n- item', {}));
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

  it('rendering in pieces gives the same HTML as rendering the whole, wherever the text is cut', () => {
    const whole = renderBlocks(lexBlocks(SAMPLE, {}), lexBlocks(SAMPLE, {}).links);
    for (let seed = 1; seed <= 60; seed++) {
      const next = random(seed);
      const cuts: number[] = [];
      for (let at = 0; at < SAMPLE.length; at += 1 + Math.floor(next() * 12)) {
        cuts.push(at);
      }
      assert.equal(renderIncrementally(SAMPLE, cuts), whole, `seed ${seed}`);
    }
  });

  it('one character at a time gives the same HTML too', () => {
    const whole = renderBlocks(lexBlocks(SAMPLE, {}), lexBlocks(SAMPLE, {}).links);
    const cuts = Array.from({ length: SAMPLE.length }, (_, i) => i);
    assert.equal(renderIncrementally(SAMPLE, cuts), whole);
  });

  it('shows raw HTML as text and turns images into click-to-load placeholders', () => {
    const html = renderBlocks(lexBlocks('<script>alert(1)</script>\n\n![pic](https://x.example/p.png)', {}), {});
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
