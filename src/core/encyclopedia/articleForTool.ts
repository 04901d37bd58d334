import { inertLine, inertText } from '../mcp/inertMarkdown';
import {
  FACTS_HEAD,
  NOTE_ROOM,
  articleFrame,
  cutText,
  factRows,
  rowsWithin,
  wholeArticle,
  withinBudget,
} from '../mcp/toolResults';
import { estimateTokens } from '../service/tokenEstimate';
import type { Article } from '../service/normalize';
import {
  articleOutline,
  findSection,
  sectionSource,
  sectionText,
  splitSections,
  type ArticleSection,
  type OutlineEntry,
} from './articleSections';
import { clip, cleanText } from './lookupTypes';

/*
 * An article as a tool hands it to a model, the same in VS Code's tools, both MCP servers and our chat: the whole
 * article when it fits the budget; else its outline (each section with its size) and its first section; or the one
 * section asked for. A model reads a long article in parts, each part within the budget.
 */

/** What the caller asks for. */
export interface ArticleToolOptions {
  /** A section's name (any case, trimmed) or its number in the outline; absent or blank: the article. */
  section?: string;
  /** Most characters of `text` (the tools' is `ARTICLE_BUDGET_CHARS` less their result frame). */
  budget: number;
}

/** One line of the outline, as structured data. */
export interface StructuredSection {
  number: number;
  name: string;
  characters: number;
  tokens: number;
}

/** The result as data (MCP `structuredContent`): plain strings from the service, bounded like the text. */
export interface ArticleToolStructured {
  title: string;
  url?: string;
  /** The first facts, as many as fit half the budget. */
  facts: { name: string; value: string }[];
  factCount: number;
  sectionCount: number;
  /** The outline's first entries, as many as the text lists. */
  sections: StructuredSection[];
  /** What the text holds: the whole article, the outline and the first section, one section, or the outline alone. */
  shown: 'whole' | 'outline' | 'section' | 'notFound';
  /** The section the text holds (in part when `shownCharacters` is less than `characters`). */
  section?: StructuredSection & { shownCharacters: number };
  /** The section asked for, as asked. */
  requested?: string;
}

/** What a tool returns for an article: text for the model and the same as data. */
export interface ArticleForTool {
  text: string;
  structured: ArticleToolStructured;
}

/** The outline takes at most this share of the budget beside a section's text. */
const OUTLINE_SHARE = 0.35;
/** Longest fact name and value in the structured result. */
const FACT_NAME_CHARS = 100;
const FACT_VALUE_CHARS = 300;
/** Longest section name echoed back when no section has it. */
const ECHO_CHARS = 120;
/** Control characters and bidirectional overrides, dropped from structured strings. */
const INVISIBLE = /[\p{Cc}\u202A-\u202E\u2066-\u2069]/gu;

/** `12,345`: sizes read the same in every locale. */
function count(n: number): string {
  const digits = String(n);
  let out = '';
  for (let i = 0; i < digits.length; i++) {
    out += (i > 0 && (digits.length - i) % 3 === 0 ? ',' : '') + digits[i];
  }
  return out;
}

/** A service string for structured data: one line, no invisible characters, bounded. */
function plain(text: string, max: number): string {
  return clip(cleanText(text.slice(0, max * 4).replace(INVISIBLE, ' ')), max);
}

function outlineLine(entry: OutlineEntry): string {
  return `${entry.number}. ${inertLine(entry.name)} — ${count(entry.chars)} characters, about ${count(entry.tokens)} tokens`;
}

