import * as assert from 'node:assert/strict';
import {
  findResult,
  FIND_MAX_PATHS,
  problemsResult,
  PROBLEMS_MAX,
  type ProblemLine,
} from '../../../../../src/core/chat/tools/workspaceResults';
import { assertGrowth } from '../../../../support/growth';

describe('chat tools: the results of find and problems', () => {
  it(`lists at most ${FIND_MAX_PATHS} paths and how many more there were`, () => {
    const paths = Array.from({ length: 250 }, (_, i) => `src/f${i}.ts`);
    const text = findResult('src/**', paths);
    assert.match(text, /^250 files match src\/\*\*:$/m);
    assert.ok(text.includes('src/f199.ts'));
    assert.ok(!text.includes('src/f200.ts'));
    assert.match(text, /… and 50 more not listed/);
    assert.match(findResult('*.none', []), /No file of the workspace matches/);
  });

  it(`lists at most ${PROBLEMS_MAX} problems, errors first, each on one bounded line`, () => {
    const problem = (i: number, severity: ProblemLine['severity']): ProblemLine => ({
      file: 'a.ts',
      line: i,
      column: 1,
      severity,
      message: `bad\nthing ${'x'.repeat(1000)}`,
      source: 'ts',
      code: '2322',
    });
    const problems = [
      ...Array.from({ length: 80 }, (_, i) => problem(i + 1, 'warning')),
      ...Array.from({ length: 40 }, (_, i) => problem(i + 1, 'error')),
    ];
    const text = problemsResult('the workspace', problems);
    const rows = text.split('\n').filter((l) => l.startsWith('a.ts:'));
    assert.equal(rows.length, PROBLEMS_MAX);
    assert.match(rows[0], /^a\.ts:1:1 error: bad thing x+… \(ts 2322\)$/);
    assert.ok(rows.every((r) => r.length < 400));
    assert.match(text, /… and 20 more not listed/);
    assert.match(problemsResult('a.ts', []), /no problems in a\.ts/);
  });

  it('formats problems linearly in their number and size', () => {
    assertGrowth(
      'problemsResult',
      (n) =>
        Array.from({ length: n }, (_, i): ProblemLine => ({
          file: 'a.ts',
          line: i,
          column: 1,
          severity: i % 2 ? 'error' : 'hint',
          message: 'm '.repeat(50),
        })),
      (problems) => problemsResult('w', problems),
      { n: 5_000, factor: 40 },
    );
  });
});
