import * as assert from 'node:assert/strict';
import { assertGrowth, assertGrowthAsync } from '../../support/growth';

/** Quadratic work on a string: for each character, a scan of everything before it (the stall growth tests catch). */
function quadratic(text: string): number {
  let hits = 0;
  for (let i = 0; i < text.length; i++) {
    hits += text.lastIndexOf(text[i], i - 1) >= 0 ? 1 : 0;
    for (let j = 0; j < i; j += 1) {
      hits += text.charCodeAt(j) & 1;
    }
  }
  return hits;
}

/** Linear work on the same string (ten passes, so its time at 8n is well above the floor and the growth is judged). */
function linear(text: string): number {
  let hits = 0;
  for (let pass = 0; pass < 10; pass++) {
    for (let i = 0; i < text.length; i++) {
      hits += text.charCodeAt(i) & 1;
    }
  }
  return hits;
}

const make = (n: number) => 'ab'.repeat(n / 2);

describe('the growth test (test/support/growth.ts)', function () {
  this.timeout(60_000);

  it('passes linear work and fails quadratic work, saying how much it grew', () => {
    const growth = assertGrowth('linear', make, linear, { n: 400_000 });
    assert.ok(growth.largeMs > 25, `linear work took ${growth.largeMs} ms at 8n: too little to judge its growth`);
    // n = 2,500: at 1,000 (0.75 and 59 ms) it once did not fail in a full run, and at 2,000 (10 and 412 ms, a growth
    // of 40, on a busy machine) the awaited one below once did not either: a few milliseconds more at n (another
    // thread's work, which the process's CPU time counts) take so short a run's growth under 32.
    assert.throws(
      () => assertGrowth('quadratic', make, quadratic, { n: 2_500, maxMs: 60_000, largeRounds: 1 }),
      /quadratic: .* ms at n=2500, .* ms at 8n: grew \d+(\.\d)? times \(at most 32\)/,
    );
  });

  it('fails work over its bound at 8n whatever the growth', () => {
    assert.throws(() => assertGrowth('slow', make, quadratic, { n: 1_000, maxMs: 1 }), /over the 1 ms bound/);
  });

  it('measures a reader that returns a promise by its awaited work', async () => {
    const later = async (text: string) => {
      await Promise.resolve();
      return quadratic(text);
    };
    await assertGrowthAsync('linear, awaited', make, async (text) => linear(text), { n: 400_000 });
    await assert.rejects(
      assertGrowthAsync('quadratic, awaited', make, later, { n: 2_500, maxMs: 60_000, largeRounds: 1 }),
      /quadratic, awaited: .* grew/,
    );
  });
});
