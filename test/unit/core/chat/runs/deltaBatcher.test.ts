import * as assert from 'node:assert/strict';
import { DeltaBatcher } from '../../../../../src/core/chat/runs/deltaBatcher';
import { fakeTimers } from '../../../../support/fakeTimers';

describe('chat: deltas joined for the pages (src/core/chat/runs/deltaBatcher)', () => {
  it('sends the first delta at once, joins those within the interval, and stops its timer when idle', () => {
    const timers = fakeTimers();
    const sent: [number, string][] = [];
    const batcher = new DeltaBatcher((id, text) => sent.push([id, text]), 32, timers);
    batcher.add(1, 'Hel');
    assert.deepEqual(sent, [[1, 'Hel']], 'the first token is not held back');
    batcher.add(1, 'lo');
    batcher.add(1, ', ');
    batcher.add(1, 'world');
    assert.equal(sent.length, 1);
    timers.advance(32);
    assert.deepEqual(sent, [
      [1, 'Hel'],
      [1, 'lo, world'],
    ]);
    timers.advance(32);
    assert.equal(sent.length, 2, 'nothing held: nothing sent');
    assert.equal(timers.pending(), 0, 'no timer runs while no delta comes');
    batcher.add(1, '!');
    assert.deepEqual(sent.at(-1), [1, '!'], 'after a pause, at once again');
  });

  it('flush sends what is held before another message, and a new reply never joins the last one', () => {
    const timers = fakeTimers();
    const sent: [number, string][] = [];
    const batcher = new DeltaBatcher((id, text) => sent.push([id, text]), 32, timers);
    batcher.add(1, 'a');
    batcher.add(1, 'b');
    batcher.flush();
    assert.deepEqual(sent, [
      [1, 'a'],
      [1, 'b'],
    ]);
    batcher.add(1, 'c');
    batcher.add(2, 'x');
    assert.deepEqual(sent.slice(2), [[1, 'c']], "reply 1's held text goes before reply 2's");
    timers.advance(32);
    assert.deepEqual(sent.slice(3), [[2, 'x']]);
    batcher.flush();
    assert.equal(sent.length, 4, 'a flush with nothing held sends nothing');
    // 10,000 one-character deltas over 250 ms: at most one message per interval, the text whole and in order.
    const many: [number, string][] = [];
    const fast = new DeltaBatcher((id, text) => many.push([id, text]), 32, timers);
    let text = '';
    for (let i = 0; i < 10_000; i++) {
      const c = String.fromCharCode(97 + (i % 26));
      text += c;
      fast.add(3, c);
      if (i % 40 === 39) {
        timers.advance(1);
      }
    }
    fast.flush();
    assert.equal(many.map(([, t]) => t).join(''), text);
    assert.ok(many.length <= 250 / 32 + 3, `${many.length} messages`);
    timers.advance(1);
    fast.add(3, 'now');
    fast.add(3, 'late');
    const count = many.length;
    fast.dispose();
    timers.advance(100);
    assert.equal(many.length, count, 'what is held when disposed is not sent');
  });
});
