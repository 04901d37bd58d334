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
  /**
   * Rounds at 8n (default `rounds`). A test that expects the growth to fail needs one: a stall there only makes the
   * growth larger, while a stall at n makes it smaller, so n keeps its rounds.
   */
  largeRounds?: number;
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
 * CPU time of `work` in ms (the process's user and system time), not the wall clock: on a busy machine a run shorter
 * than the scheduler's slice is seldom interrupted and a longer one always is, so wall-clock times of a linear reader
 * grew 20 to 75 times from n to 8n (load average 17–28 on 2 cores) where its CPU time grew 2 to 9 times.
 */
function cpuMs(work: () => unknown): number {
  const started = process.cpuUsage();
  work();
  const used = process.cpuUsage(started);
  return (used.user + used.system) / 1000;
}

/** CPU time of one awaited run of `work`, in ms (its promise jobs included). */
async function cpuMsAsync(work: () => Promise<unknown>): Promise<number> {
  const started = process.cpuUsage();
  await work();
  const used = process.cpuUsage(started);
  return (used.user + used.system) / 1000;
}

const growthOf = (smallMs: number, largeMs: number): Growth => ({
  smallMs,
  largeMs,
  ratio: largeMs / Math.max(smallMs, 0.05),
});

/** Times `run` on `make(n)` and `make(8n)`: the best of `rounds` runs at each size (after one warm-up run). */
export function measureGrowth<T>(make: (n: number) => T, run: (input: T) => unknown, options: GrowthOptions): Growth {
  const rounds = options.rounds ?? 3;
  const small = make(options.n);
  const large = make(8 * options.n);
  run(small);
  let smallMs = Infinity;
  let largeMs = Infinity;
  for (let i = 0; i < rounds; i++) {
    smallMs = Math.min(
      smallMs,
      cpuMs(() => run(small)),
    );
  }
  for (let i = 0; i < (options.largeRounds ?? rounds); i++) {
    largeMs = Math.min(
      largeMs,
      cpuMs(() => run(large)),
    );
  }
  return growthOf(smallMs, largeMs);
}

/**
 * `measureGrowth` for a reader that returns a promise: its work runs in the promise jobs its awaits queue, after
 * `run` returns, so each run is awaited. Feed it bodies that are arrays behind an async iterable (no timers), so a
 * whole read is one run of those jobs.
 */
export async function measureGrowthAsync<T>(
  make: (n: number) => T,
  run: (input: T) => Promise<unknown>,
  options: GrowthOptions,
): Promise<Growth> {
  const rounds = options.rounds ?? 3;
  const small = make(options.n);
  const large = make(8 * options.n);
  await run(small);
  let smallMs = Infinity;
  let largeMs = Infinity;
  for (let i = 0; i < rounds; i++) {
    smallMs = Math.min(smallMs, await cpuMsAsync(() => run(small)));
  }
  for (let i = 0; i < (options.largeRounds ?? rounds); i++) {
    largeMs = Math.min(largeMs, await cpuMsAsync(() => run(large)));
  }
  return growthOf(smallMs, largeMs);
}

/** The options' bounds, a missing (or undefined) one at its default. */
function bounds(options: GrowthOptions): { factor: number; floorMs: number; maxMs: number } {
  return { factor: options.factor ?? 32, floorMs: options.floorMs ?? 25, maxMs: options.maxMs ?? 2_000 };
}

/** Whether a first measure fails: it is then measured once more before the test fails. */
function failsFirst(growth: Growth, options: GrowthOptions): boolean {
  const { factor, floorMs, maxMs } = bounds(options);
  return growth.largeMs > maxMs || (growth.largeMs > floorMs && growth.ratio > factor);
}

// A collection or a busy core that slowed the first measure rarely strikes both, while work that really grows
// faster than the factor fails again: each size keeps its best of both measures.
const bestOf = (a: Growth, b: Growth): Growth =>
  growthOf(Math.min(a.smallMs, b.smallMs), Math.min(a.largeMs, b.largeMs));

function judge(name: string, growth: Growth, options: GrowthOptions): Growth {
  const { factor, floorMs, maxMs } = bounds(options);
  const said = `${name}: ${growth.smallMs.toFixed(1)} ms at n=${options.n}, ${growth.largeMs.toFixed(1)} ms at 8n`;
  assert.ok(growth.largeMs <= maxMs, `${said}: over the ${maxMs} ms bound`);
  if (growth.largeMs > floorMs) {
    assert.ok(growth.ratio <= factor, `${said}: grew ${growth.ratio.toFixed(1)} times (at most ${factor})`);
  }
  return growth;
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
  const growth = measureGrowth(make, run, options);
  const twice = { ...options, rounds: 2 * (options.rounds ?? 3) };
  return judge(name, failsFirst(growth, options) ? bestOf(growth, measureGrowth(make, run, twice)) : growth, options);
}

/** `assertGrowth` for a reader that returns a promise (see `measureGrowthAsync`). */
export async function assertGrowthAsync<T>(
  name: string,
  make: (n: number) => T,
  run: (input: T) => Promise<unknown>,
  options: GrowthOptions,
): Promise<Growth> {
  const growth = await measureGrowthAsync(make, run, options);
  const twice = { ...options, rounds: 2 * (options.rounds ?? 3) };
  return judge(
    name,
    failsFirst(growth, options) ? bestOf(growth, await measureGrowthAsync(make, run, twice)) : growth,
    options,
  );
}
