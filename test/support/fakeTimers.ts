import type { Timers } from '../../src/core/chat/runs/throttledTask';

/** Timers driven by hand: `advance(ms)` runs what falls due; `pending()` counts the timers set and not yet run. */
export function fakeTimers(): Timers & { advance(ms: number): void; pending(): number } {
  let now = 0;
  let queue: { at: number; cb: () => void; id: number }[] = [];
  let next = 1;
  return {
    now: () => now,
    setTimeout: (cb, ms) => {
      const id = next++;
      queue.push({ at: now + ms, cb, id });
      return id;
    },
    clearTimeout: (id) => {
      queue = queue.filter((t) => t.id !== id);
    },
    advance(ms) {
      now += ms;
      const due = queue.filter((t) => t.at <= now);
      queue = queue.filter((t) => t.at > now);
      due.forEach((t) => t.cb());
    },
    pending: () => queue.length,
  };
}
