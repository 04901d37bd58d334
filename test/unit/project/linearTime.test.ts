import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { ESLint } from 'eslint';
import { StreamingCodeBlock, streamingCodeBlock } from '../../../src/core/assist/codeBlocks';
import { canTell } from '../../../src/core/net/bodyPeek';
import { messageFromBody } from '../../../src/core/service/httpErrors';
import { markdownMayHold } from '../../../src/webview/chat/panels/markdownMatch';
import { spokenText } from '../../../src/webview/chat/spokenReply';
import { repoRoot } from '../../support/repoRoot';

/** The fastest of `runs` runs of `work`, in ms; stops early once one run is under `enough` ms. */
function fastest(work: () => unknown, runs: number, enough = 0): number {
  let best = Infinity;
  for (let i = 0; i < runs && best > enough; i++) {
    const started = performance.now();
    work();
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

/** Generous for a busy machine, far below the seconds a super-linear pattern takes on these inputs. */
const BOUND_MS = 500;

/**
 * Asserts `run` grows linearly on `make(n)`: the time at 4n is at most 8 times the time at n (a quadratic pattern
 * takes 16 times), or under `BOUND_MS` at 4n. The fastest of a few runs, so a busy machine does not decide.
 */
function assertLinear(make: (n: number) => string, run: (text: string) => unknown, n: number): void {
  const small = make(n);
  const large = make(4 * n);
  const atLarge = fastest(() => run(large), 3, BOUND_MS);
  if (atLarge <= BOUND_MS) {
    return;
  }
  const atSmall = fastest(() => run(small), 5);
  assert.ok(
    atLarge <= 8 * Math.max(atSmall, 1),
    `${Math.round(atLarge)} ms at ${4 * n} characters, ${Math.round(atSmall)} ms at ${n}: not linear`,
  );
}

describe('Text from the service is read in linear time', function () {
  this.timeout(60_000);

  it('telling a body of blank lines from JSON lines (the peek at its start)', () => {
    // `x` and then only line ends: a second line never starts, and a pattern rescanned the run from each line end.
    assertLinear((n) => `{"a":1}${'\n'.repeat(n)}`, canTell, 16_000);
    assert.equal(canTell(`{"a":1}\n\n\n {"b":2}`), true);
    assert.equal(canTell(`{"a":1}\n\n\n   `), false);
  });

  it('a reply ending in thousands of blank lines, read aloud', () => {
    assertLinear((n) => `Done.${'\n'.repeat(n)}x`, spokenText, 750);
    assertLinear((n) => `# Title${' '.repeat(n)}x`, spokenText, 16_000);
    assertLinear((n) => '|'.repeat(n) + 'x', spokenText, 16_000);
    assertLinear((n) => '[a]('.repeat(n / 4), spokenText, 16_000);
    assertLinear((n) => '['.repeat(n), spokenText, 16_000);
    assert.equal(spokenText('See [the page](https://x.test/Foo_(bar)) now.'), 'See the page now.');
    assert.equal(spokenText('| a | b |\n| --- | :-: |\n| 1 | 2 |'), 'a b 1 2');
    assert.equal(spokenText('## Setup ##\n\n> quoted\n\n1. first'), 'Setup. quoted first');
  });

  it('searching sleeping sections full of link brackets', () => {
    assertLinear(
      (n) => ']('.repeat(n / 2),
      (text) => markdownMayHold(text, 'zebra'),
      16_000,
    );
    assert.equal(markdownMayHold('a [zeb](https://x.test/a_(b))**ra** c', 'zebra'), true);
  });

  it('an HTML error body of unclosed tags, titles and scripts', () => {
    const html = (n: number, part: string) => `<html>${part.repeat(Math.ceil(n / part.length))}`;
    for (const part of ['<', '<title>', '<script>', '<h1>']) {
      assertLinear(
        (n) => html(n, part),
        (text) => messageFromBody(text, 'text/html'),
        16_000,
      );
    }
    const page = '<html><head><style>p{}</style><title>Bad &amp; Gateway</title></head><body>x</body></html>';
    assert.equal(messageFromBody(page, 'text/html'), 'Bad & Gateway');
    const body = '<html><script>var a = "<b>";</script><p>Upstream <b>down</b></p><STYLE>x</STYLE>';
    assert.equal(messageFromBody(body, 'text/html'), 'Upstream down');
  });

  it('"Generate Tests" reads each delta of a streaming reply once', () => {
    // The reply as it grows, a line per delta; the code the editor ends with is the same as read whole.
    const reply = (n: number) => `Tests:\n\n\`\`\`ts\n${'expect(add(1, 2)).toBe(3);\n'.repeat(n)}\`\`\`\n`;
    const follow = (text: string) => {
      const growing = new StreamingCodeBlock('typescript');
      let code = '';
      for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) {
        const step = growing.update(text.slice(0, at + 1));
        code = step?.appended !== undefined ? code + step.appended : (step?.code ?? '');
      }
      return code;
    };
    assertLinear((n) => reply(n / 28), follow, 4_000 * 28);
    const whole = reply(50);
    assert.equal(follow(whole), streamingCodeBlock(whole, 'typescript')?.code);
    // A block of the file's language that comes later takes over from an untagged one.
    const growing = new StreamingCodeBlock('python');
    assert.deepEqual(growing.update('```\nx = 1\n'), { code: 'x = 1' });
    assert.deepEqual(growing.update('```\nx = 1\ny = 2\n'), { code: '', appended: '\ny = 2' });
    assert.deepEqual(growing.update('```\nx = 1\ny = 2\n```\n```python\nz = 3\n'), { code: 'z = 3' });
  });

  it('lint reports a super-linear pattern in src', async () => {
    const root = repoRoot;
    const eslint = new ESLint({ cwd: root });
    const code = "export const trimmed = (text: string) => text.replace(/\\s*,\\s*$/, '');\n";
    const [result] = await eslint.lintText(code, { filePath: path.join(root, 'src/core/service/baseUrl.ts') });
    const rules = result.messages.map((m) => m.ruleId);
    assert.ok(rules.includes('regexp/no-super-linear-move'), JSON.stringify(result.messages));
  });
});
