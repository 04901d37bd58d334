/**
 * Where math begins, found in one pass over a text however often marked asks: the lexer asks at every token (inline)
 * and at every block (formula blocks), each time with the rest of the text, so a scan to the text's end per question
 * made a paragraph of 100,000 escapes or 16,000 lines of `$$x` take seconds (quadratic). Each scan here remembers,
 * per run of marked's lexing loop (its later questions are suffixes of its text), what it found, as distances from
 * the text's end, which a suffix shares: inline runs are told apart by their token lists, block runs by asBlockLoop.
 */

/** The token list marked lexes into and the text our tokenizer was last given for it. */
interface Place {
  src: string;
  tokens: object;
}

/** Changed in place: marked asks at every character of a paragraph, and an object per question cost collections. */
const inlinePlace: Place = { src: '', tokens: {} };
const blockPlace: Place = { src: '', tokens: {} };

/**
 * Notes the text the inline tokenizer is given (marked calls it first at each step, with the same text its
 * `start` then gets less its first character; no other lexing runs between the two).
 */
export function noteInlinePlace(src: string, tokens: object): void {
  inlinePlace.src = src;
  inlinePlace.tokens = tokens;
}

/**
 * One object per run of marked's block loop, innermost last. A block loop's token list does not name it: a quote
 * lexes each of its lazily continued parts into one list, each part a new text.
 */
const blockLoops: object[] = [];

/** Runs `lex` (a run of marked's block loop) as a loop of its own for noteBlockPlace. */
export function asBlockLoop<T>(lex: () => T): T {
  blockLoops.push({});
  try {
    return lex();
  } finally {
    blockLoops.pop();
  }
}

/**
 * Notes the text the block tokenizer is given (as noteInlinePlace, for blocks, the heading rule and `start`), in the
 * innermost block loop (none outside asBlockLoop: then every question is answered by a scan of its own).
 */
export function noteBlockPlace(src: string): void {
  const loop = blockLoops.at(-1);
  blockPlace.src = loop ? src : '';
  blockPlace.tokens = loop ?? {};
}

/** The token list being lexed when `text` is the noted text less its first `dropped` characters. */
function listOf(place: Place, text: string, dropped: number): object | undefined {
  return place.src.length === text.length + dropped && place.src ? place.tokens : undefined;
}

/** What an inline scan found: from how far before the end it ran, and how far before the end the opener is (-1: none). */
interface InlineScan {
  from: number;
  opener: number;
}
const inlineScans = new WeakMap<object, InlineScan>();

