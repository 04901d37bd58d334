import * as assert from 'node:assert/strict';

/** How a growth test is run and judged. */
export interface GrowthOptions {
  /** The smaller input's size; the larger one is `8 * n`. */
  n: number;
  /**
   * The most the time may grow from n to 8n. Linear work grows 8 times, n log n about 9–10 times, quadratic 64
   * times; a collection of the young generation that the larger input overflows can push linear work to 20–30 times
   * on a busy machine: 32 leaves room for that and still fails a quadratic reader by a factor of 2.
   */
  factor?: number;
  /** Rounds per size; the best round of each counts, so one stall of a busy machine does not decide. */
  rounds?: number;
  /** Below this time at 8n the growth is not judged (too small to measure); pick `n` so quadratic work passes it. */
  floorMs?: number;
  /** The most one run at 8n may take (CPU time, as all times here), whatever the growth: the bound a user would notice. */
  maxMs?: number;
}

/** What a growth test measured, for a message or a report. */
export interface Growth {
  smallMs: number;
  largeMs: number;
  ratio: number;
}

/**
 * The fastest of `rounds` runs of `work`, in ms of this process's CPU time, not the wall clock: on a busy machine a run
 * shorter than the scheduler's slice is seldom interrupted and a longer one always is, so wall-clock times of a linear
 * reader grew 20 to 75 times from n to 8n (load average 17–28 on 2 cores) where its CPU time grew 2 to 9 times.
 */
function best(work: () => unknown, rounds: number): number {
  let fastest = Infinity;
  for (let i = 0; i < rounds; i++) {
    const started = process.cpuUsage();
    work();
    const used = process.cpuUsage(started);
    fastest = Math.min(fastest, (used.user + used.system) / 1000);
  }
  return fastest;
}

/** Times `run` on `make(n)` and `make(8n)`: the best of `rounds` runs at each size (after one warm-up run). */
export function measureGrowth<T>(make: (n: number) => T, run: (input: T) => unknown, options: GrowthOptions): Growth {
  const rounds = options.rounds ?? 3;
  const small = make(options.n);
  const large = make(8 * options.n);
  run(small);
  const smallMs = best(() => run(small), rounds);
  const largeMs = best(() => run(large), rounds);
  return { smallMs, largeMs, ratio: largeMs / Math.max(smallMs, 0.05) };
}

/**
 * Fails when `run` grows by more than `factor` from `make(n)` to `make(8n)`, or when one run at 8n takes over
 * `maxMs`. A time at 8n under `floorMs` passes the growth check: choose `n` so that quadratic work on the
 * adversarial input is far above it (a quadratic reader at 8n takes 64 times its time at n).
 */
export function assertGrowth<T>(
  name: string,
  make: (n: number) => T,
  run: (input: T) => unknown,
  options: GrowthOptions,
): Growth {
  const { factor = 32, floorMs = 25, maxMs = 2_000 } = options;
  let growth = measureGrowth(make, run, options);
  if (growth.largeMs > maxMs || (growth.largeMs > floorMs && growth.ratio > factor)) {
    // Measured once more, with twice the rounds, keeping each size's best: a collection or a busy core that slowed
    // the first measure rarely strikes both, while work that really grows faster than the factor fails again.
    const again = measureGrowth(make, run, { ...options, rounds: 2 * (options.rounds ?? 3) });
    const smallMs = Math.min(growth.smallMs, again.smallMs);
    const largeMs = Math.min(growth.largeMs, again.largeMs);
    growth = { smallMs, largeMs, ratio: largeMs / Math.max(smallMs, 0.05) };
  }
  const said = `${name}: ${growth.smallMs.toFixed(1)} ms at n=${options.n}, ${growth.largeMs.toFixed(1)} ms at 8n`;
  assert.ok(growth.largeMs <= maxMs, `${said}: over the ${maxMs} ms bound`);
  if (growth.largeMs > floorMs) {
    assert.ok(growth.ratio <= factor, `${said}: grew ${growth.ratio.toFixed(1)} times (at most ${factor})`);
  }
  return growth;
}
