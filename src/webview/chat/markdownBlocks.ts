import { Lexer, Marked, type MarkedOptions, type Token, type Tokens, type TokensList } from 'marked';

/** Escapes text for HTML. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The Markdown options: GitHub flavour, no raw HTML (shown as text), images as click-to-load placeholders. */
const OPTIONS: MarkedOptions = { gfm: true, breaks: false, async: false };

const marked = new Marked({
  gfm: true,
  breaks: false,
  async: false,
  renderer: {
    html: ({ text }: Tokens.HTML | Tokens.Tag) => escapeHtml(text),
    image: ({ href, text }: Tokens.Image) =>
      `<span class="image-placeholder" data-src="${escapeHtml(href)}" data-alt="${escapeHtml(text)}">${escapeHtml(text || href)}</span>`,
  },
});

/** Link definitions seen so far (`[1]: https://…`), so later blocks can use them. */
export type LinkMap = TokensList['links'];

/** Lexes Markdown into block tokens, knowing the link definitions of earlier blocks. */
export function lexBlocks(source: string, links: LinkMap): TokensList {
  const lexer = new Lexer(OPTIONS);
  Object.assign(lexer.tokens.links, links);
  return lexer.lex(source);
}

/** Renders block tokens to (unsanitised) HTML. */
export function renderBlocks(tokens: Token[], links: LinkMap): string {
  const list = Object.assign([...tokens], { links }) as TokensList;
  return marked.parser(list);
}

/**
 * The link definitions among `tokens` (`[ref]: https://…`). Only finished blocks' definitions may be kept for
 * later blocks: a definition still being written would otherwise shadow its complete form (the first wins).
 */
export function definitionsOf(tokens: Token[]): LinkMap {
  const links: LinkMap = {};
  for (const t of tokens) {
    if (t.type === 'def' && !(t.tag in links)) {
      links[t.tag] = { href: t.href, title: t.title };
    }
  }
  return links;
}

/** How a streamed text splits: blocks that are finished for good, and the tail still being written. */
export interface BlockSplit {
  /** Blocks no later text can change. */
  finished: Token[];
  /** Characters of the source the finished blocks cover. */
  finishedLength: number;
  /** The last block (and blank lines after it): more text may still extend or change it. */
  live: Token[];
}

/**
 * Splits the tokens of a growing text: every block before the last one with content is finished (a block
 * followed by another cannot change: a blank line or a new block closed it); the last block stays live.
 */
export function splitFinished(tokens: Token[]): BlockSplit {
  let last = tokens.length - 1;
  while (last >= 0 && tokens[last].type === 'space') {
    last--;
  }
  const cut = Math.max(0, last);
  const finished = tokens.slice(0, cut);
  return {
    finished,
    finishedLength: finished.reduce((sum, t) => sum + t.raw.length, 0),
    live: tokens.slice(cut),
  };
}

/** Markdown text as it may be lexed in pieces: line endings normalised (the lexer counts `\n` only). */
export function normaliseNewlines(text: string): string {
  return text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text;
}
