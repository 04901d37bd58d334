/** Timer functions, injectable for tests. */
export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  now(): number;
}

const realTimers: Timers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  now: () => Date.now(),
};

/**
 * Runs an async task at most once per `intervalMs`, however often it is asked for, and always once more after
 * the last request (trailing edge), never two runs at the same time. Used to save a conversation while a reply
 * streams: a crash loses at most one interval of text.
 */
export class ThrottledTask {
  private timer: unknown;
  private pending = false;
  private running: Promise<void> | undefined;
  private lastRun = -Infinity;
  private disposed = false;

  constructor(
    private readonly task: () => Promise<void>,
    private readonly intervalMs: number,
    private readonly onError: (error: unknown) => void,
    private readonly timers: Timers = realTimers,
  ) {}

  /** Asks for a run: now if the last one was long enough ago, else at the end of the interval. */
  schedule(): void {
    if (this.disposed) {
      return;
    }
    this.pending = true;
    if (this.timer !== undefined || this.running) {
      return;
    }
    const wait = this.lastRun + this.intervalMs - this.timers.now();
    if (wait <= 0) {
      void this.runPending();
    } else {
      this.timer = this.timers.setTimeout(() => {
        this.timer = undefined;
        void this.runPending();
      }, wait);
    }
  }

  /** Runs a pending request now and waits until no run is in progress. */
  async flush(): Promise<void> {
    if (this.timer !== undefined) {
      this.timers.clearTimeout(this.timer);
      this.timer = undefined;
    }
    while (this.running || this.pending) {
      await (this.running ?? this.runPending());
    }
  }

  /** Drops a pending run (a running one finishes); later requests run as usual. */
  cancel(): void {
    this.pending = false;
    if (this.timer !== undefined) {
      this.timers.clearTimeout(this.timer);
      this.timer = undefined;
    }
  }

  /** Drops any pending run and accepts no more (a running one finishes). */
  dispose(): void {
    this.disposed = true;
    this.pending = false;
    if (this.timer !== undefined) {
      this.timers.clearTimeout(this.timer);
      this.timer = undefined;
    }
  }

  private runPending(): Promise<void> {
    if (this.running) {
      return this.running;
    }
    if (!this.pending) {
      return Promise.resolve();
    }
    this.pending = false;
    this.lastRun = this.timers.now();
    this.running = this.task()
      .catch(this.onError)
      .finally(() => {
        this.running = undefined;
        if (this.pending && !this.disposed) {
          this.schedule();
        }
      });
    return this.running;
  }
}
