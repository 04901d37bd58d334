import * as assert from 'node:assert/strict';
import {
  findInText,
  literalPattern,
  queryProblem,
  SEARCH_LINE_CHARS,
  SEARCH_MAX_MATCHES,
} from '../../../../../src/core/chat/tools/textSearch';
import { searchResult } from '../../../../../src/core/chat/tools/workspaceResults';
import { assertGrowth } from '../../../../support/growth';

const find = (text: string, query: string, max = SEARCH_MAX_MATCHES) => findInText(text, literalPattern(query), max);

describe('chat tools: searching text', () => {
  it('finds a literal text without regard to case, with its 1-based line', () => {
    const { matches, more } = find('alpha\nBeta gamma\nbeta\n\nBETA!', 'beta');
    assert.deepEqual(matches, [
      { line: 2, text: 'Beta gamma' },
      { line: 3, text: 'beta' },
      { line: 5, text: 'BETA!' },
    ]);
    assert.equal(more, false);
  });

  it('takes the query literally: pattern characters match themselves', () => {
    assert.deepEqual(
      find('a.b\naxb\n(x+)*\n', 'a.b').matches.map((m) => m.line),
      [1],
    );
    assert.deepEqual(
      find('a.b\naxb\n(x+)*\n', '(x+)*').matches.map((m) => m.line),
      [3],
    );
    assert.deepEqual(find('x/-y', '/-').matches.length, 1);
  });

  it('lists a line once however often it holds the text, and stops at the cap saying there were more', () => {
    const text = 'foo foo foo\n'.repeat(100);
    const { matches, more } = find(text, 'foo', 50);
    assert.equal(matches.length, 50);
    assert.equal(matches[49].line, 50);
    assert.equal(more, true);
  });

  it(`cuts a long line to ${SEARCH_LINE_CHARS} characters around the match`, () => {
    const line = `${'a'.repeat(5000)}NEEDLE${'b'.repeat(5000)}`;
    const [match] = find(`x\n${line}\n`, 'needle').matches;
    assert.equal(match.line, 2);
    assert.ok(match.text.length <= SEARCH_LINE_CHARS + 2, String(match.text.length));
    assert.match(match.text, /^…a+NEEDLEb+…$/);
  });

  it('refuses an empty query, a long one and one of two lines', () => {
    assert.match(queryProblem(undefined) ?? '', /non-empty "query"/);
    assert.match(queryProblem('x'.repeat(201)) ?? '', /201 characters/);
    assert.match(queryProblem('a\nb') ?? '', /one line/);
    assert.equal(queryProblem('a b'), undefined);
  });

  it('formats matches as path:line: text and says what stopped the search', () => {
    const text = searchResult('foo', [{ file: 'src/a.ts', matches: [{ line: 3, text: 'const foo = 1;' }] }], {
      searched: 4,
      skipped: 1,
      capped: true,
    });
    assert.match(text, /^1 lines hold "foo" \(case ignored\) in 4 files searched:$/m);
    assert.match(text, /^src\/a\.ts:3: const foo = 1;$/m);
    assert.match(text, /cap of matches/);
    assert.match(text, /1 files were not searched/);
  });

  it('searches linearly: many matches, one long line full of near misses, many lines', () => {
    assertGrowth(
      'findInText, a match on every line',
      (n) => 'xx foo\n'.repeat(n),
      (t) => find(t, 'foo', 1e9),
      // 40,000 matches at 8n: at 160,000 the matches' own garbage once pushed linear work past the factor in a
      // full unit run; a reader that counted lines from the start for each match would still take seconds here.
      { n: 5_000 },
    );
    assertGrowth(
      'findInText, near misses on one line',
      (n) => 'aaaaaaaaab'.repeat(n),
      (t) => find(t, `${'a'.repeat(150)}c`),
      {
        n: 5_000,
      },
    );
    assertGrowth(
      'findInText, one long matching line',
      (n) => `${'foo '.repeat(n)}\n`,
      (t) => find(t, 'foo', 1e9),
      {
        n: 20_000,
      },
    );
  });
});
