import type { Conversation } from './conversation';

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

/** Folds one character: lower case, diacritics dropped ("É" → "e", "ß" stays "ß"). */
function foldChar(char: string): string {
  return char.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** Folds a whole string, keeping where each folded unit came from so a snippet can cut the original. */
function fold(text: string): Folded {
  let folded = '';
  const offsets: number[] = [];
  let at = 0;
  for (const char of text) {
    const f = foldChar(char);
    folded += f;
    for (let i = 0; i < f.length; i++) {
      offsets.push(at);
    }
    at += char.length;
  }
  offsets.push(at);
  return { text: folded, offsets };
}

/** The terms of a query: folded, split on white space, without duplicates; empty for a blank query. */
export function queryTerms(query: string): string[] {
  const folded = fold(query.slice(0, MAX_QUERY_LENGTH)).text;
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
export function searchConversations(
  query: string,
  conversations: readonly Pick<Conversation, 'id' | 'title' | 'messages'>[],
): ConversationMatch[] {
  const terms = queryTerms(query);
  if (terms.length === 0) {
    return [];
  }
  const matches: ConversationMatch[] = [];
  for (const conversation of conversations) {
    const title = fold(conversation.title).text;
    const messages = conversation.messages.map((m) => ({ message: m, folded: fold(m.content) }));
    const everyTerm = terms.every(
      (term) => title.includes(term) || messages.some(({ folded }) => folded.text.includes(term)),
    );
    if (!everyTerm) {
      continue;
    }
    let snippet: SearchSnippet | undefined;
    for (const term of terms) {
      for (const { message, folded } of messages) {
        const at = folded.text.indexOf(term);
        if (at >= 0) {
          const start = folded.offsets[at];
          const last = folded.offsets[at + term.length - 1];
          const end = last + String.fromCodePoint(message.content.codePointAt(last) ?? 0).length;
          snippet = snippetOf(message.content, start, end, message.role);
          break;
        }
      }
      if (snippet) {
        break;
      }
    }
    matches.push({ id: conversation.id, inTitle: terms.every((term) => title.includes(term)), snippet });
  }
  return matches;
}
