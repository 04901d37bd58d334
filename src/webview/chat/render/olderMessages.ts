import { CLASS } from './classNames';
import { afterFrame, whenIdle, type Schedule } from './schedule';
import { SLEEP_AFTER_MESSAGES, SleepingSlices } from './sleepingSlices';

/** How older messages are drawn, and (when given) how a message drawn earlier is let go of. */
export interface Drawing<T> {
  draw(item: T): HTMLElement;
  /**
   * A message left the page for good (its slice sleeps; see SleepingSlices): whatever holds its element lets go.
   * With it, a sleeping slice's messages are dropped and drawn again when it wakes; without it, they are kept.
   */
  forget?(item: T): void;
}

/** At most this many of the newest messages are drawn at once when a conversation is shown. */
const RECENT_MESSAGES = 12;
/**
 * After this long, no further message is drawn in the same task. The first messages a freshly loaded page draws
 * also pay for compiling the Markdown lexer's and the highlighter's patterns (a reply of a few KB with code then
 * takes 50–130 ms instead of 5): the rest waits for the next slice rather than growing one long task.
 */
const TASK_BUDGET_MS = 40;

/**
 * Draws the newest of `items` into `log` before `before` (at the end when null), newest first, until they fill two
 * screens of it, RECENT_MESSAGES are drawn or TASK_BUDGET_MS has passed (at least one is drawn); returns how many
 * older items are left for OlderMessages. Showing a conversation then costs what the screen shows, not a fixed
 * number of messages that may be long replies with code.
 */
export function drawRecent<T>(
  log: HTMLElement,
  items: readonly T[],
  draw: (item: T) => HTMLElement,
  before: Node | null = null,
): number {
  const deadline = performance.now() + TASK_BUDGET_MS;
  const screens = 2 * Math.max(log.clientHeight, 400);
  const last = Math.max(0, items.length - RECENT_MESSAGES);
  let cut = items.length;
  while (cut > last && log.scrollHeight <= screens && (cut === items.length || performance.now() < deadline)) {
    before = log.insertBefore(draw(items[--cut]), before);
  }
  return cut;
}

/** How many older messages are drawn per idle slice after that, at most. */
const CHUNK = 10;
/**
 * After this long, a slice takes no further message: with the style and layout of what it drew (measured: about 1.7
 * times as long, laid out in full once to keep its height), an idle slice stays within about 35 ms, leaving room for
 * input and for the collector on a slow or busy machine (at 24 ms, slices took 66–68 ms in bigConversationPage.bench).
 */
const SLICE_BUDGET_MS = 12;

/**
 * Draws the older messages of a conversation above the ones already shown, newest first, a slice per idle moment
 * (each in a `div.older-messages` of its own), so switching to a long conversation shows its end at once and the page
 * stays responsive while the rest arrives. Messages older still may come later (`add`: a long conversation's state
 * sends them apart); they are drawn above the rest. What the user looks at stays in place: the scroll position moves
 * by the height each slice adds above it. In a very long conversation the slices far from the view sleep (`asleep`).
 * `cancel()` stops it (another conversation is shown).
 */
export class OlderMessages<T> {
  private cancelled = false;
  private older: readonly T[];
  private end: number;
  private scheduled = false;
  /** Resolves when every older message is drawn (or the drawing was cancelled). */
  readonly done: Promise<void>;
  private finish: () => void = () => undefined;
  /**
   * The part of a pixel the last correction could not make: scrollTop snaps to whole pixels while a slice's height
   * rarely is one, so without carrying it over what is read would creep by up to half a pixel per slice (the chatPage
   * UI test checks that it moves less than a pixel while 400 messages are drawn).
   */
  private carry = 0;
  /** The slices that sleep, and waking them for what looks for their messages in the document. */
  readonly asleep: SleepingSlices;
  /** The messages each slice holds, in order (a slice asleep is drawn again from them). */
  private readonly items = new Map<HTMLElement, T[]>();
  /** Each wakeWhere gets a number: a later one stops an earlier one still waking slices. */
  private waking = 0;

