import type { Token } from 'marked';
import { CLASS } from './classNames';
import { LateReferences } from './lateReferences';
import { lexBlocks, proseOf, renderBlocks, type LinkMap } from './markdownBlocks';
import { afterFrame, whenIdle, type Schedule } from './schedule';
import { safeFragment } from '../safeHtml';
import type { DecorateStage } from '../messages/codeBlocks';

/** What the renderer does to each rendered piece (code blocks wrapped; actions and highlighting, see DecorateStage). */
export type Decorate = (piece: DocumentFragment | HTMLElement, stage: DecorateStage) => void;

/**
 * Finished blocks are grouped in chunks of about this many; the page skips layout and paint of chunks off screen
 * (`content-visibility: auto` in render.css), so a reply of megabytes costs each frame no more than a short one.
 */
const BLOCKS_PER_CHUNK = 16;
/** Chunks are grouped in sections of this many, which the page skips as a whole and may put to sleep. */
const CHUNKS_PER_SECTION = 16;
/** As a streamed reply ends, its last this many chunks are decorated at once (about a screen of blocks or more). */
const END_CHUNKS = 4;
/**
 * Sections sleep only in a reply longer than this (about 60,000 elements drawn): in a shorter one every block stays
 * on the page, where find-in-page and screen readers reach it.
 */
const SLEEP_AFTER_CHARS = 512 * 1024;

/**
 * Whether the page tells when an element with `content-visibility: auto` starts or stops being drawn. Where it
 * does, chunks are decorated only when first shown, and sections far off screen sleep (see FinishedBlocks).
 */
export const TOLD_WHEN_SHOWN =
  typeof HTMLElement !== 'undefined' && 'oncontentvisibilityautostatechange' in HTMLElement.prototype;

/**
 * While held (the find bar is open), no section goes to sleep: the matches found in a woken section must stay on
 * the page while the user steps through them. Released, sections sleep again as they leave the view.
 */
let sleepHeld = false;

/** Holds every reply's sections, and every slice of older messages, awake (true) or lets them sleep again (false). */
export function holdSleep(held: boolean): void {
  sleepHeld = held;
}

/** Whether sleep is held (see holdSleep). */
export function sleepIsHeld(): boolean {
  return sleepHeld;
}

/** A section of chunks and where the Markdown its blocks were drawn from lies in the reply's text. */
interface Section {
  element: HTMLElement;
  start: number;
  end: number;
  /** Off screen, as the page last told. */
  skipped: boolean;
  /** Its blocks are not on the page: only its height is. */
  asleep: boolean;
  /** Its chunks while it is awake. */
  chunks: Chunk[];
}

/** A chunk of blocks and where the Markdown they were drawn from lies in the reply's text. */
interface Chunk {
  element: HTMLElement;
  start: number;
  end: number;
}

/**
 * The finished blocks of a reply, in chunks grouped in sections, kept cheap however long the reply grows:
 * - a chunk's code blocks are highlighted and get their toolbars when the chunk is first shown;
 * - in a reply of more than SLEEP_AFTER_CHARS, a section the page stops drawing (scrolled well out of view) goes to
 *   sleep when the page is idle: its elements leave the page and only its height stays; it is drawn again from its
 *   Markdown when it comes back into view. A reply of megabytes then keeps a few thousand elements on the page
 *   instead of hundreds of thousands, whose tracing by the garbage collector blocked the page for a second and more;
 * - a chunk that uses a reference label defined only later (`[1]: https://…` at the end of a reply) is drawn again
 *   when the definition is finished, so the reply ends as its whole text renders.
 */
export class FinishedBlocks {
  readonly element: HTMLElement;
  private readonly sections = new Map<Element, Section>();
  /** Characters of Markdown appended. */
  private chars = 0;
  /** The section blocks are appended to (never put to sleep). */
  private section: Section | undefined;
  private sectionChunks = 0;
  private chunk: Chunk | undefined;
  private chunkBlocks = 0;
  private readonly late = new LateReferences<Chunk>();
  /** Chunks not decorated yet that the page draws now (see decorateShown). */
  private readonly shown = new WeakSet<HTMLElement>();

  constructor(
    private readonly decorate: Decorate,
    /** The reply's text that the blocks appended so far were lexed from: a sleeping section is drawn again from it. */
    private readonly text: () => string,
    private readonly links: () => LinkMap,
    private readonly schedule: Schedule = whenIdle,
  ) {
    this.element = document.createElement('div');
    this.element.className = CLASS.blocks;
    if (TOLD_WHEN_SHOWN) {
      // The event does not bubble; a capturing listener sees it for every chunk and section of this reply.
      this.element.addEventListener('contentvisibilityautostatechange', (event) => this.stateChanged(event), true);
    }
  }

