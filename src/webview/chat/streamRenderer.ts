import type { Token } from 'marked';
import {
  definitionsOf,
  lexBlocks,
  normaliseNewlines,
  renderBlocks,
  splitFinished,
  type LinkMap,
} from './markdownBlocks';
import { safeFragment } from './safeHtml';

/**
 * Finished blocks are grouped in chunks of about this many; the page skips layout and paint of chunks off screen
 * (`content-visibility: auto` in chat.css), so a reply of megabytes costs each frame no more than a short one.
 */
const BLOCKS_PER_CHUNK = 32;

/** What the renderer does to each rendered piece (code block actions, highlighting when final). */
export type Decorate = (fragment: DocumentFragment, final: boolean) => void;

/** Renders a whole Markdown text at once (messages loaded from history). */
export function renderMarkdownInto(container: HTMLElement, markdown: string, decorate: Decorate): void {
  const links: LinkMap = {};
  const tokens = lexBlocks(normaliseNewlines(markdown), links);
  const fragment = safeFragment(renderBlocks(tokens, tokens.links));
  decorate(fragment, true);
  container.replaceChildren(fragment);
}

/**
 * Renders a streamed Markdown reply incrementally. Deltas are only collected; the work happens once per animation
 * frame, and only on the tail that is not yet finished: the tail is lexed, every block but the last is finished
 * (rendered, sanitised, highlighted and appended once, never parsed again), and the last block is rendered again
 * into the live element. The cost of a frame depends on the size of the last block, not on the reply's length.
 */
export class StreamRenderer {
  private text = '';
  /** A `\r` at the end of a delta, kept until the next one shows whether a `\n` follows. */
  private heldCr = false;
  /** How much of `text` the finished blocks cover. */
  private finishedEnd = 0;
  private links: LinkMap = {};
  private frame = 0;
  private readonly finishedEl: HTMLElement;
  private chunk: HTMLElement | undefined;
  private chunkBlocks = 0;
  private readonly liveEl: HTMLElement;

  constructor(
    container: HTMLElement,
    private readonly decorate: Decorate,
    /** Called after each frame's render (the page keeps the view pinned to the bottom). */
    private readonly onRendered: () => void,
    private readonly requestFrame: (callback: () => void) => number = (cb) => requestAnimationFrame(cb),
    private readonly cancelFrame: (handle: number) => void = (handle) => cancelAnimationFrame(handle),
  ) {
    this.finishedEl = document.createElement('div');
    this.finishedEl.className = 'blocks';
    this.liveEl = document.createElement('div');
    this.liveEl.className = 'live-block';
    container.replaceChildren(this.finishedEl, this.liveEl);
  }

  /** The text so far. */
  get source(): string {
    return this.text;
  }

  /** Sets the text that already arrived (a page drawn mid-stream) and renders it on the next frame. */
  reset(text: string): void {
    this.text = normaliseNewlines(text);
    this.finishedEnd = 0;
    this.links = {};
    this.chunk = undefined;
    this.finishedEl.replaceChildren();
    this.liveEl.replaceChildren();
    this.schedule();
  }

  /** Adds a delta; it is drawn on the next animation frame together with any others that arrive before it. */
  append(delta: string): void {
    let piece = this.heldCr ? `\r${delta}` : delta;
    this.heldCr = piece.endsWith('\r');
    if (this.heldCr) {
      piece = piece.slice(0, -1);
    }
    this.text += normaliseNewlines(piece);
    this.schedule();
  }

  /** The reply ended: render what is left as finished blocks, now. */
  finish(): void {
    if (this.frame) {
      this.cancelFrame(this.frame);
      this.frame = 0;
    }
    if (this.heldCr) {
      this.heldCr = false;
      this.text += '\n';
    }
    this.appendFinished(lexBlocks(this.text.slice(this.finishedEnd), this.links));
    this.finishedEnd = this.text.length;
    this.liveEl.remove();
    this.onRendered();
  }

  private schedule(): void {
    if (!this.frame) {
      this.frame = this.requestFrame(() => {
        this.frame = 0;
        this.render();
      });
    }
  }

  /** One frame: finish the blocks that are complete, draw the last one again. */
  private render(): void {
    const tail = this.text.slice(this.finishedEnd);
    const tokens = lexBlocks(tail, this.links);
    const split = splitFinished(tokens);
    if (split.finished.length) {
      this.appendFinished(split.finished);
      this.finishedEnd += split.finishedLength;
    }
    const live = safeFragment(renderBlocks(split.live, tokens.links));
    this.decorate(live, false);
    this.liveEl.replaceChildren(live);
    this.onRendered();
  }

  private appendFinished(tokens: Token[]): void {
    this.links = { ...definitionsOf(tokens), ...this.links };
    if (!tokens.length) {
      return;
    }
    const fragment = safeFragment(renderBlocks(tokens, this.links));
    this.decorate(fragment, true);
    if (!this.chunk || this.chunkBlocks >= BLOCKS_PER_CHUNK) {
      this.chunk = document.createElement('div');
      this.chunk.className = 'chunk';
      this.finishedEl.append(this.chunk);
      this.chunkBlocks = 0;
    }
    this.chunkBlocks += fragment.childNodes.length;
    this.chunk.append(fragment);
  }
}