/** The outline's lines within `room` characters, and how many entries they list. */
function outlineLines(entries: readonly OutlineEntry[], room: number): { lines: string[]; listed: number } {
  const lines = ['## Outline', ''];
  let used = lines.join('\n').length;
  for (const entry of entries) {
    const line = outlineLine(entry);
    // Room is kept for the line naming the unlisted sections.
    if (used + line.length + 1 > room - 120) {
      break;
    }
    lines.push(line);
    used += line.length + 1;
  }
  const listed = lines.length - 2;
  if (listed < entries.length) {
    lines.push(
      `… and ${count(entries.length - listed)} more sections, numbers ${count(listed + 1)} to ${count(entries.length)}: ` +
        'ask for one by its number.',
    );
  }
  return { lines, listed };
}

function structuredEntry(entry: OutlineEntry): StructuredSection {
  return { number: entry.number, name: entry.name, characters: entry.chars, tokens: entry.tokens };
}

/** The facts as data, as many as fit `room` characters. */
function structuredFacts(article: Article, room: number): { name: string; value: string }[] {
  const facts: { name: string; value: string }[] = [];
  let used = 0;
  for (const fact of article.facts) {
    const item = { name: plain(fact.name, FACT_NAME_CHARS), value: plain(fact.value, FACT_VALUE_CHARS) };
    used += item.name.length + item.value.length;
    if (used > room) {
      break;
    }
    facts.push(item);
  }
  return facts;
}

/** How to ask for another part, said in the results that show a part. */
const HOW_TO_ASK =
  'To read another section, call axo_article again with the same title and "section" set to a name or a number ' +
  'from the outline.';

/**
 * An article for a tool within `options.budget` characters: the whole article when it fits; else its outline and its
 * first section (cut to the room left, with a note); with `options.section`, that section alone (cut likewise), or,
 * when no section has that name or number, the outline and a sentence saying so. Never throws.
 */
export function articleForTool(article: Article, options: ArticleToolOptions): ArticleForTool {
  const budget = Math.max(0, Math.floor(options.budget));
  const raw = article.content.trim() ? article.content : (article.summary ?? '');
  const source = sectionSource(raw);
  const sections = splitSections(source);
  const entries = articleOutline(source, sections);
  const wanted = options.section?.trim() ?? '';
  const base = {
    title: plain(article.title, 200),
    facts: structuredFacts(article, Math.floor(budget / 2)),
    factCount: article.facts.length,
    sectionCount: sections.length,
    sections: entries.slice(0, outlineLines(entries, Math.floor(budget * OUTLINE_SHARE)).listed).map(structuredEntry),
    ...(wanted ? { requested: plain(wanted, ECHO_CHARS) } : {}),
  };
  const parts: Parts = { article, budget, source, sections, entries, frame: articleFrame(article) };
  const url = parts.frame.url;
  if (!wanted) {
    const whole = wholeArticle(article, budget);
    if (!whole.trimmed) {
      return { text: whole.text, structured: { ...base, ...(url ? { url } : {}), shown: 'whole' } };
    }
  }
  const index = wanted ? findSection(sections, wanted) : 0;
  if (index === undefined) {
    const { text, listed } = notFound(parts, wanted);
    const structured = { ...base, ...(url ? { url } : {}), sections: listed, shown: 'notFound' as const };
    return { text, structured };
  }
  const { text, shownChars } = part(parts, index, wanted !== '');
  const section = { ...structuredEntry(entries[index]), shownCharacters: shownChars };
  return { text, structured: { ...base, ...(url ? { url } : {}), shown: wanted ? 'section' : 'outline', section } };
}

/** What the results are made of. */
interface Parts {
  article: Article;
  budget: number;
  /** The article's text (`sectionSource`) and its sections. */
  source: string;
  sections: readonly ArticleSection[];
  entries: readonly OutlineEntry[];
  frame: ReturnType<typeof articleFrame>;
}

/** Room the title, URL, sources and the note on what was cut take. */
function fixedLength({ frame }: Parts): number {
  return [...frame.head, ...frame.sources].join('\n').length + NOTE_ROOM;
}

