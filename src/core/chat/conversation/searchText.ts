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
const FORMAT = 1;

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

/** A SearchText folded for matching (lower case, no accents), kept in memory between queries. */
export interface FoldedText {
  source: SearchText;
  title: string;
  /** `body` folded; its separators stay where they were relative to the messages. */
  text: string;
}

/** The search text of a conversation as it is now. */
export function searchTextOf(conversation: Searchable & { updatedAt: number }): SearchText {
  return searchTextLater(conversation)();
}

/**
 * What `searchTextOf` will give for the conversation as it is now, built when called: the texts (immutable strings)
 * are taken now, in time linear in the number of messages, and joined later, off a save's path. The conversation
 * itself is not kept.
 */
export function searchTextLater(conversation: Searchable & { updatedAt: number }): () => SearchText {
  const messages = searchedMessages(conversation);
  const roles = messages.map((m) => (m.role === 'user' ? 'u' : 'a')).join('');
  const contents = messages.map((m) => m.content);
  const { id, updatedAt, title } = conversation;
  const messageCount = conversation.messages.length;
  return () => ({
    id,
    updatedAt,
    messageCount,
    title,
    roles,
    body: contents.map((c) => c.replace(SEPARATORS, ' ')).join(SEPARATOR),
  });
}

/** Folds a search text once for the queries to come. */
export function foldSearchText(source: SearchText): FoldedText {
  // Message by message: foldText's fast path (lower case only) then serves every message that is plain ASCII.
  return { source, title: foldText(source.title), text: source.body.split(SEPARATOR).map(foldText).join(SEPARATOR) };
}

/** The file's text: a JSON header line, then the body. */
export function encodeSearchText(s: SearchText): string {
  const header = { v: FORMAT, id: s.id, updatedAt: s.updatedAt, messageCount: s.messageCount, title: s.title };
  return `${JSON.stringify({ ...header, roles: s.roles })}\n${s.body}`;
}

/**
 * Reads a file's text; undefined when it is not a search text of conversation `id` in this format (damaged, cut,
 * another shape, or written for another conversation): then the index is rebuilt from the conversation.
 */
export function decodeSearchText(text: string, id: string): SearchText | undefined {
  const end = text.indexOf('\n');
  if (end < 0) {
    return undefined;
  }
  let header: unknown;
  try {
    header = JSON.parse(text.slice(0, end));
  } catch {
    return undefined;
  }
  if (typeof header !== 'object' || header === null) {
    return undefined;
  }
  const h = header as Record<string, unknown>;
  const body = text.slice(end + 1);
  if (
    h.v !== FORMAT ||
    h.id !== id ||
    typeof h.updatedAt !== 'number' ||
    typeof h.messageCount !== 'number' ||
    typeof h.title !== 'string' ||
    typeof h.roles !== 'string' ||
    !/^[ua]*$/.test(h.roles) ||
    h.roles.length !== countSeparators(body) + (h.roles.length ? 1 : 0) ||
    (h.roles.length === 0 && body.length > 0)
  ) {
    return undefined;
  }
  return { id, updatedAt: h.updatedAt, messageCount: h.messageCount, title: h.title, roles: h.roles, body };
}

function countSeparators(text: string): number {
  let count = 0;
  for (let at = text.indexOf(SEPARATOR); at >= 0; at = text.indexOf(SEPARATOR, at + 1)) {
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
  const matches: ConversationMatch[] = [];
  for (const c of conversations) {
    if (!terms.every((term) => c.title.includes(term) || c.text.includes(term))) {
      continue;
    }
    matches.push({
      id: c.source.id,
      inTitle: terms.every((term) => c.title.includes(term)),
      snippet: snippetOf(c, terms),
    });
  }
  return matches;
}

function snippetOf(c: FoldedText, terms: readonly string[]): ConversationMatch['snippet'] {
  for (const term of terms) {
    const at = c.text.indexOf(term);
    if (at < 0) {
      continue;
    }
    const index = countSeparators(c.text.slice(0, at));
    const content = nthPart(c.source.body, index);
    const snippet = snippetFor(term, content, c.source.roles[index] === 'u' ? 'user' : 'assistant');
    if (snippet) {
      return snippet;
    }
  }
  return undefined;
}

/** The `index`th message text of a body, found by walking its separators. */
function nthPart(body: string, index: number): string {
  let start = 0;
  for (let i = 0; i < index; i++) {
    const next = body.indexOf(SEPARATOR, start);
    if (next < 0) {
      return '';
    }
    start = next + 1;
  }
  const end = body.indexOf(SEPARATOR, start);
  return body.slice(start, end < 0 ? undefined : end);
}
