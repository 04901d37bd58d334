import { allMessages } from './branches';
import type { Conversation, StoredMessage } from './conversation';

/** What a search reads of a conversation. */
export type Searchable = Pick<Conversation, 'id' | 'title' | 'messages' | 'branches'>;

/** The longest query searched; anything longer is cut. */
export const MAX_QUERY_LENGTH = 200;
/** Characters of context kept on each side of a match in a snippet. */
const SNIPPET_CONTEXT = 40;

/** A piece of message text around a match: `before` + `match` + `after`, on one line. */
export interface SearchSnippet {
  before: string;
  match: string;
  after: string;
  /** Whose message it is from. */
  role: 'user' | 'assistant';
}

/** One conversation that matches a query. */
export interface ConversationMatch {
  id: string;
  /** Whether every term is in the title. */
  inTitle: boolean;
  /** Where the first term is in the messages (absent when the title alone matches and no message does). */
  snippet?: SearchSnippet;
}

/** A string folded for matching (lower case, no accents) and, per folded UTF-16 unit, its offset in the original. */
interface Folded {
  text: string;
  offsets: number[];
}

const COMBINING_MARKS = /\p{M}/gu;
const NON_ASCII = /[^\x00-\x7f]/;
const NON_ASCII_RUN = /[^\x00-\x7f]+/g;

/**
 * Folds text for matching: lower case, diacritics dropped ("É" → "e", "ß" stays "ß"), final sigma as sigma (so a
 * word matches wherever it stands). ASCII text, nearly every message, is only lower-cased.
 */
export function foldText(text: string): string {
  if (!NON_ASCII.test(text)) {
    return text.toLowerCase();
  }
  // Only the runs of non-ASCII text need Unicode's work: an ASCII character is never decomposed nor reordered with
  // the marks after it, so folding run by run gives what folding the whole text gives, at a fraction of the cost.
  return text.replace(NON_ASCII_RUN, foldRun).toLowerCase();
}

function foldRun(run: string): string {
  return run.normalize('NFD').replace(COMBINING_MARKS, '').toLowerCase().replace(/ς/g, 'σ');
}

/**
 * Folds `text` character by character, as foldText does, keeping where each folded unit came from so a snippet can
 * cut the original. Slower: only done for the message a snippet is taken from.
 */
function foldWithOffsets(text: string): Folded {
  let folded = '';
  const offsets: number[] = [];
  let at = 0;
  for (const char of text) {
    const f = foldText(char);
    folded += f;
    for (let i = 0; i < f.length; i++) {
      offsets.push(at);
    }
    at += char.length;
  }
  offsets.push(at);
  return { text: folded, offsets };
}

/** A conversation with its title and the text of each message folded once, for searching again and again. */
export interface FoldedConversation {
  id: string;
  /** The folded title. */
  title: string;
  messages: readonly Pick<StoredMessage, 'role' | 'content'>[];
  /** The folded text of each message, in the same order. */
  texts: readonly string[];
}

/**
 * Folds a conversation for searching (see searchFolded). A reply's tool steps are searched by their titles ("Read
 * `src/app.ts`, lines 1–120"), each after its reply, as ALPHA's; not by their results, which are what files and
 * articles said, not what was said in the conversation.
 */
export function foldConversation(conversation: Searchable): FoldedConversation {
  const messages = searchedMessages(conversation);
  return {
    id: conversation.id,
    title: foldText(conversation.title),
    messages,
    texts: messages.map((m) => foldText(m.content)),
  };
}

/**
 * What a search reads of a conversation, in order: every message (the path shown first, then every branch: the
 * path's snippet is preferred), each reply followed by its tool steps' titles, as ALPHA's. The search index keeps the
 * same list (searchText.ts).
 */
export function searchedMessages(conversation: Searchable): Pick<StoredMessage, 'role' | 'content'>[] {
  const messages: Pick<StoredMessage, 'role' | 'content'>[] = [];
  for (const message of allMessages(conversation)) {
    messages.push(message);
    for (const step of message.steps ?? []) {
      messages.push({ role: 'assistant', content: step.title });
    }
  }
  return messages;
}

/** The terms of a query: folded, split on white space, without duplicates; empty for a blank query. */
export function queryTerms(query: string): string[] {
  const folded = foldText(query.slice(0, MAX_QUERY_LENGTH));
  return [...new Set(folded.split(/\s+/).filter((t) => t.length > 0))];
}

/** A snippet of `text` around [start, end) in original offsets, on one line, with `…` where it was cut. */
function snippetOf(text: string, start: number, end: number, role: SearchSnippet['role']): SearchSnippet {
  const oneLine = (s: string) => s.replace(/\s+/g, ' ');
  const from = Math.max(0, start - SNIPPET_CONTEXT);
  const to = Math.min(text.length, end + SNIPPET_CONTEXT);
  // Never cut a surrogate pair in half.
  const safeFrom = from > 0 && /[\uDC00-\uDFFF]/.test(text[from] ?? '') ? from - 1 : from;
  const safeTo = to < text.length && /[\uDC00-\uDFFF]/.test(text[to] ?? '') ? to + 1 : to;
  return {
    before: (safeFrom > 0 ? '…' : '') + oneLine(text.slice(safeFrom, start)).trimStart(),
    match: oneLine(text.slice(start, end)),
    after: oneLine(text.slice(end, safeTo)).trimEnd() + (safeTo < text.length ? '…' : ''),
    role,
  };
}

/**
 * The conversations matching `query`, in the order given: a conversation matches when each term of the query
 * (white-space separated, case and accents ignored) is in its title or in the text of one of its messages. The
 * snippet shows the first term's first place in the messages, so a list can say why a conversation matched.
 * A blank query matches nothing (the caller shows the whole list then).
 */
export function searchConversations(query: string, conversations: readonly Searchable[]): ConversationMatch[] {
  return searchFolded(query, conversations.map(foldConversation));
}

/** searchConversations over conversations folded beforehand: a query then costs a substring search per message. */
export function searchFolded(query: string, conversations: readonly FoldedConversation[]): ConversationMatch[] {
  const terms = queryTerms(query);
  if (terms.length === 0) {
    return [];
  }
  const matches: ConversationMatch[] = [];
  for (const { id, title, messages, texts } of conversations) {
    if (!terms.every((term) => title.includes(term) || texts.some((text) => text.includes(term)))) {
      continue;
    }
    matches.push({
      id,
      inTitle: terms.every((term) => title.includes(term)),
      snippet: firstSnippet(terms, messages, texts),
    });
  }
  return matches;
}

/** A snippet around the first term's first place in the messages (the next term's when it is in the title only). */
function firstSnippet(
  terms: readonly string[],
  messages: FoldedConversation['messages'],
  texts: readonly string[],
): SearchSnippet | undefined {
  for (const term of terms) {
    for (let i = 0; i < messages.length; i++) {
      if (!texts[i].includes(term)) {
        continue;
      }
      const snippet = snippetFor(term, messages[i].content, messages[i].role);
      if (snippet) {
        return snippet;
      }
    }
  }
  return undefined;
}

/** A snippet around the first place of the folded `term` in `content`; undefined when it is not there. */
export function snippetFor(term: string, content: string, role: SearchSnippet['role']): SearchSnippet | undefined {
  const folded = foldWithOffsets(content);
  const at = folded.text.indexOf(term);
  if (at < 0) {
    return undefined;
  }
  const start = folded.offsets[at];
  const last = folded.offsets[at + term.length - 1];
  const end = last + String.fromCodePoint(content.codePointAt(last) ?? 0).length;
  return snippetOf(content, start, end, role);
}