  /** Takes every block off. */
  clear(): void {
    this.sections.clear();
    this.chars = 0;
    this.section = undefined;
    this.chunk = undefined;
    this.late.clear();
    this.element.replaceChildren();
  }

  /**
   * Renders finished blocks and appends them, a chunk of at most BLOCKS_PER_CHUNK blocks at a time. Their text must
   * follow the text of the blocks appended before, and `text()` must have it. They were lexed with `lexed`; `added`
   * are the labels their definitions added to `links()`: chunks that used one are drawn again.
   */
  append(tokens: Token[], lexed: LinkMap, added: readonly string[]): void {
    const sleptBefore = this.sleeps;
    for (let i = 0; i < tokens.length;) {
      if (!this.chunk || !this.section || this.chunkBlocks >= BLOCKS_PER_CHUNK) {
        if (!this.section || this.sectionChunks >= CHUNKS_PER_SECTION) {
          this.startSection();
        }
        const section = this.section as Section;
        this.chunk = newChunk(this.chars);
        section.chunks.push(this.chunk);
        section.element.append(this.chunk.element);
        this.sectionChunks++;
        this.chunkBlocks = 0;
      }
      const [end, blocks] = batchEnd(tokens, i, BLOCKS_PER_CHUNK - this.chunkBlocks);
      const batch = tokens.slice(i, end);
      this.fill(this.chunk, batch, lexed);
      // The tokens' raw text is what the lexer consumed: their lengths add up to the reply's text.
      this.chars += batch.reduce((sum, t) => sum + t.raw.length, 0);
      this.chunk.end = this.chars;
      (this.section as Section).end = this.chars;
      this.chunkBlocks += blocks;
      i = end;
    }
    for (const chunk of this.late.defined(added)) {
      this.redraw(chunk);
    }
    if (this.sleeps && !sleptBefore) {
      // The reply just grew long enough: the sections already out of view sleep now.
      for (const section of this.sections.values()) {
        if (section.skipped) {
          this.sleepSoon(section);
        }
      }
    }
  }

  /**
   * The reply ended: chunks drawn with a definition that was still being written are drawn again, and, when it
   * `streamed`, the chunks at its end are decorated now. While it streamed, a chunk waited for an idle moment so that
   * those streaming past were not highlighted; nothing streams past now, and the reader is looking at its last chunk:
   * waiting for idle (after the page's other messages and a frame) put the reply's last change tens of milliseconds
   * after its end. A long reply drawn from history keeps waiting until its chunks are shown.
   */
  settle(streamed: boolean): void {
    for (const chunk of this.late.unsettled()) {
      this.redraw(chunk);
    }
    if (!streamed) {
      return;
    }
    // The chunks of its last two sections that the page shows (the last may hold one short chunk), and its last
    // END_CHUNKS chunks, shown or not yet: the end's final frame may have added several, which the page has not
    // told about yet, and the view follows the end.
    const chunks = [...this.sections.values()].slice(-2).flatMap((section) => section.chunks);
    chunks.forEach((chunk, i) => {
      if (i >= chunks.length - END_CHUNKS || this.shown.has(chunk.element)) {
        this.decorateShown(chunk.element, true);
      }
    });
  }

  /**
   * Renders blocks lexed with `lexed` into a chunk, decorated as far as the chunk was shown: a chunk already shown is
   * not told again, so blocks added to it are decorated in full as they come.
   */
  private fill(chunk: Chunk, tokens: Token[], lexed: LinkMap): void {
    const links = this.links();
    const fragment = safeFragment(renderBlocks(tokens, links));
    this.decorate(fragment, stageOf(chunk));
    chunk.element.append(fragment);
    this.late.note(chunk, proseOf(tokens), links, lexed);
  }

  /** Draws a chunk again from its Markdown with the definitions known now. */
  private redraw(chunk: Chunk): void {
    const links = this.links();
    const tokens = lexBlocks(this.text().slice(chunk.start, chunk.end), links);
    const fragment = safeFragment(renderBlocks(tokens, links));
    this.decorate(fragment, stageOf(chunk));
    chunk.element.replaceChildren(fragment);
    this.late.note(chunk, proseOf(tokens), links, links);
  }

  /** Whether sections out of view sleep (the reply is long enough). */
  private get sleeps(): boolean {
    return this.chars > SLEEP_AFTER_CHARS;
  }

