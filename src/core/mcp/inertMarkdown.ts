import { escapeInline } from '../encyclopedia/articleMarkdown';

/*
 * Service text made inert for a model's context and for any client that renders a tool result as Markdown. Raw HTML
 * cannot render (`<` is written `&lt;`), control and bidirectional-override characters are dropped, and no link of
 * any form can be made: every `[` and `]` that Markdown could read as one is backslash-escaped. CommonMark finds
 * links in many shapes (nested brackets, a line break in the text or before the target, parentheses nested in the
 * target, reference definitions on the next line or inside a quote or a list item); escaping the brackets that every
 * one of them needs leaves none to find, where matching the shapes with patterns always misses one.
 */

/** Control characters but line feed and tab, and the bidirectional overrides and isolates. */
const INVISIBLE = /[^\P{Cc}\n\t]|[\u202A-\u202E\u2066-\u2069]/gu;

/**
 * `text` with a backslash before each `[` and `]` that is not escaped already (preceded by an even number of
 * backslashes), so the text reads the same and no bracket opens or closes a link, an image or a definition. One pass.
 */
export function escapeBrackets(text: string): string {
  // A run of backslashes is matched whole (the search resumes after it), so the pattern is linear.
  let runEnd = -1;
  let runOdd = false;
  return text.replace(/\\+|[[\]]/g, (match: string, at: number) => {
    if (match.charCodeAt(0) === 0x5c) {
      runEnd = at + match.length;
      runOdd = match.length % 2 === 1;
      return match;
    }
    return runEnd === at && runOdd ? match : `\\${match}`;
  });
}

/** Service text made inert (see the file comment); the rest of its Markdown is kept. */
export function inertText(text: string): string {
  return escapeBrackets(text.replace(INVISIBLE, '').replace(/</g, '&lt;')).trim();
}

/** One line of plain text from the service, inert and escaped for a Markdown line (`<` as `&lt;`, as in text). */
export function inertLine(text: string): string {
  return escapeInline(text.replace(INVISIBLE, '').replace(/</g, '&lt;'));
}
