import * as l10n from '@vscode/l10n';
import { h, iconButton } from '../../shared/dom';
import { holdSleep } from '../render';
import { pieceMatches } from './markdownMatch';
import './findBar.css';

/** The highlight names findBar.css styles (`::highlight(…)`): every match, and the one stepped to. */
const ALL = 'alpha-find';
const CURRENT = 'alpha-find-current';
/**
 * The most matches the bar marks, as VS Code's own find widget caps its count: a one-letter query in a long
 * conversation would otherwise make a range per letter. The count then says "10000+".
 */
export const MATCH_LIMIT = 10_000;

/** What the find bar needs from the page. */
export interface FindHost {
  /** The element whose messages are searched (the conversation log). */
  log: HTMLElement;
  /**
   * Draws what is not on the page yet that may hold `query` (folded): older messages not drawn yet, and sleeping
   * sections of long replies whose Markdown holds it. Settles once they are drawn.
   */
  reveal(query: string): Promise<void>;
  /** Tells a screen reader (the count, "No results"). */
  announce(text: string): void;
}

/**
 * Find in the conversation, for the side view (an editor tab has VS Code's own find widget): Ctrl+F opens a bar
 * that highlights every match in the messages' text and steps through them (Enter, Shift+Enter, the arrows); Esc
 * closes it and puts the view back where it was. Matches are marked with the CSS Custom Highlight API, so the
 * messages' elements are never changed; parts of a long reply that are asleep are drawn first (FindHost.reveal),
 * and stay awake while the bar is open.
 */
export class FindBar {
  readonly element: HTMLElement;
  private readonly input: HTMLInputElement;
  private readonly count: HTMLElement;
  private matches: Range[] = [];
  /** Whether there are more matches than `MATCH_LIMIT`, the ones marked. */
  private more = false;
  private current = -1;
  private restore: { view: ViewPlace; focus: Element | null } | undefined;
  /** Each search gets a number; a search that a newer one overtook while it waited draws nothing. */
  private generation = 0;

  constructor(private readonly host: FindHost) {
    this.input = h('input', {
      type: 'text',
      class: 'input find-input',
      'aria-label': l10n.t('Find in conversation'),
      placeholder: l10n.t('Find'),
      spellcheck: 'false',
    });
    this.count = h('span', { class: 'find-count', 'aria-hidden': 'true' });
    this.element = h(
      'div',
      { class: 'find-bar', role: 'search', 'aria-label': l10n.t('Find in conversation'), hidden: true },
      this.input,
      this.count,
      iconButton(l10n.t('Previous match'), 'arrow-up', () => this.step(-1), { class: 'icon-button find-previous' }),
      iconButton(l10n.t('Next match'), 'arrow-down', () => this.step(1), { class: 'icon-button find-next' }),
      iconButton(l10n.t('Close find'), 'close', () => this.close(), { class: 'icon-button find-close' }),
    );
    this.input.addEventListener('input', () => void this.search(true));
    this.element.addEventListener('keydown', (e) => this.onKeydown(e));
  }

  get isOpen(): boolean {
    return !this.element.hidden;
  }

  /** Opens the bar (or selects its text when open) and searches for what it holds. */
  open(): void {
    if (!this.isOpen) {
      this.restore = { view: viewPlace(this.host.log), focus: document.activeElement };
      this.element.hidden = false;
      holdSleep(true);
    }
    this.input.focus();
    this.input.select();
    if (this.input.value) {
      void this.search(false);
    }
  }

  /** Closes the bar: the highlights go, the view goes back to where it was and the focus to where it came from. */
  close(): void {
    if (!this.isOpen) {
      return;
    }
    this.generation++;
    this.element.hidden = true;
    holdSleep(false);
    this.clear();
    const restore = this.restore;
    this.restore = undefined;
    if (restore) {
      restoreView(this.host.log, restore.view);
      const back = restore.focus instanceof HTMLElement && restore.focus.isConnected ? restore.focus : this.host.log;
      back.focus({ preventScroll: true });
    }
  }

  /** The conversation was drawn again (a switch, a redraw): the matches are found again when the bar is open. */
  refresh(): void {
    if (this.isOpen && this.input.value) {
      void this.search(false);
    }
  }

  /** Finds every match of the bar's text; `fromStart` steps to the first one (typing), else keeps the place. */
  private async search(fromStart: boolean): Promise<void> {
    const generation = ++this.generation;
    const query = this.input.value;
    if (!query.trim()) {
      this.clear();
      this.showCount();
      return;
    }
    await this.host.reveal(query.toLocaleLowerCase());
    if (generation !== this.generation) {
      return;
    }
    const ranges = findRanges(this.host.log, query, MATCH_LIMIT + 1);
    this.more = ranges.length > MATCH_LIMIT;
    ranges.length = Math.min(ranges.length, MATCH_LIMIT);
    this.matches = ranges;
    if (typeof Highlight !== 'undefined' && CSS.highlights) {
      const all = new Highlight();
      for (const range of ranges) {
        all.add(range);
      }
      CSS.highlights.set(ALL, all);
    }
    this.current = ranges.length === 0 ? -1 : fromStart ? 0 : Math.min(Math.max(this.current, 0), ranges.length - 1);
    this.showCurrent();
  }

  /** Steps to the next (1) or previous (−1) match, round the ends. */
  private step(delta: 1 | -1): void {
    if (!this.matches.length) {
      return;
    }
    this.current = (this.current + delta + this.matches.length) % this.matches.length;
    this.showCurrent();
  }

