import type { Timers } from './throttledTask';

const realTimers: Pick<Timers, 'setTimeout' | 'clearTimeout'> = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * Joins a reply's deltas into at most one message per `intervalMs` for the pages: the first goes at once (the first
 * token is not held back), those that come within the interval after it go together at its end. Every message to a
 * page crosses the extension host's channel and, in a browser-hosted VS Code, a socket and the workbench: a service
 * that sends a thousand small events a second otherwise leaves the page behind by the time the reply ends (measured
 * by lastPixel.bench). `flush()` sends what is held at once: call it before any other message, so order is kept.
 */
export class DeltaBatcher {
  private held: { requestId: number; text: string } | undefined;
  private timer: unknown;

  constructor(
    private readonly send: (requestId: number, text: string) => void,
    private readonly intervalMs: number,
    private readonly timers: Pick<Timers, 'setTimeout' | 'clearTimeout'> = realTimers,
  ) {}

  /** A delta of reply `requestId`: sent now when nothing was sent in the last interval, else held until its end. */
  add(requestId: number, text: string): void {
    if (this.held && this.held.requestId !== requestId) {
      this.flush();
    }
    if (this.timer === undefined) {
      this.send(requestId, text);
      this.startInterval();
      return;
    }
    this.held = this.held ? { requestId, text: this.held.text + text } : { requestId, text };
  }

  /** Sends what is held now (before another message to the pages, or when the reply ends). */
  flush(): void {
    const held = this.held;
    this.held = undefined;
    if (held) {
      this.send(held.requestId, held.text);
    }
  }

  dispose(): void {
    this.held = undefined;
    if (this.timer !== undefined) {
      this.timers.clearTimeout(this.timer);
      this.timer = undefined;
    }
  }

  private startInterval(): void {
    this.timer = this.timers.setTimeout(() => {
      this.timer = undefined;
      if (this.held) {
        this.flush();
        this.startInterval();
      }
    }, this.intervalMs);
  }
}
