import type { Answer, Article } from '../service/normalize';
import { clip, cleanText, type LookupValue } from './lookupTypes';
import * as l10n from '@vscode/l10n';

/** Most facts a hover lists. */
export const HOVER_FACTS = 5;
const SUMMARY_CHARS = 400;
const FACT_CHARS = 120;

/**
 * Escapes text for a Markdown string: every ASCII punctuation character gets a backslash (CommonMark allows it
 * before any of them), so no value can open a link, an image, HTML, emphasis or a table. White space collapses
 * to single spaces, so no value can start a block of its own.
 */
export function escapeMarkdown(text: string): string {
  return cleanText(text).replace(/[!-/:-@[-`{-~]/g, '\\$&');
}

/** A `command:` link target with its JSON arguments fully percent-encoded (parentheses included). */
export function commandUri(command: string, args: unknown[]): string {
  const encoded = encodeURIComponent(JSON.stringify(args)).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `command:${command}?${encoded}`;
}

/** The command a hover's link runs; the hover's Markdown trusts this command and no other. */
export const HOVER_COMMAND = 'axo.article';

/**
 * The Markdown of a hover for a looked-up value: title, summary, up to five facts, and for an article the
 * "Open article" link. Every value from the service is escaped; the only link is the `axo.article` command.
 */
export function hoverMarkdown(value: LookupValue): string | undefined {
  if (value.kind === 'article') {
    return articleHover(value.article);
  }
  if (value.kind === 'answer') {
    return answerHover(value.answer);
  }
  return undefined;
}

function articleHover(article: Article): string {
  const parts = [`**${escapeMarkdown(article.title)}** · AXO encyclopedia`];
  const summary = cleanText(article.summary ?? '') || cleanText(firstParagraph(article.content));
  if (summary) {
    parts.push(escapeMarkdown(clip(summary, SUMMARY_CHARS)));
  }
  const facts = article.facts.slice(0, HOVER_FACTS);
  if (facts.length) {
    parts.push(
      facts
        .map(
          (f) =>
            `- **${escapeMarkdown(clip(cleanText(f.name), 60))}**: ${escapeMarkdown(clip(cleanText(f.value), FACT_CHARS))}`,
        )
        .join('\n'),
    );
  }
  const more =
    article.facts.length > HOVER_FACTS ? ` ${l10n.t('({0} more facts)', article.facts.length - HOVER_FACTS)}` : '';
  const tooltip = l10n.t('Open in the Encyclopedia view').replace(/"/g, "'");
  parts.push(
    `[${l10n.t('Open article')}](${commandUri(HOVER_COMMAND, [{ title: article.title }])} "${tooltip}")${more}`,
  );
  return parts.join('\n\n');
}

function answerHover(answer: Answer): string {
  const parts = [`**${escapeMarkdown(answer.query)}** · ${l10n.t('AXO answer ({0})', escapeMarkdown(answer.model))}`];
  const text = cleanText(answer.text);
  if (text) {
    parts.push(escapeMarkdown(clip(text, SUMMARY_CHARS)));
  }
  if (answer.citations.length) {
    const titles = answer.citations.slice(0, HOVER_FACTS).map((c) => escapeMarkdown(clip(c.title, 80)));
    parts.push(l10n.t('Sources: {0}', titles.join(' · ')));
  }
  return parts.join('\n\n');
}

/** The first paragraph of a text, for an article without a summary. */
function firstParagraph(text: string): string {
  const trimmed = text.trim();
  const end = trimmed.search(/\n\s*\n/);
  return end < 0 ? trimmed : trimmed.slice(0, end);
}
