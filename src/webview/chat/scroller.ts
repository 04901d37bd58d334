import * as l10n from '@vscode/l10n';
import { h, icon } from '../shared/dom';
import './scroller.css';

/** How close to the bottom still counts as "at the bottom", in pixels. */
const BOTTOM_SLACK = 24;

/**
 * Keeps the conversation pinned to the bottom while a reply streams, unless the user scrolls up: then it stays put
 * and shows "Jump to latest". Content growing below never unpins it (only a scroll up does).
 */
export class Scroller {
  private pinned = true;
  private lastTop = 0;
  /** A follow to the bottom is waiting for the next frame. */
  private following = false;
  readonly jumpButton: HTMLButtonElement;
  /**
   * Watches the newest message: its height changes after it is drawn (messages off screen are laid out only when
   * they come near it, see `content-visibility` in render/render.css), and a pinned view follows it to the bottom.
   */
  private readonly newest = new ResizeObserver(() => {
    if (this.pinned) {
      this.toBottom();
    }
  });
  private watched: Element | null = null;

  constructor(private readonly log: HTMLElement) {
    this.jumpButton = h(
      'button',
      { type: 'button', class: 'jump-latest', hidden: true, onClick: () => this.jumpToLatest(true) },
      icon('arrow-down'),
      h('span', {}, l10n.t('Jump to latest')),
    );
    log.addEventListener('scroll', () => this.onScroll(), { passive: true });
  }

  /** Whether new content scrolls into view by itself. */
  get isPinned(): boolean {
    return this.pinned;
  }

  /**
   * After content changed: follow it when pinned (at the next frame, once however many renders came before it: a
   * scroll position read in each render forced a layout of its own), else offer the jump.
   */
  contentChanged(): void {
    if (this.pinned) {
      if (!this.following) {
        this.following = true;
        requestAnimationFrame(() => {
          this.following = false;
          if (this.pinned) {
            this.toBottom();
          }
        });
      }
    } else {
      this.offerJump(!this.atBottom());
    }
  }

  /** Shows something above the end on purpose (a branch switch): no longer pinned, "Jump to latest" offered. */
  unpin(): void {
    this.pinned = false;
    this.lastTop = this.log.scrollTop;
    this.offerJump(!this.atBottom());
  }

  /** Scrolls to the newest content and pins there. */
  jumpToLatest(focusLast = false): void {
    this.pinned = true;
    this.toBottom();
    this.offerJump(false);
    if (focusLast) {
      this.log.querySelector<HTMLElement>(':scope > article:last-of-type')?.focus({ preventScroll: true });
    }
  }

  private toBottom(): void {
    this.log.scrollTop = this.log.scrollHeight;
    this.lastTop = this.log.scrollTop;
    const last = this.log.lastElementChild;
    if (last !== this.watched) {
      if (this.watched) {
        this.newest.unobserve(this.watched);
      }
      this.watched = last;
      if (last) {
        this.newest.observe(last);
      }
    }
  }

  /**
   * Shows or hides "Jump to latest", touching the button only when that changes: set on every scroll event of a
   * streaming reply, an unchanged value still made a DOM change a frame.
   */
  private offerJump(shown: boolean): void {
    if (this.jumpButton.hidden === shown) {
      this.jumpButton.hidden = !shown;
    }
  }

  private atBottom(): boolean {
    return this.log.scrollHeight - this.log.scrollTop - this.log.clientHeight <= BOTTOM_SLACK;
  }

  private onScroll(): void {
    const top = this.log.scrollTop;
    if (this.atBottom()) {
      this.pinned = true;
    } else if (top < this.lastTop - 1) {
      // Only moving up unpins: content growing below does not change scrollTop.
      this.pinned = false;
    }
    this.lastTop = top;
    this.offerJump(!this.pinned && !this.atBottom());
  }
}
