import * as assert from 'node:assert/strict';
import { pieceMatches } from '../../../../src/webview/chat/panels/markdownMatch';
import { assertGrowth } from '../../../support/growth';

describe('the find bar: where a query stands in a message’s text nodes', function () {
  this.timeout(60_000);

  it('finds matches across pieces, case-insensitively, and never across a block', () => {
    assert.deepEqual(pieceMatches(['The Zeb', 'ra ran'], [false, false], 'zebra'), [
      { first: 0, start: 4, last: 1, end: 2 },
    ]);
    assert.deepEqual(pieceMatches(['zeb', 'ra'], [false, true], 'zebra'), []);
    assert.deepEqual(pieceMatches(['aaaa'], [false], 'aa'), [
      { first: 0, start: 0, last: 0, end: 2 },
      { first: 0, start: 2, last: 0, end: 4 },
    ]);
    // A match ending where a piece ends stays in that piece.
    assert.deepEqual(pieceMatches(['ab', 'cd'], [false, false], 'ab'), [{ first: 0, start: 0, last: 0, end: 2 }]);
    assert.deepEqual(pieceMatches(['x'], [false], ''), []);
  });

  it('stops after the limit the find bar marks', () => {
    assert.equal(pieceMatches(['a'.repeat(50)], [false], 'a', 7).length, 7);
    assert.deepEqual(pieceMatches(['ab', 'ab'], [false, true], 'b', 1), [{ first: 0, start: 1, last: 0, end: 2 }]);
    assert.equal(pieceMatches(['aaa'], [false], 'a', 0).length, 0);
  });

  it('finds a query in many text nodes and in one long line in linear time', () => {
    const nodes = (n: number) => Array.from({ length: n }, (_, i) => (i % 7 === 0 ? 'ab' : 'a'));
    for (const [name, make, needle] of [
      ['many one-letter nodes', nodes, 'a'],
      ['many nodes, a query that almost matches everywhere', nodes, 'aaab'],
      // A query that almost matches at every letter of one line, 16n letters: the scan alone is measured (the node
      // cases make n match objects; one line with a match per letter grew 33 times in CI, its collector's work).
      ['one line without a break', (n: number) => ['a'.repeat(16 * n)], 'aaab'],
    ] as const) {
      assertGrowth(
        `the find bar, ${name}`,
        (n) => {
          const pieces = make(n);
          return { pieces, breaks: pieces.map((_, i) => i % 50 === 0) };
        },
        ({ pieces, breaks }) => pieceMatches(pieces, breaks, needle),
        { n: 20_000 },
      );
    }
  });
});
