import * as assert from 'node:assert/strict';
import {
  applyPieces,
  changedSpan,
  MAX_EDIT_PIECES,
  readPieces,
  type ChangedSpan,
} from '../../../../../src/core/chat/tools/editPieces';
import { assertGrowth } from '../../../../support/growth';

function applied(text: string, pieces: { search: string; replace: string }[]): string {
  const result = applyPieces(text, pieces);
  assert.ok('text' in result, 'problem' in result ? result.problem : '');
  return result.text;
}

function refused(text: string, pieces: { search: string; replace: string }[]): string {
  const result = applyPieces(text, pieces);
  assert.ok('problem' in result, 'the pieces were applied');
  return result.problem;
}

describe('chat tools: the pieces of a proposed change', () => {
  it('replaces each search text, in order, in what the pieces before left', () => {
    assert.equal(
      applied('one\ntwo\nthree\n', [
        { search: 'two', replace: '2' },
        { search: '2\nthree', replace: 'two and three' },
      ]),
      'one\ntwo and three\n',
    );
  });

  it('refuses a search text that is missing, or occurs twice (overlapping too), naming the piece', () => {
    assert.match(refused('abc', [{ search: 'x', replace: 'y' }]), /^Edit 1: its search text is not in the file/);
    assert.match(
      refused('a b a', [
        { search: 'b', replace: 'B' },
        { search: 'a', replace: 'A' },
      ]),
      /^Edit 2: its search text occurs more than once/,
    );
    assert.match(refused('aaa', [{ search: 'aa', replace: 'b' }]), /more than once/);
  });

  it('refuses pieces that change nothing', () => {
    assert.match(refused('abc', [{ search: 'b', replace: 'b' }]), /change nothing/);
  });

  it('takes pieces written with \\n in a file with \\r\\n line ends, keeping \\r\\n', () => {
    assert.equal(applied('a\r\nb\r\nc\r\n', [{ search: 'a\nb', replace: 'x\ny' }]), 'x\r\ny\r\nc\r\n');
  });

  it('checks the shape of the pieces', () => {
    assert.ok('problem' in readPieces([]));
    assert.ok('problem' in readPieces('x'));
    assert.match(
      (readPieces([{ search: '', replace: 'x' }]) as { problem: string }).problem,
      /Edit 1 needs a non-empty "search"/,
    );
    assert.match(
      (readPieces(Array(MAX_EDIT_PIECES + 1).fill({ search: 'a', replace: 'b' })) as { problem: string }).problem,
      /at most 50/,
    );
    assert.deepEqual(readPieces([{ search: 'a', replace: '' }]), { pieces: [{ search: 'a', replace: '' }] });
  });

  it('applies in linear time: a long file and a search text that almost matches everywhere', () => {
    assertGrowth(
      'applyPieces, near misses',
      (n) => ({ text: 'a'.repeat(n * 10), pieces: [{ search: `${'a'.repeat(100)}b`, replace: 'c' }] }),
      ({ text, pieces }) => applyPieces(text, pieces),
      { n: 20_000 },
    );
  });
});

describe('chat tools: the lines a proposed change touches', () => {
  const apply = (before: string, span: ChangedSpan) =>
    before.slice(0, span.start) + span.replacement + before.slice(span.end);

  for (const [name, before, after, touched] of [
    ['one word in a middle line', 'a\nbob\nc\n', 'a\nbib\nc\n', 'bob'],
    ['a line added at the end', 'a\nb\n', 'a\nb\nc\n', ''],
    ['the first line', 'x\ny\n', 'z\ny\n', 'x'],
    ['CRLF lines', 'a\r\nbob\r\nc\r\n', 'a\r\nbib\r\nc\r\n', 'bob'],
    ['everything', 'abc', 'xyz', 'abc'],
    ['a repeated line removed', 'a\na\na\n', 'a\na\n', 'a\n'],
  ] as const) {
    it(`covers whole lines and rebuilds the new text: ${name}`, () => {
      const span = changedSpan(before, after);
      assert.equal(apply(before, span), after);
      assert.equal(before.slice(span.start, span.end), touched);
      assert.ok(span.start === 0 || before[span.start - 1] === '\n');
    });
  }

  it('is linear in the file: one change in the middle of a long file', () => {
    assertGrowth(
      'changedSpan',
      (n) => ({
        before: 'line\n'.repeat(n) + 'old\n' + 'line\n'.repeat(n),
        after: 'line\n'.repeat(n) + 'new\n' + 'line\n'.repeat(n),
      }),
      ({ before, after }) => changedSpan(before, after),
      { n: 40_000 },
    );
  });
});
