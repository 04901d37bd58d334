/**
 * What a screen reader is told when a reply ends, from the reply's Markdown. Free of the DOM, so unit tests run it
 * in Node. `alphaAxo.chat.announceReplies` picks how much: the first sentence (or the whole reply when it is short),
 * the whole reply, or only that it started and ended.
 */
import * as l10n from '@vscode/l10n';
import { trimEndOf } from '../../shared/trimChars';

/** The values of `alphaAxo.chat.announceReplies`. */
export type AnnounceMode = 'firstSentence' | 'whole' | 'startAndEnd';

/** A reply this long or shorter is read whole in the `firstSentence` mode. */
export const WHOLE_REPLY_CHARS = 300;

/** Whether a value from the settings is a mode (anything else falls back to `firstSentence`). */
export function isAnnounceMode(value: unknown): value is AnnounceMode {
  return value === 'firstSentence' || value === 'whole' || value === 'startAndEnd';
}

/**
 * The reply as it would be read aloud: code blocks become "(code block)", links keep their text, and Markdown marks
 * (headings, emphasis, list bullets, quotes, tables' pipes) go; whitespace collapses to single spaces.
 */
export function spokenText(markdown: string): string {
  const lines = markdown
    .replace(/\r\n?/g, '\n')
    // A fence that is never closed runs to the end of the reply (`(?![\s\S])`: `$` would end it at its first line).
    // A run of fence characters is taken whole (the lookaheads), so a long one is never split to retry.
    .replace(
      /^ {0,3}(`{3,}(?!`)|~{3,}(?!~))[^\n]*\n[\s\S]*?(?:\n {0,3}\1[^\n]*|(?![\s\S]))/gm,
      () => ` ${l10n.t('(code block)')}\n`,
    )
    .replace(IMAGE, '$1')
    .replace(LINK, '$1')
    .split('\n');
  // Line by line, with patterns that stay on their line: white space that spans line ends let a run of blank lines
  // be rescanned from each of its lines (3,000 blank lines took seconds).
  return unwrapPairs(lines.map(spokenLine).join('\n'))
    .replace(/(^|[^\w*])[*_](?=\S)([^*_\n]*?\S)[*_](?![\w*])/g, '$1$2')
    .replace(/`([^`\n]+)`/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The characters whose pairs (`**`, `__`, `~~`) mark what they hold: strong emphasis (both spellings), strike-through. */
const PAIRED = [42, 95, 126];

/**
 * `**…**`, `__…__` and `~~…~~` replaced by what they hold, as `/(\*\*|__|~~)(?=\S)([\s\S]*?\S)\1/g` did: a mark
 * followed by a character that is not white space opens, and the first same mark after it that follows such a
 * character (one character in at least) closes; an opener without a closer stays as written. The pattern searched the
 * rest of the text for a closer from each opener (`**a ` repeated 40,000 times took 14 s); here the closers of each
 * kind are listed once and a pointer moves through them.
 */
function unwrapPairs(text: string): string {
  const closers = new Map<number, number[]>(PAIRED.map((mark) => [mark, []]));
  for (let at = 1; at < text.length - 1; at++) {
    const list = markAt(text, at) && closers.get(text.charCodeAt(at));
    if (list && !isSpace(text, at - 1)) {
      list.push(at);
    }
  }
  const next = new Map<number, number>(PAIRED.map((mark) => [mark, 0]));
  let out = '';
  let done = 0;
  for (let at = 0; at < text.length - 2;) {
    const mark = text.charCodeAt(at);
    const list = markAt(text, at) && !isSpace(text, at + 2) ? closers.get(mark) : undefined;
    if (list) {
      let k = next.get(mark) ?? 0;
      while (k < list.length && list[k] < at + 3) {
        k++;
      }
      next.set(mark, k);
      if (k < list.length) {
        out += text.slice(done, at) + text.slice(at + 2, list[k]);
        done = at = list[k] + 2;
        continue;
      }
    }
    at++;
  }
  return done ? out + text.slice(done) : text;
}

/** Whether a pair of the same paired mark starts at `at`. */
function markAt(text: string, at: number): boolean {
  const c = text.charCodeAt(at);
  return (c === 42 || c === 95 || c === 126) && text.charCodeAt(at + 1) === c;
}

/** Whether the character at `at` is white space as `\s` reads it (printable ASCII is not). */
function isSpace(text: string, at: number): boolean {
  const c = text.charCodeAt(at);
  return c > 32 && c < 127 ? false : /\s/.test(text[at]);
}

/**
 * A link's target: one level of balanced parentheses (`…/Foo_(bar)`), no other `(`, so a scan from one `](` stops at
 * the next and text full of `](` is read in linear time.
 */
const TARGET = String.raw`\((?:[^()]|\([^()]*\))*\)`;
/** An image (`![alt](src)`): its alt text is kept. The text holds no `[`, so a run of `[` is not rescanned. */
const IMAGE = new RegExp(String.raw`!\[([^\][]*)\]` + TARGET, 'g');
/** A link (`[text](href)`): its text is kept. */
const LINK = new RegExp(String.raw`\[([^\][]+)\]` + TARGET, 'g');

/** One line of a reply as read aloud: a heading's marks, a quote's, a list bullet and a table's rule go. */
function spokenLine(line: string): string {
  const heading = /^ {0,3}#{1,6}[ \t]/.exec(line);
  if (heading) {
    // The closing sequence of `#`s (CommonMark) and the white space around the title.
    return `${trimEndOf(line.slice(heading[0].length).trimEnd(), '#').trim()}.`;
  }
  if (isTableRule(line)) {
    return '';
  }
  return line
    .replace(/^ {0,3}>[ \t]?/, '')
    .replace(/^[ \t]*(?:[-*+]|\d+[.)])[ \t]+/, '')
    .replace(/\|/g, ' ');
}

