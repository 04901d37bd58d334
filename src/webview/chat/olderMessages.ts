/** How many of the newest messages are drawn at once when a conversation is shown. */
export const RECENT_MESSAGES = 12;

/** How many older messages are drawn per idle slice after that. */
const CHUNK = 20;

/** Runs `callback` when the page is idle (soon, in any case). */
type Schedule = (callback: () => void) => void;

const whenIdle: Schedule = (callback) => {
  if (typeof requestIdleCallback === 'function') {
    requestIdleCallback(() => callback(), { timeout: 200 });
  } else {
    setTimeout(callback, 0);
  }
};

/**
 * Draws the older messages of a conversation above the ones already shown, newest first, a slice per idle moment,
 * so switching to a long conversation shows its end at once and the page stays responsive while the rest arrives.
 * What the user looks at stays in place: the scroll position moves by the height each slice adds above it.
 * `cancel()` stops it (another conversation is shown).
 */
export class OlderMessages<T> {
  private cancelled = false;
  private end: number;
  /** Resolves when every older message is drawn (or the drawing was cancelled). */
  readonly done: Promise<void>;
  private finish: () => void = () => undefined;

  constructor(
    private readonly log: HTMLElement,
    private readonly older: readonly T[],
    private readonly draw: (item: T) => HTMLElement,
    private readonly schedule: Schedule = whenIdle,
  ) {
    this.end = older.length;
    this.done = new Promise((resolve) => (this.finish = resolve));
    this.next();
  }

  /** Stops drawing; what was drawn stays. */
  cancel(): void {
    this.cancelled = true;
    this.finish();
  }

  private next(): void {
    if (this.cancelled || this.end === 0) {
      this.finish();
      return;
    }
    this.schedule(() => this.slice());
  }

  private slice(): void {
    if (this.cancelled) {
      return;
    }
    const start = Math.max(0, this.end - CHUNK);
    const fragment = document.createDocumentFragment();
    for (const item of this.older.slice(start, this.end)) {
      fragment.append(this.draw(item));
    }
    const before = this.log.scrollHeight;
    this.log.insertBefore(fragment, this.log.firstChild);
    this.log.scrollTop += this.log.scrollHeight - before;
    this.end = start;
    this.next();
  }
}
