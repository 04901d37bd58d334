import {
  foldText,
  queryTerms,
  searchedMessages,
  snippetFor,
  type ConversationMatch,
  type Searchable,
} from './conversationSearch';

/** Stands between two messages' texts: never in a query term, so no match spans two messages. */
const SEPARATOR = '\u0000';
const SEPARATORS = /\u0000/g;
/** 2: the folded texts beside the texts as written, as bytes (1 held only the texts). */
const FORMAT = 2;

/**
 * One conversation's text as the search index keeps it on disk: every message's text (the path, then the other
 * branches: allMessages' order) with the conversation's `updatedAt` and message count, to tell when it is stale.
 */
export interface SearchText {
  id: string;
  updatedAt: number;
  /** The number of messages on the path (ConversationSummary.messageCount). */
  messageCount: number;
  title: string;
  /** One letter per message of `body`: `u` for the user's, `a` for ALPHA's. */
  roles: string;
  /** The messages' texts, separated by U+0000 (a U+0000 in a text is kept as a space: same length). */
  body: string;
}

/**
 * A conversation's text as it is searched: its messages' texts folded (lower case, no accents) beside the texts as
 * written, both UTF-8 with a 0 byte between two messages, so a query is a byte search with no decoding, and only the
 * message a snippet is cut from is decoded. Kept in memory between queries; the index file holds the same bytes.
 */
export interface FoldedText {
  id: string;
  updatedAt: number;
  messageCount: number;
  /** The title, folded. */
  title: string;
  /** The title as written. */
  writtenTitle: string;
  /** One letter per message, as SearchText.roles. */
  roles: string;
  /** The messages' texts folded, UTF-8: message i is the part after the i-th 0 byte. */
  folded: Buffer;
  /** The messages' texts as written, UTF-8, parted the same way. */
  body: Buffer;
}

/** A conversation's texts taken as they are now, in time linear in its number of messages, to be folded later. */
export interface SearchSource extends Omit<SearchText, 'body'> {
  /** The messages' texts (immutable strings: the conversation itself is not kept). */
  contents: readonly string[];
}

/** The search text of a conversation as it is now. */
export function searchTextOf(conversation: Searchable & { updatedAt: number }): SearchText {
  return joinedText(searchSourceOf(conversation));
}

/** Takes a conversation's texts now, for `foldSoon` (off a save's path) or `joinedText`. */
export function searchSourceOf(conversation: Searchable & { updatedAt: number }): SearchSource {
  const messages = searchedMessages(conversation);
  const { id, updatedAt, title } = conversation;
  return {
    id,
    updatedAt,
    messageCount: conversation.messages.length,
    title,
    roles: messages.map((m) => (m.role === 'user' ? 'u' : 'a')).join(''),
    contents: messages.map((m) => m.content),
  };
}

/** A source's texts joined into a SearchText. */
export function joinedText(source: SearchSource): SearchText {
  const { contents, ...rest } = source;
  return { ...rest, body: contents.map(asPart).join(SEPARATOR) };
}

/** A message's text as a part of the body: a U+0000 in it is kept as a space (same length). */
const asPart = (content: string): string => content.replace(SEPARATORS, ' ');

/** Folds a search text once for the queries to come. */
export function foldSearchText(source: SearchText): FoldedText {
  // Message by message: foldText's fast path (lower case only) then serves every message that is plain ASCII.
  const folded = source.body.split(SEPARATOR).map(foldText).join(SEPARATOR);
  return folding(source, Buffer.from(folded, 'utf8'), Buffer.from(source.body, 'utf8'));
}

function folding(source: Omit<SearchText, 'body'>, folded: Buffer, body: Buffer): FoldedText {
  const { id, updatedAt, messageCount, roles, title } = source;
  return { id, updatedAt, messageCount, title: foldText(title), writtenTitle: title, roles, folded, body };
}

/**
 * As `foldSearchText` of the joined text, a message at a time, the event loop free between slices of `sliceMs`: an
 * entry of a history of thousands of messages is written after its saves without holding up what runs meanwhile
 * (a reply streaming into it, a prompt typed). The two buffers are allocated once at their final size and filled in
 * slices too: on this kind of machine copying megabytes into fresh memory at once is itself a long task.
 */
export async function foldSoon(source: SearchSource, sliceMs = 4): Promise<FoldedText> {
  let sliceStart = performance.now();
  const breathe = async (): Promise<void> => {
    if (performance.now() - sliceStart > sliceMs) {
      await new Promise((resolve) => setImmediate(resolve));
      sliceStart = performance.now();
    }
  };
  const parts: string[] = [];
  const folds: string[] = [];
  let partBytes = 0;
  let foldBytes = 0;
  for (const content of source.contents) {
    const part = asPart(content);
    const fold = foldText(part);
    parts.push(part);
    folds.push(fold);
    partBytes += Buffer.byteLength(part, 'utf8');
    foldBytes += Buffer.byteLength(fold, 'utf8');
    await breathe();
  }
  const separators = Math.max(0, parts.length - 1);
  const body = Buffer.allocUnsafe(partBytes + separators);
  const folded = Buffer.allocUnsafe(foldBytes + separators);
  let bodyAt = 0;
  let foldedAt = 0;
  for (let i = 0; i < parts.length; i++) {
    if (i > 0) {
      body[bodyAt++] = 0;
      folded[foldedAt++] = 0;
    }
    bodyAt += body.write(parts[i], bodyAt, 'utf8');
    foldedAt += folded.write(folds[i], foldedAt, 'utf8');
    await breathe();
  }
  return folding(source, folded, body);
}