/** A table's delimiter row (`| --- | :-: |`): only pipes, dashes, colons and blanks, with a pipe and a dash. */
function isTableRule(line: string): boolean {
  return /^[ \t:|-]+$/.test(line) && line.includes('|') && line.includes('-');
}

/** The first sentence of a spoken text (up to `.`, `!`, `?` or `…` followed by a space), at most 300 characters. */
export function firstSentence(text: string): string {
  const match = /^[\s\S]*?[.!?…](?=\s|$)/.exec(text);
  const sentence = (match ? match[0] : text).trim();
  return sentence.length > WHOLE_REPLY_CHARS ? `${sentence.slice(0, WHOLE_REPLY_CHARS - 1).trimEnd()}…` : sentence;
}

/**
 * In the `whole` mode, at most this many characters are read: a reply of megabytes is not something a live region
 * can say (screen readers cut or queue it for minutes); the rest is in the reply, where the reader can move.
 */
export const WHOLE_MODE_MAX_CHARS = 10_000;

/** Markdown prefixes tried, in characters, before the whole reply (see `spokenStart`). */
const PREFIX_STEPS = [8_192, 131_072, 1_048_576];

/** Spoken characters read past what is used, so that a cut's effect on the end of a prefix is never used. */
const PREFIX_MARGIN_CHARS = 200;

/**
 * The spoken text of the reply's start, long enough for `need` characters: the Markdown is cut at a paragraph (else a
 * line) end and only that prefix is read. Reading a 5 MB reply whole took 0.3–0.9 s in the task that ends the stream
 * (`npm run bench -- loadWebview`), for an announcement of one sentence. `complete` says the whole reply was read.
 * A margin past `need` keeps what a cut changes (an emphasis or a fence that closes after it) out of what is used.
 */
export function spokenStart(markdown: string, need: number): { text: string; complete: boolean } {
  for (const limit of PREFIX_STEPS) {
    if (markdown.length <= limit) {
      break;
    }
    let cut = markdown.lastIndexOf('\n\n', limit);
    if (cut < limit / 2) {
      cut = markdown.lastIndexOf('\n', limit);
    }
    if (cut <= 0) {
      continue;
    }
    const text = spokenText(markdown.slice(0, cut));
    if (text.length > need + PREFIX_MARGIN_CHARS) {
      return { text, complete: false };
    }
  }
  return { text: spokenText(markdown), complete: true };
}

/** The end announcement of a reply that finished normally, in the chosen mode. */
export function replyAnnouncement(markdown: string, mode: AnnounceMode): string {
  if (mode === 'startAndEnd') {
    return l10n.t('ALPHA replied.');
  }
  const { text: spoken, complete } = spokenStart(markdown, mode === 'whole' ? WHOLE_MODE_MAX_CHARS : WHOLE_REPLY_CHARS);
  if (spoken === '') {
    return l10n.t('ALPHA replied.');
  }
  if (mode === 'whole') {
    if (complete && spoken.length <= WHOLE_MODE_MAX_CHARS) {
      return l10n.t('ALPHA replied: {0}', spoken);
    }
    const start = `${spoken.slice(0, WHOLE_MODE_MAX_CHARS).trimEnd()}…`;
    return l10n.t('ALPHA replied: {0}', `${start} ${l10n.t('The rest is in the reply.')}`);
  }
  const said = complete && spoken.length <= WHOLE_REPLY_CHARS ? spoken : firstSentence(spoken);
  return l10n.t('ALPHA replied: {0}', said);
}
