import * as assert from 'node:assert/strict';
import type { StepView } from '../../../../src/protocol/chatProtocol';
import {
  clampOffset,
  replyParts,
  spokenTitle,
  StepAnnouncements,
  StepTrack,
  titleParts,
  type ReplyPart,
} from '../../../../src/webview/chat/messages/steps/stepParts';
import { usageText } from '../../../../src/webview/chat/messages/usageText';
import { toolAccessLabel } from '../../../../src/webview/chat/composer/toolAccessLevels';
import { assertGrowth } from '../../../support/growth';

/** A step at `offset`, running unless said. */
const step = (id: string, offset: number, more: Partial<StepView> = {}): StepView => ({
  id,
  tool: 'read_file',
  title: `Read \`${id}.ts\``,
  status: 'running',
  offset,
  ...more,
});

/** Parts as short strings: text as its characters of `text`, a step as `[id]`. */
function show(text: string, parts: readonly ReplyPart[]): string[] {
  return parts.map((p) => (p.kind === 'step' ? `[${p.step.id}]` : text.slice(p.start, p.end)));
}

/**
 * What a streaming reply does (replyBody.ts, without the DOM): text arrives in pieces, steps between them; a placement
 * cuts the live (last) text part, or lays the reply out again, or updates a step in place.
 */
function streamed(pieces: readonly (string | StepView)[]): { text: string; parts: ReplyPart[]; placements: string[] } {
  const track = new StepTrack();
  let text = '';
  let parts: ReplyPart[] = [{ kind: 'text', start: 0, end: 0 }];
  const steps: StepView[] = [];
  const placements: string[] = [];
  for (const piece of pieces) {
    if (typeof piece === 'string') {
      text += piece;
      const live = parts.at(-1) as Extract<ReplyPart, { kind: 'text' }>;
      live.end = text.length;
      continue;
    }
    const placement = track.place(piece, text.length);
    placements.push(placement.kind);
    const known = steps.findIndex((s) => s.id === piece.id);
    if (known >= 0) {
      steps[known] = piece;
    } else {
      steps.push(piece);
    }
    if (placement.kind === 'update') {
      parts = parts.map((p) => (p.kind === 'step' && p.step.id === piece.id ? { kind: 'step', step: piece } : p));
    } else if (placement.kind === 'layout') {
      parts = replyParts(text.length, steps);
    } else {
      const live = parts.pop() as Extract<ReplyPart, { kind: 'text' }>;
      if (placement.at > live.start) {
        parts.push({ kind: 'text', start: live.start, end: placement.at });
      }
      parts.push({ kind: 'step', step: piece }, { kind: 'text', start: placement.at, end: text.length });
    }
  }
  return { text, parts, placements };
}

describe('A reply’s steps, in order with its text', () => {
  const text = 'Let me look. The file says hello.';

  it('cuts the text at each step’s offset: at the start, in the middle, at the end, two at one offset', () => {
    const middle = 'Let me look.'.length;
    const parts = replyParts(text.length, [step('a', 0), step('b', middle), step('c', middle), step('d', text.length)]);
    assert.deepEqual(show(text, parts), [
      '[a]',
      'Let me look.',
      '[b]',
      '[c]',
      ' The file says hello.',
      '[d]',
      '', // the last text part is always there: a streaming reply's next text goes into it
    ]);
  });

  it('keeps the order of steps written at one offset, and puts steps given out of order where they belong', () => {
    const parts = replyParts(text.length, [step('late', 20), step('early', 3), step('also-early', 3)]);
    assert.deepEqual(show(text, parts), [
      'Let',
      '[early]',
      '[also-early]',
      ' me look. The fil',
      '[late]',
      'e says hello.',
    ]);
  });

  it('holds offsets within the text: past its end, negative, fractional or not a number', () => {
    assert.equal(clampOffset(99, 10), 10);
    assert.equal(clampOffset(-4, 10), 0);
    assert.equal(clampOffset(3.9, 10), 3);
    assert.equal(clampOffset(Number.NaN, 10), 0);
    assert.deepEqual(show('abc', replyParts(3, [step('x', 1e9)])), ['abc', '[x]', '']);
  });

  it('streams to the same order: a step cuts the live text, an update replaces its step, none redraws the rest', () => {
    const first = step('s1', 12);
    const {
      text: whole,
      parts,
      placements,
    } = streamed([
      'Let me look.',
      first,
      { ...first, status: 'done', result: 'hello' },
      ' The file',
      step('s2', 21),
      step('s3', 21),
      ' says hello.',
    ]);
    assert.deepEqual(placements, ['cut', 'update', 'cut', 'cut']);
    const final = [{ ...first, status: 'done' as const, result: 'hello' }, step('s2', 21), step('s3', 21)];
    assert.deepEqual(show(whole, parts), show(whole, replyParts(whole.length, final)));
    const updated = parts.find((p) => p.kind === 'step' && p.step.id === 's1');
    assert.equal(updated?.kind === 'step' && updated.step.result, 'hello', 'the update replaced the step');
  });

  it('cuts into text already shown when a step arrives after text written after it, and lays out only then', () => {
    // The step was written at 5, but 8 characters are shown: the live part is cut at 5.
    const cut = streamed(['Hello wo', step('a', 5), 'rld']);
    assert.deepEqual(cut.placements, ['cut']);
    assert.deepEqual(show(cut.text, cut.parts), ['Hello', '[a]', ' world']);
    // A step before the last step's offset is out of order: the reply is laid out again, once.
    const out = streamed(['Hello world', step('b', 11), step('a', 5), '!']);
    assert.deepEqual(out.placements, ['cut', 'layout']);
    assert.deepEqual(show(out.text, out.parts), ['Hello', '[a]', ' world', '[b]', '!']);
  });

  it('marks a title’s backticked code, leaves a lone backtick as text and never reads markup', () => {
    assert.deepEqual(titleParts('Read `src/app.ts`, lines 1–120'), [
      { text: 'Read ', code: false },
      { text: 'src/app.ts', code: true },
      { text: ', lines 1–120', code: false },
    ]);
    assert.deepEqual(titleParts('Search `` for `x` and `y'), [
      { text: 'Search ', code: false },
      { text: ' for ', code: false },
      { text: 'x', code: true },
      { text: ' and `y', code: false },
    ]);
    const hostile = 'Read `<img src=x onerror=alert(1)>`';
    assert.deepEqual(titleParts(hostile)[1], { text: '<img src=x onerror=alert(1)>', code: true });
    assert.equal(spokenTitle('Looked up `Alan Turing` in AXO'), 'Looked up Alan Turing in AXO');
  });
});