/** The file's bytes of a search text, folded here (an entry's file holds the folded texts, see `encodeFolded`). */
export function encodeSearchText(s: SearchText): Buffer {
  return Buffer.concat(encodeFolded(foldSearchText(s)));
}

/**
 * The file's bytes, as the chunks to write in order (never copied into one buffer): a JSON header line (with the two
 * parts' lengths in bytes), the folded texts, then the texts as written. A search reads them without folding or
 * decoding anything but the header and a snippet's message.
 */
export function encodeFolded(f: FoldedText): Buffer[] {
  const header = { v: FORMAT, id: f.id, updatedAt: f.updatedAt, messageCount: f.messageCount, title: f.writtenTitle };
  const lengths = { folded: f.folded.length, body: f.body.length };
  const head = Buffer.from(`${JSON.stringify({ ...header, roles: f.roles, ...lengths })}\n`, 'utf8');
  return [head, f.folded, f.body];
}

/**
 * Reads a file's bytes; undefined when they are not a search text of conversation `id` in this format (damaged, cut,
 * another shape, an older format, or written for another conversation): then the index is rebuilt from the
 * conversation.
 */
export function decodeSearchText(data: Buffer, id: string): FoldedText | undefined {
  const end = data.indexOf(0x0a);
  if (end < 0) {
    return undefined;
  }
  let header: unknown;
  try {
    header = JSON.parse(data.toString('utf8', 0, end));
  } catch {
    return undefined;
  }
  if (typeof header !== 'object' || header === null) {
    return undefined;
  }
  const h = header as Record<string, unknown>;
  const length = (value: unknown): number => (typeof value === 'number' && value >= 0 ? value : NaN);
  const foldedEnd = end + 1 + length(h.folded);
  if (
    h.v !== FORMAT ||
    h.id !== id ||
    typeof h.updatedAt !== 'number' ||
    typeof h.messageCount !== 'number' ||
    typeof h.title !== 'string' ||
    typeof h.roles !== 'string' ||
    !/^[ua]*$/.test(h.roles) ||
    !Number.isInteger(foldedEnd) ||
    foldedEnd + length(h.body) !== data.length
  ) {
    return undefined;
  }
  // The parts' lengths, not their separators, are checked: counting a history's separators would cost a first search
  // more than reading it. A message index past the roles reads as ALPHA's (see snippetOf).
  const folded = data.subarray(end + 1, foldedEnd);
  const body = data.subarray(foldedEnd);
  const { updatedAt, messageCount, title, roles } = h;
  return folding({ id, updatedAt, messageCount, title, roles }, folded, body);
}

/** How many 0 bytes (message separators) come before `end`. */
function separatorsBefore(bytes: Buffer, end: number): number {
  let count = 0;
  for (let at = bytes.indexOf(0); at >= 0 && at < end; at = bytes.indexOf(0, at + 1)) {
    count++;
  }
  return count;
}

/** The terms of a query as the folded texts are searched (a separator is never part of one). */
export function searchTerms(query: string): string[] {
  return queryTerms(query)
    .map((t) => t.replace(SEPARATORS, ''))
    .filter((t) => t.length > 0);
}

/**
 * The conversations whose title or a message's text has every term, in the order given, each with a snippet where
 * the first term is first found in the messages (as searchFolded does over messages one by one): one substring
 * search per term over each conversation's folded text.
 */
export function searchFoldedTexts(query: string, conversations: readonly FoldedText[]): ConversationMatch[] {
  const terms = searchTerms(query);
  if (terms.length === 0) {
    return [];
  }
  const bytes = terms.map((term) => Buffer.from(term, 'utf8'));
  const matches: ConversationMatch[] = [];
  for (const c of conversations) {
    if (!terms.every((term, i) => c.title.includes(term) || c.folded.includes(bytes[i]))) {
      continue;
    }
    matches.push({
      id: c.id,
      inTitle: terms.every((term) => c.title.includes(term)),
      snippet: snippetOf(c, terms, bytes),
    });
  }
  return matches;
}

function snippetOf(c: FoldedText, terms: readonly string[], bytes: readonly Buffer[]): ConversationMatch['snippet'] {
  for (let i = 0; i < terms.length; i++) {
    const at = c.folded.indexOf(bytes[i]);
    if (at < 0) {
      continue;
    }
    const index = separatorsBefore(c.folded, at);
    const content = nthPart(c.body, index);
    const snippet = snippetFor(terms[i], content, c.roles[index] === 'u' ? 'user' : 'assistant');
    if (snippet) {
      return snippet;
    }
  }
  return undefined;
}

/** The `index`th message text of a body, found by walking its separators; only it is decoded. */
function nthPart(body: Buffer, index: number): string {
  let start = 0;
  for (let i = 0; i < index; i++) {
    const next = body.indexOf(0, start);
    if (next < 0) {
      return '';
    }
    start = next + 1;
  }
  const end = body.indexOf(0, start);
  return body.toString('utf8', start, end < 0 ? body.length : end);
}