  /** `expecting`: messages older than `older` are still to come (`add`); `done` waits for them. */
  constructor(
    private readonly log: HTMLElement,
    older: readonly T[],
    private readonly drawing: Drawing<T>,
    private expecting = false,
    private readonly schedule: Schedule = whenIdle,
  ) {
    this.older = older;
    this.end = older.length;
    const { draw, forget } = drawing;
    const redraw = forget && {
      drop: (slice: HTMLElement) => this.items.get(slice)?.forEach(forget),
      redraw: (slice: HTMLElement) => (this.items.get(slice) ?? []).map(draw),
    };
    this.asleep = new SleepingSlices(log, () => this.older.length > SLEEP_AFTER_MESSAGES, schedule, redraw);
    this.done = new Promise((resolve) => (this.finish = resolve));
    this.next();
  }

  /** Messages older than all given so far: drawn above them, after them; `more`: older ones still are to come. */
  add(items: readonly T[], more = false): void {
    if (this.cancelled) {
      return;
    }
    this.expecting = more;
    this.older = [...items, ...this.older.slice(0, this.end)];
    this.end = this.older.length;
    this.asleep.grew();
    if (!this.scheduled) {
      this.next();
    }
  }

  /** Stops drawing; what was drawn stays. */
  cancel(): void {
    this.cancelled = true;
    this.asleep.dispose();
    this.items.clear();
    this.finish();
  }

  /**
   * Wakes the slices holding a message `holds` accepts (find: those that may hold its text), SLICE_BUDGET_MS of work
   * at a time with the page idle between: a slice whose messages were dropped is drawn again, and `holds` reads every
   * message. Settles when every one is awake, or when a later call or `cancel` stopped it.
   */
  async wakeWhere(holds: (item: T) => boolean): Promise<void> {
    const run = ++this.waking;
    const slices = [...this.items];
    for (let i = 0; i < slices.length;) {
      const deadline = performance.now() + SLICE_BUDGET_MS;
      for (; i < slices.length && performance.now() < deadline; i++) {
        const [slice, items] = slices[i];
        if (this.asleep.isAsleep(slice) && items.some(holds)) {
          this.asleep.wake(slice);
        }
      }
      if (i < slices.length) {
        await new Promise<void>((resolve) => this.schedule(resolve));
        if (run !== this.waking || this.cancelled) {
          return;
        }
      }
    }
  }

  /** Wakes the slice holding `item` at once (a message to focus). */
  wakeHolding(item: T | undefined): void {
    for (const [slice, items] of this.items) {
      if (item !== undefined && items.includes(item)) {
        return this.asleep.wake(slice);
      }
    }
  }

  private next(): void {
    if (this.cancelled || this.end === 0) {
      if (this.cancelled || !this.expecting) {
        this.finish();
      }
      return;
    }
    this.scheduled = true;
    this.schedule(() => this.slice());
  }

  private slice(): void {
    this.scheduled = false;
    if (this.cancelled) {
      return;
    }
    const deadline = performance.now() + SLICE_BUDGET_MS;
    const start = Math.max(0, this.end - CHUNK);
    // A slice is one element the page skips whole when it is off screen (`content-visibility` in render.css): a long
    // conversation costs each later frame a few dozen of them, not hundreds of messages.
    // It is laid out once, in full, as it goes in ('measuring'); once a frame has recorded that size it may be
    // skipped, and then takes the height it had (contain-intrinsic-size: auto), so scrolling up through it later
    // does not jump.
    const slice = document.createElement('div');
    slice.className = `${CLASS.olderMessages} ${CLASS.measuring}`;
    // Newest first, until the slice is full or the task's budget is spent.
    let from = this.end;
    while (from > start && (from === this.end || performance.now() < deadline)) {
      slice.prepend(this.drawing.draw(this.older[--from]));
    }
    this.items.set(slice, this.older.slice(from, this.end));
    // What the user looks at stays where it is (the browser's scroll anchoring may already have kept it there).
    const anchor = this.log.firstElementChild;
    const before = anchor?.getBoundingClientRect().top ?? 0;
    this.log.insertBefore(slice, this.log.firstChild);
    afterFrame(() => {
      // Only where it may come to sleep: a long one, or one whose older messages are still coming.
      if (this.expecting || this.older.length > SLEEP_AFTER_MESSAGES) {
        this.asleep.measured(slice);
      }
      slice.classList.remove(CLASS.measuring);
    });
    if (anchor) {
      const want = this.log.scrollTop + anchor.getBoundingClientRect().top - before + this.carry;
      this.log.scrollTop = want;
      const left = want - this.log.scrollTop;
      // More than a pixel left means scrollTop met an end of its range: nothing to carry.
      this.carry = Math.abs(left) < 1 ? left : 0;
    }
    this.end = from;
    this.next();
  }
}
