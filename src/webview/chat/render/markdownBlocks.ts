import { Lexer, type Token, type Tokens, type TokensList } from 'marked';
import { createMarked, escapeHtml } from '../../shared/markdown';
import { mathExtension, startDrawing } from './math';
import { asBlockLoop } from './mathScan';

/** Images as click-to-load placeholders (the page loads one through the host when it is clicked). */
const marked = createMarked(
  (href, text) =>
    `<span class="image-placeholder" data-src="${escapeHtml(href)}" data-alt="${escapeHtml(text)}">${escapeHtml(text || href)}</span>`,
);
// TeX math as MathML (math.ts); the lexer below reads the same options, extensions included.
marked.use(mathExtension);
const OPTIONS = marked.defaults;

/** Link definitions seen so far (`[1]: https://…`), so later blocks can use them. */
export type LinkMap = TokensList['links'];

/** An empty link map: no prototype, so a label such as `constructor` is not taken for a definition. */
export function newLinkMap(): LinkMap {
  return Object.create(null) as LinkMap;
}

/** marked's lexer, each run of its block loop (nested ones too: quotes, list items) marked as one for math.ts. */
class MathLexer extends Lexer {
  override blockTokens(src: string, tokens?: Token[], lastParagraphClipped?: boolean): Token[];
  override blockTokens(src: string, tokens?: TokensList, lastParagraphClipped?: boolean): TokensList;
  override blockTokens(src: string, tokens?: Token[] | TokensList, lastParagraphClipped?: boolean) {
    return asBlockLoop(() => super.blockTokens(src, tokens as Token[], lastParagraphClipped));
  }
}

/** Lexes Markdown into block tokens, knowing the link definitions of earlier blocks. */
export function lexBlocks(source: string, links: LinkMap): TokensList {
  const lexer = new MathLexer(OPTIONS);
  Object.assign(lexer.tokens.links, links);
  return lexer.lex(source);
}

/** Renders block tokens to (unsanitised) HTML: one drawing, whose formulas are bounded (math.ts). */
export function renderBlocks(tokens: Token[], links: LinkMap): string {
  startDrawing();
  const list = Object.assign([...tokens], { links }) as TokensList;
  return marked.parser(list);
}

/**
 * Adds the link definitions among `tokens` (`[ref]: https://…`, also inside quotes and list items) to `links`, the
 * first of a label winning as in the whole text, and returns the labels that were new. Only finished blocks'
 * definitions may be added: a definition still being written would otherwise shadow its complete form.
 */
export function addDefinitions(tokens: Token[], links: LinkMap): string[] {
  const added: string[] = [];
  const visit = (list: Token[]): void => {
    for (const t of list) {
      if (t.type === 'def') {
        if (!Object.hasOwn(links, t.tag)) {
          links[t.tag] = { href: t.href, title: t.title };
          added.push(t.tag);
        }
      } else if (t.type === 'blockquote' || t.type === 'list_item') {
        visit(t.tokens ?? []);
      } else if (t.type === 'list') {
        visit((t as Tokens.List).items);
      }
    }
  };
  visit(tokens);
  return added;
}

/** A bracketed text that may be a reference label (`[label]`, `[text][label]`, `![alt][label]`); no nested brackets. */
const BRACKETED = /\[((?:\\[\s\S]|[^\\[\]])*)\]/g;

/** A label as marked looks it up: trimmed, runs of white space as one space, case folded. */
export function normaliseLabel(label: string): string {
  return label.trim().replace(/\s+/g, ' ').toLowerCase().toUpperCase().toLowerCase();
}

/**
 * The labels Markdown text may refer to that `links` does not define yet: a definition arriving later (models often
 * put `[1]: https://…` at the end) changes how the text renders. Every bracketed text counts (an over-estimate,
 * which only costs a redraw that changes nothing).
 */
export function undefinedLabels(text: string, links: LinkMap): string[] {
  const labels = new Set<string>();
  if (text.includes(']')) {
    for (const match of text.matchAll(BRACKETED)) {
      const label = normaliseLabel(match[1]);
      if (label && !Object.hasOwn(links, label)) {
        labels.add(label);
      }
    }
  }
  return [...labels];
}

/** The text of blocks where a reference may be (code blocks cannot have one, though `a[1]` looks like it). */
export function proseOf(tokens: Token[]): string {
  let text = '';
  for (const t of tokens) {
    if (t.type !== 'code' && t.type !== 'space') {
      text += t.raw;
    }
  }
  return text;
}

/** How a streamed text splits: blocks that are finished for good, and the tail still being written. */
export interface BlockSplit {
  /** Blocks no later text can change (but for references they use that are defined later). */
  finished: Token[];
  /** Characters of the source the finished blocks cover. */
  finishedLength: number;
  /** The last block (and blank lines after it): more text may still extend or change it. */
  live: Token[];
}

/**
 * Splits the tokens of a growing text: every block before the last one with content is finished (a block
 * followed by another cannot change: a blank line or a new block closed it); the last block stays live. Two kinds of
 * block before it stay live with it, as the last block may still join them: a definition (its title may follow on
 * the next line) and a list (the last block may become its next item: `1. foo` / `2.` / `3. bar`).
 */
export function splitFinished(tokens: Token[]): BlockSplit {
  let cut = lastContent(tokens, tokens.length);
  const before = lastContent(tokens, cut);
  if (before >= 0 && (tokens[before].type === 'list' || (tokens[before].type === 'def' && before === cut - 1))) {
    cut = before;
  }
  cut = Math.max(0, cut);
  const finished = tokens.slice(0, cut);
  return {
    finished,
    finishedLength: finished.reduce((sum, t) => sum + t.raw.length, 0),
    live: tokens.slice(cut),
  };
}

/** The index of the last token before `end` that is not blank lines, or -1. */
function lastContent(tokens: Token[], end: number): number {
  let i = end - 1;
  while (i >= 0 && tokens[i].type === 'space') {
    i--;
  }
  return i;
}

/** Markdown text as it may be lexed in pieces: line endings normalised (the lexer counts `\n` only). */
export function normaliseNewlines(text: string): string {
  return text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text;
}
