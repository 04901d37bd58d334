import { monitorEventLoopDelay } from 'node:perf_hooks';

/** One line of `npm run bench`. */
export interface BenchFigure {
  name: string;
  value: string;
  target?: string;
  pass?: boolean;
}

/** The median of a list of numbers. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The p-th percentile (0–100) of a list of numbers, nearest rank. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** The event loop's delay while some work ran: p99 and max in ms, and how long the work took. */
export interface DelaySample {
  p99: number;
  max: number;
  ms: number;
}

/** Runs `work` while sampling the event loop's delay (5 ms resolution). */
export async function withDelayMonitor(work: () => Promise<unknown>): Promise<DelaySample> {
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  const start = performance.now();
  await work();
  const ms = performance.now() - start;
  histogram.disable();
  return { p99: histogram.percentile(99) / 1e6, max: histogram.max / 1e6, ms };
}