/** The outline, as much as fits, after a sentence saying no section has the name asked for. */
function notFound(parts: Parts, wanted: string): { text: string; listed: StructuredSection[] } {
  const { budget, sections, entries, frame } = parts;
  const sentence =
    `The article has no section “${inertLine(plain(wanted, ECHO_CHARS))}”. It has ${count(sections.length)} ` +
    `section${sections.length === 1 ? '' : 's'}, listed in the outline below; ask for one by its name or number.`;
  const outline = outlineLines(entries, Math.max(0, budget - fixedLength(parts) - sentence.length));
  const text = withinBudget([...frame.head, sentence, '', ...outline.lines, ...frame.sources].join('\n'), budget);
  return { text, listed: entries.slice(0, outline.listed).map(structuredEntry) };
}

/** The lines around a section: the lead and outline before the first section, the way on after an asked one. */
function around(parts: Parts, index: number, asked: boolean): { lead: string[]; outline: string[]; after: string[] } {
  const { budget, source, sections, entries } = parts;
  if (asked) {
    const next = entries[index + 1];
    const way = next
      ? `Next: section ${count(next.number)}, “${inertLine(next.name)}”. ${HOW_TO_ASK}`
      : `This is the last of ${count(sections.length)} sections.`;
    return { lead: [], outline: [], after: ['', way] };
  }
  const lead =
    `This article has ${count(source.trim().length)} characters (about ${count(estimateTokens(source))} tokens) in ` +
    `${count(sections.length)} section${sections.length === 1 ? '' : 's'}, more than one result holds ` +
    `(${count(budget)} characters). Below are its outline and its first section. ${HOW_TO_ASK}`;
  const outline = outlineLines(entries, Math.floor(budget * OUTLINE_SHARE)).lines;
  return { lead: [lead, ''], outline: [...outline, ''], after: [] };
}

/**
 * One section within the budget: alone when `asked`, else after the lead and the outline and before the facts. Its
 * text is cut first (down to half the room), then the facts rows, and a last line says what was cut.
 */
function part(parts: Parts, index: number, asked: boolean): { text: string; shownChars: number } {
  const { article, budget, source, sections, entries, frame } = parts;
  const entry = entries[index];
  const { lead, outline, after } = around(parts, index, asked);
  const rows = asked ? [] : factRows(article);
  const title = `## Section ${count(entry.number)} of ${count(sections.length)}: ${inertLine(entry.name)}`;
  const used =
    fixedLength(parts) +
    [...lead, ...outline, title, '', ...after].join('\n').length +
    (rows.length ? FACTS_HEAD.join('\n').length + 1 : 0);
  const room = Math.max(0, budget - used);
  const factsLength = rows.reduce((sum, row) => sum + row.length + 1, 0);
  const raw = sectionText(source, sections[index]);
  // Only what can fit is made inert (inert text is never shorter than a quarter of its source).
  const body = inertText(raw.slice(0, room * 4 + 4));
  const shown = cutText(body, Math.max(room - factsLength, Math.floor(room / 2)));
  const keptRows = rowsWithin(rows, room - shown.length);
  const out = [
    ...frame.head,
    ...lead,
    ...outline,
    title,
    '',
    shown || (raw ? '' : 'This section has no text.'),
    ...after,
  ];
  if (keptRows.length) {
    out.push(...FACTS_HEAD, ...keptRows);
  }
  out.push(...frame.sources);
  const cuts: string[] = [];
  if (shown.length < body.length || raw.length > room * 4 + 4) {
    cuts.push(`the section was cut from ${count(entry.chars)} to ${count(shown.length)} characters`);
  }
  if (keptRows.length < rows.length) {
    cuts.push(`${keptRows.length} of ${rows.length} facts are shown`);
  }
  if (cuts.length) {
    const where = frame.url ? ` The whole article is at ${frame.url}.` : '';
    out.push('', `[Trimmed to fit ${budget} characters: ${cuts.join('; ')}.${where}]`);
  }
  return { text: withinBudget(out.join('\n'), budget), shownChars: shown.length };
}
