import type { Token } from 'marked';
import {
  addDefinitions,
  lexBlocks,
  newLinkMap,
  normaliseNewlines,
  renderBlocks,
  splitFinished,
  type LinkMap,
} from './markdownBlocks';
import { CLASS } from './classNames';
import { FinishedBlocks, type Decorate } from './finishedBlocks';
import { safeFragment } from '../safeHtml';

/**
 * A frame lexes the unfinished text in windows of about this many characters, and starts another window only while
 * it is within FRAME_BUDGET_MS. When text arrives faster than the page can draw it (a backlog after a busy moment,
 * or a very fast stream), the page catches up over several short frames instead of one long one that blocks input.
 */
const WINDOW_CHARS = 4_096;
const FRAME_BUDGET_MS = 8;

export type { Decorate };

/** Renders a whole Markdown text at once (messages loaded from history). */
export function renderMarkdownInto(container: HTMLElement, markdown: string, decorate: Decorate): void {
  const tokens = lexBlocks(normaliseNewlines(markdown), newLinkMap());
  const fragment = safeFragment(renderBlocks(tokens, tokens.links));
  decorate(fragment, 'final');
  container.replaceChildren(fragment);
}

/**
 * Renders a streamed Markdown reply incrementally. Deltas are only collected; the work happens once per animation
 * frame, and only on the tail that is not yet finished: the tail is lexed, every block but the last is finished
 * (rendered, sanitised and appended once, never parsed again unless a section of them slept, see FinishedBlocks), and
 * the last block is rendered again into the live element. The cost of a frame depends on the size of the last block,
 * not on the reply's length, and a backlog is drawn over several frames of bounded work (WINDOW_CHARS,
 * FRAME_BUDGET_MS).
 */
export class StreamRenderer {
  /** The text the finished blocks cover (only joined when the whole text is asked for). */
  private head = '';
  /** The text after it: the blocks still being written, and any backlog not drawn yet. */
  private tail = '';
  /** A `\r` at the end of a delta, kept until the next one shows whether a `\n` follows. */
  private heldCr = false;
  /** A delta came since the last reset: the reply is being streamed, not drawn from history. */
  private streamed = false;
  /** The finished blocks' link definitions. */
  private links: LinkMap = newLinkMap();
  private frame = 0;
  private readonly finished: FinishedBlocks;
  private readonly liveEl: HTMLElement;
  /** The reply ended while a backlog was still being drawn: the frames finish it, then the live block goes. */
  private ending = false;
  /** The window the last frame needed to reach a finished block (a long block being written needs a wide one). */
  private windowChars = WINDOW_CHARS;

  constructor(
    container: HTMLElement,
    private readonly decorate: Decorate,
    /** Called after each frame's render (the page keeps the view pinned to the bottom). */
    private readonly onRendered: () => void,
    private readonly requestFrame: (callback: () => void) => number = (cb) => requestAnimationFrame(cb),
    private readonly cancelFrame: (handle: number) => void = (handle) => cancelAnimationFrame(handle),
  ) {
    this.finished = new FinishedBlocks(
      decorate,
      () => this.head,
      () => this.links,
    );
    this.liveEl = document.createElement('div');
    this.liveEl.className = CLASS.liveBlock;
    container.replaceChildren(this.finished.element, this.liveEl);
  }

  /** Wakes the sleeping sections whose Markdown `holds` accepts (see FinishedBlocks.wakeWhere). */
  wakeWhere(holds: (markdown: string) => boolean): number {
    return this.finished.wakeWhere(holds);
  }

  /** The text so far. */

  get source(): string {
    return this.head + this.tail;
  }

  /** Sets the text that already arrived (a page drawn mid-stream) and renders it on the next frame. */
  reset(text: string): void {
    this.streamed = false;
    this.head = '';
    this.tail = normaliseNewlines(text);
    this.ending = false;
    this.windowChars = WINDOW_CHARS;
    this.links = newLinkMap();
    this.finished.clear();
    this.liveEl.replaceChildren();
    this.schedule();
  }

