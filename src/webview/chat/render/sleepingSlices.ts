import { CLASS } from './classNames';
import { sleepIsHeld, TOLD_WHEN_SHOWN } from './finishedBlocks';
import { whenIdle, type Schedule } from './schedule';

/** Slices sleep only in a conversation with more older messages than this (some 60,000 page elements and up). */
export const SLEEP_AFTER_MESSAGES = 1_000;

/**
 * The slices of older messages far from the view, in a very long conversation: once the page stops drawing one
 * (`content-visibility: auto` skips it) and is idle, its messages leave the document and it keeps its height; when
 * it nears the view again (the page draws it again) they are put back before it is drawn. Skipped elements still
 * count: each later slice's style recalculation took time in proportion to every element in the document (40–44 ms
 * at 188,000 elements, 8 ms at 20,000; bigConversationPage.bench), so scrolling up through thousands of messages made
 * long tasks. The messages' elements are kept whole, not drawn again, so what the page holds for them (its map of
 * elements, a reply's renderer) stays right. What looks for them in the document wakes them first: find (all of
 * them, and none sleeps while it is open: `holdSleep`), Ctrl+Up/Down (the slice beside), a branch switch's focus
 * (the slice holding the message). A slice holding the focus does not sleep.
 */
export class SleepingSlices {
  private readonly asleep = new Map<HTMLElement, DocumentFragment>();
  private readonly skipped = new Set<HTMLElement>();
  private readonly onState = (event: Event): void => this.stateChanged(event);
  private sleepingYet = false;

  constructor(
    private readonly log: HTMLElement,
    private readonly sleeps: () => boolean,
    private readonly schedule: Schedule = whenIdle,
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

  /** Wakes every slice (find searches the document). */
  wakeAll(): void {
    for (const slice of [...this.asleep.keys()]) {
      this.wake(slice);
    }
  }

  /** Wakes the slice that holds `node` (a message's element), if one does. */
  wakeHolding(node: Node): void {
    for (const [slice, fragment] of this.asleep) {
      if (fragment.contains(node)) {
        return this.wake(slice);
      }
    }
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
    if (beside instanceof HTMLElement && this.asleep.has(beside)) {
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
      if (this.asleep.has(slice)) {
        this.wake(slice);
      }
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
    const fragment = document.createDocumentFragment();
    fragment.append(...Array.from(slice.childNodes));
    this.asleep.set(slice, fragment);
  }

  private wake(slice: HTMLElement): void {
    const fragment = this.asleep.get(slice);
    if (fragment) {
      this.asleep.delete(slice);
      // Its messages off screen are skipped at the heights they had (see measured).
      slice.append(fragment);
      slice.style.height = '';
    }
  }
}
