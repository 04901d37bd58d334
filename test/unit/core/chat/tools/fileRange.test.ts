import * as assert from 'node:assert/strict';
import {
  countLines,
  READ_MAX_CHARS,
  READ_MAX_LINES,
  readResult,
  sliceLines,
  WORKSPACE_FRAME,
  type LineSlice,
} from '../../../../../src/core/chat/tools/fileRange';
import { assertGrowth } from '../../../../support/growth';

const lines = (n: number, make = (i: number) => `line ${i}`) =>
  Array.from({ length: n }, (_, i) => make(i + 1)).join('\n') + '\n';

function slice(text: string, start?: number, end?: number): LineSlice {
  const result = sliceLines(text, start, end);
  assert.ok(!('problem' in result), 'problem' in result ? result.problem : '');
  return result;
}

describe('chat tools: reading a range of lines', () => {
  it('counts lines as an editor does: a final line end starts no line', () => {
    assert.equal(countLines(''), 0);
    assert.equal(countLines('a'), 1);
    assert.equal(countLines('a\n'), 1);
    assert.equal(countLines('a\nb'), 2);
    assert.equal(countLines('a\r\nb\r\n'), 2);
  });

  it('reads lines a to b (1-based, inclusive) and says of how many', () => {
    const s = slice(lines(10), 3, 5);
    assert.deepEqual([s.first, s.last, s.total], [3, 5, 10]);
    assert.equal(s.text, 'line 3\nline 4\nline 5');
    assert.match(readResult('src/a.ts', s, 'ts'), /^src\/a\.ts, lines 3–5 of 10:$/m);
  });

  it('clamps: a start before 1, an end past the file, an end before the start, no range at all', () => {
    const text = lines(10);
    assert.deepEqual(pick(slice(text, 0, 99)), [1, 10]);
    assert.deepEqual(pick(slice(text, 7, 2)), [7, 7]);
    assert.deepEqual(pick(slice(text)), [1, 10]);
    assert.deepEqual(pick(slice(text, 10)), [10, 10]);
  });

  it('refuses a start past the end with the number of lines, and an empty file', () => {
    const past = sliceLines(lines(10), 11, 12);
    assert.ok('problem' in past);
    assert.match(past.problem, /has 10 lines; line 11 is past its end/);
    assert.ok('problem' in sliceLines('', 1, 1));
  });

  it(`returns at most ${READ_MAX_LINES} lines and says where to read on`, () => {
    const s = slice(lines(1000), 1, 1000);
    assert.deepEqual(pick(s), [1, READ_MAX_LINES]);
    const text = readResult('big.txt', s, undefined, 1000);
    assert.match(text, /lines 1–400 of 1000/);
    assert.match(text, /Lines 401–1000 were not read .* start_line 401/);
  });

  it(`returns at most ${READ_MAX_CHARS} characters of whole lines, and cuts a single longer line`, () => {
    const s = slice(lines(100, () => 'x'.repeat(1000)));
    assert.ok(s.text.length <= READ_MAX_CHARS, String(s.text.length));
    assert.equal(s.last, 23, 'whole lines of 1,000 characters and their line ends');
    const long = slice(`${'y'.repeat(100_000)}\nshort\n`);
    assert.deepEqual(pick(long), [1, 1]);
    assert.equal(long.lineCut, true);
    assert.equal(long.text.length, READ_MAX_CHARS);
    assert.match(readResult('one.min.js', long, 'js'), /Line 1 is longer than 24000 characters/);
  });

  it('drops the \\r of CRLF line ends and fences the text with a fence longer than any inside', () => {
    const s = slice('a\r\n```\r\nb\r\n');
    assert.equal(s.text, 'a\n```\nb');
    const text = readResult('x.md', s, 'markdown');
    assert.ok(text.startsWith(WORKSPACE_FRAME));
    assert.match(text, /^````markdown$/m);
  });

  it('reads linearly: a file of n lines against 8n, and one long line', () => {
    assertGrowth(
      'sliceLines, many short lines',
      (n) => 'ab\n'.repeat(n),
      (t) => sliceLines(t, 5, 10_000_000),
      {
        n: 40_000,
      },
    );
    assertGrowth(
      'sliceLines, the last lines',
      (n) => ({ text: 'ab\n'.repeat(n), n }),
      (t) => sliceLines(t.text, t.n - 10, t.n),
      {
        n: 40_000,
      },
    );
  });
});

function pick(s: LineSlice): [number, number] {
  return [s.first, s.last];
}
