/**
 * What a screen reader is told when a reply ends, from the reply's Markdown. Free of the DOM, so unit tests run it
 * in Node. `alphaAxo.chat.announceReplies` picks how much: the first sentence (or the whole reply when it is short),
 * the whole reply, or only that it started and ended.
 */
import * as l10n from '@vscode/l10n';

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
  return markdown
    .replace(/\r\n?/g, '\n')
    .replace(/^ {0,3}(`{3,}|~{3,})[^\n]*\n[\s\S]*?(?:\n {0,3}\1[^\n]*|$)/gm, () => ` ${l10n.t('(code block)')}\n`)
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/gm, '$1.')
    .replace(/^ {0,3}>\s?/gm, '')
    .replace(/^\s*(?:[-*+]|\d+[.)])\s+/gm, '')
    .replace(/^\s*\|?[\s:|-]+\|[\s:|-]*$/gm, '')
    .replace(/\|/g, ' ')
    .replace(/(\*\*|__|~~)(?=\S)([\s\S]*?\S)\1/g, '$2')
    .replace(/(^|[^\w*])[*_](?=\S)([^*_\n]*?\S)[*_](?![\w*])/g, '$1$2')
    .replace(/`([^`\n]+)`/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The first sentence of a spoken text (up to `.`, `!`, `?` or `…` followed by a space), at most 300 characters. */
export function firstSentence(text: string): string {
  const match = /^[\s\S]*?[.!?…](?=\s|$)/.exec(text);
  const sentence = (match ? match[0] : text).trim();
  return sentence.length > WHOLE_REPLY_CHARS ? `${sentence.slice(0, WHOLE_REPLY_CHARS - 1).trimEnd()}…` : sentence;
}

/** The end announcement of a reply that finished normally, in the chosen mode. */
export function replyAnnouncement(markdown: string, mode: AnnounceMode): string {
  const spoken = spokenText(markdown);
  if (mode === 'startAndEnd' || spoken === '') {
    return l10n.t('ALPHA replied.');
  }
  const said = mode === 'whole' || spoken.length <= WHOLE_REPLY_CHARS ? spoken : firstSentence(spoken);
  return l10n.t('ALPHA replied: {0}', said);
}