/** Where the first `$` or `\(` is in `rest` (the inline `start`), scanning each text of one token list once. */
export function firstInlineOpener(rest: string): number | undefined {
  const tokens = listOf(inlinePlace, rest, 1);
  const length = rest.length;
  const known = tokens && inlineScans.get(tokens);
  if (known && known.from >= length && known.opener <= length) {
    return known.opener < 0 ? undefined : length - known.opener;
  }
  const at = rest.search(/\$|\\\(/);
  if (tokens) {
    inlineScans.set(tokens, { from: length, opener: at < 0 ? -1 : length - at });
  }
  return at < 0 ? undefined : at;
}

/** A `\)` scan: from how far before the end it ran, where it goes on, and the closer it found (-1: none yet). */
interface CloserScan {
  from: number;
  next: number;
  closer: number;
}
const closerScans = new WeakMap<object, CloserScan>();

/**
 * The index of the `\)` closing the `\(` at the start of `src` (at most `max` characters in), or -1. A backslash
 * escapes the next character, so whether a `\)` closes depends only on the run of backslashes it ends (every scan
 * enters a run at its first backslash): one scan, carried on across the openers of one token list, answers them all
 * (`\(a ` repeated scanned `max` characters for each).
 */
export function parenCloser(src: string, tokens: object | undefined, max: number): number {
  const length = src.length;
  let scan = tokens && closerScans.get(tokens);
  if (!scan || scan.from < length - 2) {
    scan = { from: length - 2, next: length - 2, closer: -1 };
  }
  const last = Math.max(length - Math.min(length, 2 + max) + 1, 0); // the closer's backslash is before this
  if (scan.closer > length - 2) {
    scan.closer = -1; // behind this opener's text
  }
  while (scan.closer < 0 && scan.next > last) {
    const i = length - scan.next;
    if (src.charCodeAt(i) === BACKSLASH) {
      if (src.charCodeAt(i + 1) === CLOSE_PAREN && scan.next <= length - 2) {
        scan.closer = scan.next;
      }
      scan.next -= 2;
    } else {
      scan.next -= 1;
    }
  }
  if (tokens) {
    closerScans.set(tokens, scan);
  }
  return scan.closer > last ? length - scan.closer : -1;
}

const BACKSLASH = 92;
const CLOSE_PAREN = 41;

/** A formula block's opener at the start of a line (up to three spaces in). */
export const BLOCK_OPENER = /^ {0,3}(\$\$|\\\[)/;

/** The openers of formula blocks that close, in one paragraph, as distances from the text's end. */
interface BlockScan {
  /** How far before the end the scanned text began. */
  from: number;
  /** How far before the end the line break of the blank line that ends the paragraph is (0: the text's end). */
  stop: number;
  /** The line starts of the openers that close, in order. */
  closed: number[];
  /** The first of `closed` not yet behind the questions asked. */
  cursor: number;
  /** The line starts of the openers that meet a blank line before their closer (and so are no formula). */
  blank: Set<number>;
}
const blockScans = new WeakMap<object, BlockScan>();

/**
 * Where the first formula block that closes begins in `src`, on a later line of the same paragraph (ended by a line
 * of only spaces and tabs): the block `start` and the heading rule ask this at every block of the paragraph, each
 * with the block's text less its first character.
 */
export function closedBlockStart(src: string): number | undefined {
  const tokens = listOf(blockPlace, src, 1);
  const length = src.length;
  let scan = tokens && blockScans.get(tokens);
  if (!scan || scan.from < length || scan.stop > length) {
    scan = scanBlocks(src);
    if (tokens) {
      blockScans.set(tokens, scan);
    }
  }
  while (scan.cursor < scan.closed.length && scan.closed[scan.cursor] > length - 1) {
    scan.cursor++;
  }
  return scan.cursor < scan.closed.length ? length - scan.closed[scan.cursor] : undefined;
}

/**
 * Whether the formula block opened at the start of `src` (the block tokenizer's text, noted) meets a blank line before
 * its closer, as a scan of its paragraph already found: then it is no formula, and is not scanned again for each block
 * after it (a paragraph of `\[ a` lines between closed formulas took each one's scan to the blank line).
 */
export function endsBlank(src: string): boolean {
  const tokens = listOf(blockPlace, src, 0);
  const scan = tokens && blockScans.get(tokens);
  return !!scan && scan.from >= src.length && scan.blank.has(src.length);
}

/** An opener still looking for its closer: its line's start and where its TeX begins. */
interface Open {
  at: number;
  from: number;
}

/**
 * One pass over the paragraph starting at `text`'s second line. A block closes at the first later line ending with
 * its closer (or on its own line, past the opener and one character), if TeX stands between; a line blank to
 * `trim()` ends every open block. All open blocks of a kind close on the same line, and those whose TeX begins at or
 * before the last character that is not white space hold some: no block is scanned twice.
 */
function scanBlocks(text: string): BlockScan {
  const length = text.length;
  const closed: number[] = [];
  const open: Record<'$$' | '\\]', Open[]> = { $$: [], '\\]': [] };
  const blank = new Set<number>();
  let lastInk = -1;
  let stop = length;
  const endAll = (): void => {
    for (const o of [...open.$$, ...open['\\]']]) {
      blank.add(length - o.at);
    }
    open.$$ = [];
    open['\\]'] = [];
  };
  for (let eol = text.indexOf('\n'); eol >= 0;) {
    const start = eol + 1;
    const next = text.indexOf('\n', start);
    const end = next < 0 ? length : next;
    const line = text.slice(start, end).trimEnd();
    if (next >= 0 && !line.trim()) {
      endAll();
      if (/^[ \t]*$/.test(text.slice(start, end))) {
        stop = eol;
        break;
      }
    } else if (line.trim()) {
      for (const closer of ['$$', '\\]'] as const) {
        if (line.endsWith(closer) && open[closer].length) {
          const inkBefore = lastInkIn(text, start, start + line.length - 2, lastInk);
          open[closer].forEach((o) => o.from <= inkBefore && closed.push(o.at));
          open[closer] = [];
        }
      }
      const opener = BLOCK_OPENER.exec(line);
      if (opener) {
        const closer = opener[1] === '$$' ? '$$' : '\\]';
        const rest = line.slice(opener[0].length);
        if (rest.length >= 3 && rest.endsWith(closer)) {
          if (rest.slice(0, -2).trim()) {
            closed.push(start);
          }
        } else {
          open[closer].push({ at: start, from: start + opener[0].length });
        }
      }
      lastInk = lastInkIn(text, start, start + line.length, lastInk);
    }
    eol = next;
  }
  closed.sort((a, b) => a - b);
  return { from: length, stop: length - stop, closed: closed.map((at) => length - at), cursor: 0, blank };
}

/** The index of the last character that is not white space in `text[from, to)`, else `before`. */
function lastInkIn(text: string, from: number, to: number, before: number): number {
  const kept = text.slice(from, to).trimEnd().length;
  return kept ? from + kept - 1 : before;
}
