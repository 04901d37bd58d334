import type { Logger } from '../logger';

/**
 * The log of a reply's skipped events: the first one's reason and payload, then how many there were when the reply
 * ends. A warning per event wrote a million lines for a million events without content.
 */
export class SkipLog {
  private count = 0;

  /** `scrub` removes the session's keys from a payload before it is written (the service's own text). */
  constructor(
    private readonly log: Logger,
    private readonly scrub: (text: string) => string,
  ) {}

  /** Hears one skipped event (see `SseObserver.onSkipped`). */
  readonly skipped = (reason: string, payload: string): void => {
    this.count++;
    if (this.count === 1) {
      this.log.warn(`Stream: skipped ${reason}: ${this.scrub(payload)}`);
    }
  };

  /** Writes the count, once the reply has ended. */
  end(): void {
    if (this.count > 0) {
      this.log.warn(`Stream: ${this.count} event(s) could not be read and were skipped.`);
    }
  }
}