describe('What a screen reader is told of a reply’s steps', () => {
  it('each step once, when first seen, by its title; none of its updates', () => {
    const said = new StepAnnouncements();
    const reading = step('s1', 0, { title: 'Reading `src/app.ts`' });
    assert.equal(said.next(reading, 'firstSentence'), 'Reading src/app.ts');
    assert.equal(said.next({ ...reading, status: 'done', title: 'Read `src/app.ts`, lines 1–9' }, 'whole'), undefined);
    assert.equal(said.next(step('s2', 3), 'whole'), 'Read s2.ts');
    said.reset();
    assert.equal(said.next(reading, 'firstSentence'), 'Reading src/app.ts', 'a new reply: its steps are new');
  });

  it('says nothing of steps when only a reply’s start and end are to be said', () => {
    const said = new StepAnnouncements();
    assert.equal(said.next(step('s1', 0), 'startAndEnd'), undefined);
  });
});

describe('The reply’s footer and the composer’s control', () => {
  const usage = { input: 1234, output: 56, reported: false };

  it('says how many requests a reply took when it took more than one', () => {
    assert.equal(usageText(usage, 3), '≈ 1,234 tokens in, 56 out (estimated) · 3 requests');
    assert.equal(
      usageText({ ...usage, costInr: 0.5 }, 2),
      '≈ 1,234 tokens in, 56 out (estimated) · 2 requests · ≈ ₹0.50',
    );
    assert.equal(usageText(usage, 1), '≈ 1,234 tokens in, 56 out (estimated)');
    assert.equal(usageText(usage), '≈ 1,234 tokens in, 56 out (estimated)');
    assert.equal(usageText(usage, Number.NaN), '≈ 1,234 tokens in, 56 out (estimated)');
  });

  it('names each level of what ALPHA may use', () => {
    assert.deepEqual((['none', 'axo', 'read', 'edit'] as const).map(toolAccessLabel), [
      'Nothing',
      'AXO',
      'AXO and reading',
      'AXO, reading and edits',
    ]);
  });
});

describe('A reply with many steps is laid out in linear time', function () {
  this.timeout(60_000);

  it('steps in order, out of order and at one offset; a streamed reply’s steps; a title of backticks', () => {
    // Sizes at which a run takes some milliseconds: shorter runs measured the young generation's collections more than
    // the work (a linear layout grew 45 times from 2,000 steps to 16,000 there). Quadratic work at 8n takes seconds.
    const GROWTH = { n: 10_000, rounds: 5, maxMs: 1_500 };
    const many = (n: number, offset: (i: number) => number) =>
      Array.from({ length: n }, (_, i) => step(`s${i}`, offset(i)));
    assertGrowth(
      'steps in order',
      (n) => many(n, (i) => i * 10),
      (s) => replyParts(s.length * 10, s),
      GROWTH,
    );
    // Reversed: the steps are sorted, n log n (about 10 times from n to 8n), and the sort's copy adds collections of
    // the young generation: 33.6 times was measured once on a loaded machine. Quadratic work grows 64 times.
    assertGrowth(
      'steps in reverse',
      (n) => many(n, (i) => (n - i) * 10),
      (s) => replyParts(s.length * 10, s),
      // Four times the steps: at 10,000 the sort took about a millisecond, and one young-generation collection
      // more at 8n made it grow 42 times once.
      { ...GROWTH, n: 40_000, factor: 40 },
    );
    assertGrowth(
      'steps at one offset',
      (n) => many(n, () => 5),
      (s) => replyParts(10, s),
      GROWTH,
    );
    assertGrowth(
      'a streamed reply: text, a step, its update',
      (n) => many(n, (i) => i * 4),
      (steps) => {
        const track = new StepTrack();
        let received = 0;
        for (const s of steps) {
          received += 4;
          track.place(s, received);
          track.place({ ...s, status: 'done' }, received);
        }
      },
      GROWTH,
    );
    assertGrowth('a title of backticks', (n) => 'a`'.repeat(4 * n), titleParts, GROWTH);
    assertGrowth('a title with one backtick', (n) => `\`${'a'.repeat(4 * n)}`, titleParts, GROWTH);
  });
});