  private showCurrent(): void {
    const range = this.matches[this.current];
    if (typeof Highlight !== 'undefined' && CSS.highlights) {
      if (range) {
        CSS.highlights.set(CURRENT, new Highlight(range));
      } else {
        CSS.highlights.delete(CURRENT);
      }
    }
    if (range) {
      scrollToRange(this.host.log, range);
    }
    this.showCount();
  }

  private showCount(): void {
    const text = !this.input.value.trim()
      ? ''
      : this.matches.length === 0
        ? l10n.t('No results')
        : this.more
          ? l10n.t('{0} of {1}+', this.current + 1, this.matches.length)
          : l10n.t('{0} of {1}', this.current + 1, this.matches.length);
    this.count.textContent = text;
    this.element.classList.toggle('no-results', this.input.value.trim() !== '' && this.matches.length === 0);
    if (text) {
      this.host.announce(text);
    }
  }

  private clear(): void {
    this.matches = [];
    this.more = false;
    this.current = -1;
    if (typeof Highlight !== 'undefined' && CSS.highlights) {
      CSS.highlights.delete(ALL);
      CSS.highlights.delete(CURRENT);
    }
  }

  private onKeydown(e: KeyboardEvent): void {
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      this.close();
    } else if ((e.key === 'Enter' && e.target === this.input) || e.key === 'F3') {
      e.preventDefault();
      this.step(e.shiftKey ? -1 : 1);
    }
  }
}

/** The parts of a message whose text is searched: prompts and replies, not toolbars, chips or notices. */
const SEARCHED = 'article .content';
/** Inside those, what is not the message's text (code blocks' toolbars). */
const NOT_TEXT = 'button, [aria-hidden="true"], .code-toolbar';

/** The elements whose text is one run for the search: a match may cross formatting inside one, not a block's end. */
const BLOCK = 'p, li, td, th, h1, h2, h3, h4, h5, h6, pre, blockquote, dt, dd, summary, .content';

/**
 * Every place `query` occurs (case ignored) in the text of the messages under `root`, in document order. Within a
 * block (a paragraph, a list item, a cell, a code block) a match may cross formatting: "an apple" finds
 * `An **Apple**`, and "call fetch" finds ``call `fetch` ``, as VS Code's own find widget does. It never crosses
 * from one block into the next. It stops after `limit` matches.
 */
export function findRanges(root: HTMLElement, query: string, limit = Infinity): Range[] {
  const needle = query.toLocaleLowerCase();
  const ranges: Range[] = [];
  if (!needle) {
    return ranges;
  }
  for (const container of root.querySelectorAll(SEARCHED)) {
    if (ranges.length >= limit) {
      break;
    }
    // The message's text nodes in order, and where a block ends between two of them.
    const nodes: Text[] = [];
    const breakBefore: boolean[] = [];
    let block: Element | null | undefined;
    const walker = document.createTreeWalker(container, NodeFilter.SHOW_TEXT, {
      acceptNode: (node) =>
        node.parentElement?.closest(NOT_TEXT) ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT,
    });
    for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
      const own = node.parentElement?.closest(BLOCK);
      breakBefore.push(block !== undefined && own !== block);
      block = own;
      nodes.push(node);
    }
    const pieces = nodes.map((node) => node.data);
    for (const match of pieceMatches(pieces, breakBefore, needle, limit - ranges.length)) {
      const range = document.createRange();
      range.setStart(nodes[match.first], match.start);
      range.setEnd(nodes[match.last], match.end);
      ranges.push(range);
    }
  }
  return ranges;
}

/**
 * Where the view was: at the end, or which element was at its top and how far down. A scroll offset alone would not
 * do: parts of a long reply woken for the search may now be taller or shorter than the height they slept at.
 */
interface ViewPlace {
  atEnd: boolean;
  scrollTop: number;
  anchor?: { element: Element; offset: number };
}

function viewPlace(log: HTMLElement): ViewPlace {
  const box = log.getBoundingClientRect();
  const atEnd = log.scrollHeight - log.scrollTop - log.clientHeight <= 2;
  const hit = document.elementFromPoint(box.left + Math.min(40, box.width / 2), box.top + 8);
  const anchor = hit && log.contains(hit) && hit !== log ? hit : undefined;
  return {
    atEnd,
    scrollTop: log.scrollTop,
    anchor: anchor && { element: anchor, offset: anchor.getBoundingClientRect().top - box.top },
  };
}

function restoreView(log: HTMLElement, place: ViewPlace): void {
  if (place.atEnd) {
    log.scrollTop = log.scrollHeight;
  } else if (place.anchor?.element.isConnected) {
    const top = place.anchor.element.getBoundingClientRect().top - log.getBoundingClientRect().top;
    log.scrollTop += top - place.anchor.offset;
  } else {
    log.scrollTop = place.scrollTop;
  }
}

/** Scrolls the log so the match is in view, in its middle when it was out of view. */
function scrollToRange(log: HTMLElement, range: Range): void {
  const element = range.startContainer.parentElement;
  if (!element) {
    return;
  }
  const box = range.getBoundingClientRect();
  const view = log.getBoundingClientRect();
  if (box.top < view.top || box.bottom > view.bottom || (box.top === 0 && box.bottom === 0)) {
    element.scrollIntoView({ block: 'center' });
  }
}