  private startSection(): void {
    const previous = this.section;
    const element = document.createElement('div');
    element.className = CLASS.section;
    this.section = { element, start: this.chars, end: this.chars, skipped: false, asleep: false, chunks: [] };
    this.sections.set(element, this.section);
    this.sectionChunks = 0;
    this.element.append(element);
    if (previous?.skipped && this.sleeps) {
      this.sleepSoon(previous);
    }
  }

  private stateChanged(event: Event): void {
    const target = event.target as HTMLElement;
    const skipped = (event as ContentVisibilityAutoStateChangeEvent).skipped;
    if (target.classList.contains(CLASS.plain)) {
      if (skipped) {
        this.shown.delete(target);
      } else {
        this.shown.add(target);
        this.schedule(() => this.decorateShown(target));
      }
      return;
    }
    const section = this.sections.get(target);
    if (!section) {
      return;
    }
    section.skipped = skipped;
    if (skipped && this.sleeps) {
      this.sleepSoon(section);
    } else if (section.asleep) {
      this.wake(section);
    }
  }

  /**
   * Decorates a chunk (code highlighted, toolbars) once the page is idle, if it is still shown then (or `now`, as the
   * reply ends): while a fast reply streams past, the chunks scrolled through are not highlighted for a moment each,
   * only those that stay.
   */
  private decorateShown(chunk: HTMLElement, now = false): void {
    if ((now || this.shown.has(chunk)) && chunk.classList.contains(CLASS.plain)) {
      chunk.classList.remove(CLASS.plain);
      this.decorate(chunk, 'final');
    }
  }

  /**
   * Wakes every sleeping section whose Markdown `holds` says may hold what is looked for (find in the conversation):
   * its blocks are drawn again now, so the page's text can be searched. Returns how many woke.
   */
  wakeWhere(holds: (markdown: string) => boolean): number {
    let woke = 0;
    const text = this.text();
    for (const section of this.sections.values()) {
      if (section.asleep && holds(text.slice(section.start, section.end))) {
        this.wake(section);
        woke++;
      }
    }
    return woke;
  }

  /** Puts a section to sleep when the page is idle, if it is still off screen then. */
  private sleepSoon(section: Section): void {
    this.schedule(() => {
      if (sleepHeld || !section.skipped || section.asleep || section === this.section || !section.element.isConnected) {
        return;
      }
      // A skipped section has the size it had when last drawn (contain-intrinsic-size: auto); it keeps it.
      section.element.style.height = `${section.element.getBoundingClientRect().height}px`;
      section.element.replaceChildren();
      for (const chunk of section.chunks) {
        this.late.forget(chunk);
      }
      section.chunks = [];
      section.asleep = true;
    });
  }

  /** Draws a section again from its Markdown (it comes into view): laid out in full once, then chunks skip again. */
  private wake(section: Section): void {
    const links = this.links();
    const tokens = lexBlocks(this.text().slice(section.start, section.end), links);
    let start = section.start;
    for (let i = 0; i < tokens.length;) {
      const [end] = batchEnd(tokens, i, BLOCKS_PER_CHUNK);
      const batch = tokens.slice(i, end);
      const chunk = newChunk(start);
      start += batch.reduce((sum, t) => sum + t.raw.length, 0);
      chunk.end = start;
      this.fill(chunk, batch, links);
      section.chunks.push(chunk);
      section.element.append(chunk.element);
      i = end;
    }
    section.asleep = false;
    section.element.classList.add(CLASS.measuring);
    section.element.style.height = '';
    afterFrame(() => section.element.classList.remove(CLASS.measuring));
  }
}

/** Where a batch of at most `room` blocks that starts at `start` ends, and how many blocks it has (blank lines are none). */
function batchEnd(tokens: Token[], start: number, room: number): [number, number] {
  let blocks = 0;
  let end = start;
  while (end < tokens.length && (blocks < room || tokens[end].type === 'space')) {
    blocks += tokens[end].type === 'space' ? 0 : 1;
    end++;
  }
  return [end, blocks];
}

function newChunk(start: number): Chunk {
  const element = document.createElement('div');
  element.className = TOLD_WHEN_SHOWN ? `${CLASS.chunk} ${CLASS.plain}` : CLASS.chunk;
  return { element, start, end: start };
}

/** How far a chunk's blocks are decorated: not at all until it is first shown. */
function stageOf(chunk: Chunk): DecorateStage {
  return chunk.element.classList.contains(CLASS.plain) ? 'plain' : 'final';
}
