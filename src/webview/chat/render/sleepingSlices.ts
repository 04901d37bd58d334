import { CLASS } from './classNames';
import { sleepIsHeld, TOLD_WHEN_SHOWN } from './finishedBlocks';
import { whenIdle, type Schedule } from './schedule';

/** Slices sleep only in a conversation with more older messages than this (some 60,000 page elements and up). */
export const SLEEP_AFTER_MESSAGES = 1_000;

/**
 * How a sleeping slice's messages go and come back when they are not kept (see SleepingSlices): dropped, and drawn
 * again from what they were drawn from.
 */
export interface SliceRedraw {
  /** The slice's messages leave the page for good: whatever holds them lets go. */
  drop(slice: HTMLElement): void;
  /** The slice's messages drawn again, in order. */
  redraw(slice: HTMLElement): HTMLElement[];
}

/**
 * What on a message is the user's doing and would not come back if it were drawn again: an open edit box, a step
 * or a `details` opened, a loaded image or one loading, a failed image's notice. A slice holding one keeps its
 * elements while it sleeps.
 */
const OWN_STATE =
  'textarea, [aria-expanded="true"], details[open], img.loaded-image, button.load-image:disabled, .notice.inline';

/** A slice's messages while it sleeps: their elements kept whole, or dropped with the placeholder size of each. */
type Sleeping = DocumentFragment | { sizes: string[] };

/**
 * The slices of older messages far from the view, in a very long conversation: once the page stops drawing one
 * (`content-visibility: auto` skips it) and is idle, its messages leave the document and it keeps its height; when
 * it nears the view again (the page draws it again) they are put back before it is drawn. Skipped elements still
 * count: each later slice's style recalculation took time in proportion to every element in the document (40–44 ms
 * at 188,000 elements, 8 ms at 20,000; bigConversationPage.bench), so scrolling up through thousands of messages made
 * long tasks. With a `redraw`, a sleeping slice's messages are dropped and drawn again when it wakes, each at the
 * size it had: kept, their elements were still traced by every collection of the page's heap (its marking steps ran
 * inside the scroll's frames, which took up to 160 ms); a slice holding something of the user's (OWN_STATE) keeps
 * them whole, as every slice does without a `redraw`. What looks for them in the document wakes them first: find
 * (the slices whose messages may hold the text, and none sleeps while it is open: `holdSleep`), Ctrl+Up/Down (the
 * slice beside), a branch switch's focus (the slice holding the message). A slice holding the focus does not sleep.
 */
export class SleepingSlices {
  private readonly asleep = new Map<HTMLElement, Sleeping>();
  private readonly skipped = new Set<HTMLElement>();
  private readonly onState = (event: Event): void => this.stateChanged(event);
  private sleepingYet = false;

  constructor(
    private readonly log: HTMLElement,
    private readonly sleeps: () => boolean,
    private readonly schedule: Schedule = whenIdle,
    private readonly redraw?: SliceRedraw,
  ) {
    if (TOLD_WHEN_SHOWN) {
      log.addEventListener('contentvisibilityautostatechange', this.onState, true);
    }
  }

  /**
   * A slice was laid out in full (its first frame): each message keeps its height as its placeholder size, so that
   * after a sleep, when the page draws the slice again, the messages off screen are skipped at their height, not
   * laid out (a message's remembered size is lost when it leaves the document; its placeholder's 120 px would move
   * the view). Also the slices of a conversation whose older messages are still coming: its first slices are drawn
   * before it is known to be long enough to sleep.
   */
  measured(slice: HTMLElement): void {
    if (!slice.isConnected) {
      return;
    }
    for (const message of Array.from(slice.children) as HTMLElement[]) {
      const style = getComputedStyle(message);
      const box =
        parseFloat(style.paddingTop) +
        parseFloat(style.paddingBottom) +
        parseFloat(style.borderTopWidth) +
        parseFloat(style.borderBottomWidth);
      message.style.containIntrinsicSize = `auto ${Math.max(0, message.getBoundingClientRect().height - box)}px`;
    }
  }

