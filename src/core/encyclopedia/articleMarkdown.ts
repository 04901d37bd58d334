import type { Citation, Fact } from '../service/normalize';
import { cleanText, type LookupValue } from './lookupTypes';
import { webUrl } from '../../shared/links';

/**
 * Escapes a value placed inline in a Markdown document (a heading, a table cell, a link text): the characters that
 * would start a link, an image, HTML, emphasis, strike-through, code or a table column, and at the start a heading's
 * `#`, a list's `+` or `-`, or an ordered list's `1.`. Only ASCII punctuation is escaped, the one thing a backslash
 * escapes in CommonMark: before a digit it would show (`\5.8 Mohs`), so an ordered list's marker is escaped at its
 * `.` or `)`, and only where a space or the end follows it (`5.8 Mohs` starts no list).
 */
export function escapeInline(text: string): string {
  return cleanText(text)
    .replace(/[\\`*_[\]<>|{}~]/g, '\\$&')
    .replace(/^[#+-]/, '\\$&')
    .replace(/^(\d{1,9})([.)])(?= |$)/, '$1\\$2');
}

/** A link as `[text](<url>)`, or the escaped text alone when the URL is not http(s). */
function link(text: string, url: string | undefined): string {
  const safe = webUrl(url);
  const label = escapeInline(text) || escapeInline(safe ?? '');
  return safe ? `[${label}](<${safe.replace(/[<>\s]/g, encodeURIComponent)}>)` : label;
}

/** Neutralises raw HTML in body text (Markdown itself is kept: the service's text may be Markdown). */
function body(text: string): string {
  return text.trim().replace(/</g, '&lt;');
}

function factsTable(facts: Fact[]): string[] {
  return [
    '## Facts',
    '',
    '| Fact | Value |',
    '| --- | --- |',
    ...facts.map((f) => `| ${escapeInline(f.name)} | ${escapeInline(f.value)} |`),
    '',
  ];
}

/**
 * Citations as a numbered Markdown list: a link for http(s) URLs, else the title as text, escaped either way. The
 * "Open as Markdown" document and `@axo` list sources alike.
 */
export function citationList(citations: readonly Citation[]): string[] {
  return citations.map((c, i) => `${i + 1}. ${link(c.title, c.url)}`);
}

function sources(citations: Citation[]): string[] {
  return ['## Sources', '', ...citationList(citations), ''];
}

/** The Markdown document of an answer, an article or a list of search results ("Open as Markdown"). */
export function lookupMarkdown(value: LookupValue): string {
  const out: string[] = [];
  if (value.kind === 'answer') {
    const a = value.answer;
    out.push(
      `# ${escapeInline(a.query)}`,
      '',
      `*Answer from the AXO encyclopedia, model ${escapeInline(a.model)}.*`,
      '',
    );
    out.push(body(a.text) || '*No answer.*', '');
    if (a.citations.length) {
      out.push(...sources(a.citations));
    }
  } else if (value.kind === 'article') {
    const a = value.article;
    out.push(`# ${escapeInline(a.title)}`, '');
    if (a.summary?.trim() && a.summary.trim() !== a.content.trim()) {
      out.push(`> ${escapeInline(a.summary)}`, '');
    }
    if (a.content.trim()) {
      out.push(body(a.content), '');
    }
    if (a.facts.length) {
      out.push(...factsTable(a.facts));
    }
    if (a.media.length) {
      out.push('## Media', '', ...a.media.map((m) => `- ${link(mediaName(m), m)}`), '');
    }
    if (a.citations.length) {
      out.push(...sources(a.citations));
    }
    out.push('---', '', `From the AXO encyclopedia${webUrl(a.url) ? `: ${link(a.title, a.url)}` : '.'}`, '');
  } else {
    out.push(`# Search: ${escapeInline(value.query)}`, '');
    for (const r of value.results) {
      out.push(`- **${link(r.title, r.url)}**${r.snippet ? ` — ${escapeInline(r.snippet)}` : ''}`);
    }
    out.push('');
  }
  return out.join('\n');
}

/** The title a value is known by (article title, question, search terms). */
export function lookupTitle(value: LookupValue): string {
  switch (value.kind) {
    case 'answer':
      return cleanText(value.answer.query);
    case 'article':
      return cleanText(value.article.title);
    case 'search':
      return `Search: ${cleanText(value.query)}`;
  }
}

/** The file name at the end of a media URL, or the URL itself. */
export function mediaName(url: string): string {
  try {
    const name = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '');
    return name || url;
  } catch {
    return url;
  }
}
