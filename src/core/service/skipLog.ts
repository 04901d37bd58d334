import type { Logger } from '../logger';
import { decodeEntities } from './htmlText';

/** Most characters of a skipped event's payload written to the log. */
export const SKIP_PREVIEW_CHARS = 120;

/**
 * A payload as its reader would see it: JSON's `\uXXXX` and `\/` escapes and HTML's character references decoded, so
 * a key written with them is a key the scrubber knows.
 */
function unescaped(payload: string): string {
  return decodeEntities(
    payload
      .replace(/\\u([\da-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
      .replace(/\\\//g, '/'),
  );
}

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

  /**
   * Hears one skipped event (see `SseObserver.onSkipped`). The first one's whole payload is unescaped and scrubbed
   * before it is cut to `SKIP_PREVIEW_CHARS`: a key escaped, or one that begins just before the cut, never shows
   * its first characters.
   */
  readonly skipped = (reason: string, payload: string): void => {
    this.count++;
    if (this.count === 1) {
      const clean = this.scrub(unescaped(payload)).trim();
      const shown = clean.length > SKIP_PREVIEW_CHARS ? `${clean.slice(0, SKIP_PREVIEW_CHARS)}…` : clean;
      this.log.warn(`Stream: skipped ${reason}: ${shown}`);
    }
  };

  /** Writes the count, once the reply has ended. */
  end(): void {
    if (this.count > 0) {
      this.log.warn(`Stream: ${this.count} event(s) could not be read and were skipped.`);
    }
  }
}