  /**
   * More older messages came: once the conversation is long enough to sleep, the slices already skipped sleep too (the
   * page told of them before it knew, and tells again only when they are shown).
   */
  grew(): void {
    if (!this.sleepingYet && this.sleeps()) {
      this.sleepingYet = true;
      for (const slice of this.skipped) {
        this.schedule(() => this.sleep(slice));
      }
    }
  }

  /** Whether `slice` sleeps. */
  isAsleep(slice: HTMLElement): boolean {
    return this.asleep.has(slice);
  }

  /**
   * Wakes the slice next to the one holding `message` in the direction of `step`, so that moving the focus a message
   * up or down finds it; past the newest slice (a message drawn at once, or none focused) up means the newest slice.
   */
  wakeBeside(message: Element | null, step: -1 | 1): void {
    const slice = message?.closest(`.${CLASS.olderMessages}`);
    const beside = slice
      ? step < 0
        ? slice.previousElementSibling
        : slice.nextElementSibling
      : step < 0
        ? this.newestSlice()
        : null;
    if (beside instanceof HTMLElement) {
      this.wake(beside);
    }
  }

  /** Stops: the conversation's elements are going away. */
  dispose(): void {
    this.log.removeEventListener('contentvisibilityautostatechange', this.onState, true);
    this.asleep.clear();
    this.skipped.clear();
  }

  private newestSlice(): Element | null {
    let newest: Element | null = null;
    for (const child of Array.from(this.log.children)) {
      if (child.classList.contains(CLASS.olderMessages)) {
        newest = child;
      }
    }
    return newest;
  }

  private stateChanged(event: Event): void {
    const slice = event.target as HTMLElement;
    if (slice.parentElement !== this.log || !slice.classList.contains(CLASS.olderMessages)) {
      return;
    }
    if ((event as ContentVisibilityAutoStateChangeEvent).skipped) {
      this.skipped.add(slice);
      if (this.sleeps()) {
        this.schedule(() => this.sleep(slice));
      }
    } else {
      this.skipped.delete(slice);
      this.wake(slice);
    }
  }

  private sleep(slice: HTMLElement): void {
    if (
      sleepIsHeld() ||
      !this.skipped.has(slice) ||
      this.asleep.has(slice) ||
      !slice.isConnected ||
      slice.contains(document.activeElement)
    ) {
      return;
    }
    // A skipped slice has the height it had when last drawn (contain-intrinsic-size: auto); it keeps it.
    slice.style.height = `${slice.getBoundingClientRect().height}px`;
    if (this.redraw && !slice.querySelector(OWN_STATE)) {
      // Each message's placeholder size (see measured), for when it is drawn again.
      const sizes = Array.from(slice.children, (message) => (message as HTMLElement).style.containIntrinsicSize);
      this.redraw.drop(slice);
      slice.replaceChildren();
      this.asleep.set(slice, { sizes });
      return;
    }
    const fragment = document.createDocumentFragment();
    fragment.append(...Array.from(slice.childNodes));
    this.asleep.set(slice, fragment);
  }

  /** Puts a sleeping slice's messages back (drawn again when they were dropped), before the page draws it. */
  wake(slice: HTMLElement): void {
    const sleeping = this.asleep.get(slice);
    if (!sleeping) {
      return;
    }
    this.asleep.delete(slice);
    if (sleeping instanceof DocumentFragment) {
      slice.append(sleeping);
    } else if (this.redraw) {
      const messages = this.redraw.redraw(slice);
      messages.forEach((message, i) => (message.style.containIntrinsicSize = sleeping.sizes[i] ?? ''));
      slice.append(...messages);
    }
    // Its messages off screen are skipped at the heights they had (see measured).
    slice.style.height = '';
  }
}