  /** Adds a delta; it is drawn on the next animation frame together with any others that arrive before it. */
  append(delta: string): void {
    this.streamed = true;
    let piece = this.heldCr ? `\r${delta}` : delta;
    this.heldCr = piece.endsWith('\r');
    if (this.heldCr) {
      piece = piece.slice(0, -1);
    }
    this.tail += normaliseNewlines(piece);
    this.schedule();
  }

  /**
   * The reply ended: what is left becomes finished blocks, now when it is short, else over the next frames (each of
   * bounded work), after which the live block goes.
   */
  finish(): void {
    if (this.heldCr) {
      this.heldCr = false;
      this.tail += '\n';
    }
    this.ending = true;
    if (this.tail.length > WINDOW_CHARS) {
      this.schedule();
      return;
    }
    if (this.frame) {
      this.cancelFrame(this.frame);
      this.frame = 0;
    }
    this.end();
  }

  private end(): void {
    const tail = this.tail;
    const tokens = lexBlocks(tail, this.links);
    this.head += tail;
    this.tail = '';
    this.appendFinished(tokens, tokens.links);
    // Every definition is final now: blocks drawn with one that was still being written are drawn again; the end of
    // a reply that streamed, which the reader is looking at, is decorated now.
    this.finished.settle(this.streamed);
    this.liveEl.remove();
    this.onRendered();
  }

  /** Stops drawing (the message left the page); what is drawn stays as it is. */
  dispose(): void {
    if (this.frame) {
      this.cancelFrame(this.frame);
      this.frame = 0;
    }
    this.tail = '';
    this.ending = false;
  }

  private schedule(): void {
    if (!this.frame) {
      this.frame = this.requestFrame(() => {
        this.frame = 0;
        this.render();
      });
    }
  }

  /**
   * One frame: finish the blocks that are complete, draw the last one again. The unfinished text is lexed a window
   * at a time (a prefix of the text is a state the stream could have been in, so its blocks before the last are as
   * finished as they would have been then); more windows follow while the frame is within its budget.
   */
  private render(): void {
    const deadline = performance.now() + FRAME_BUDGET_MS;
    for (;;) {
      const windowChars = this.windowChars;
      const tail = this.tail;
      const whole = tail.length <= windowChars;
      if (whole && this.ending) {
        this.end();
        return;
      }
      const tokens = lexBlocks(whole ? tail : prefixAtLine(tail, windowChars), this.links);
      const split = splitFinished(tokens);
      if (split.finished.length) {
        this.head += tail.slice(0, split.finishedLength);
        this.tail = tail.slice(split.finishedLength);
        this.appendFinished(split.finished, tokens.links);
      }
      if (!whole && split.finished.length === 0) {
        // One block longer than the window (a long code block): widen the window until it ends or takes all,
        // and keep it wide for the next frames while that block is still being written.
        this.windowChars *= 2;
        continue;
      }
      if (split.finished.length) {
        this.windowChars = WINDOW_CHARS;
      }
      if (!whole && performance.now() < deadline) {
        continue;
      }
      const live = safeFragment(renderBlocks(split.live, tokens.links));
      this.decorate(live, 'live');
      this.liveEl.replaceChildren(live);
      this.onRendered();
      if (!whole) {
        this.schedule();
      }
      return;
    }
  }

  /**
   * Appends finished blocks (their text already added to `head`), lexed with `lexed`. Their definitions join the
   * finished ones, and earlier blocks that used one of them are drawn again.
   */
  private appendFinished(tokens: Token[], lexed: LinkMap): void {
    const added = addDefinitions(tokens, this.links);
    this.finished.append(tokens, lexed, added);
  }
}

/** The first `chars` characters of `text`, ended at a line break when there is one in them. */
function prefixAtLine(text: string, chars: number): string {
  const cut = text.lastIndexOf('\n', chars - 1);
  return text.slice(0, cut > 0 ? cut + 1 : chars);
}
