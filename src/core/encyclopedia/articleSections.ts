import { estimateTokens } from '../service/tokenEstimate';
import { clip, cleanText } from './lookupTypes';

/*
 * An article's text in sections, so a tool can hand a long article over in parts. The service gives an article's text
 * as Markdown, with a `## Heading` per section when it sends `sections: [{title, content}]` (see `sectionsText` in
 * normalize.ts); other servers use other heading levels. Sections start at the ATX headings (`#` to `######`) of one
 * level: the shallowest level that occurs at least twice (so a lone `# Title` above `## Parts` does not swallow
 * them), else the shallowest there is. Deeper headings stay inside their section; headings inside fenced code are
 * not headings. Text before the first heading is the section "Introduction". One pass over the text's lines.
 */

/** The name of the text before the first heading (or of the whole text when it has no heading). */
export const INTRODUCTION = 'Introduction';
/** The name of a heading with no words. */
const UNTITLED = 'Untitled section';
/** Longest section name kept (a heading may be a whole paragraph). */
export const SECTION_NAME_CHARS = 120;
/** Most characters of a heading line read for its name: the rest cannot be in a clipped name anyway. */
const HEADING_READ_CHARS = 4 * SECTION_NAME_CHARS;

/** Control characters and the bidirectional overrides and isolates: never part of a name. */
const INVISIBLE = /[\p{Cc}\u202A-\u202E\u2066-\u2069]/gu;

/** One section: its unique name and where its text lies in the normalised article text (`sectionSource`). */
export interface ArticleSection {
  /** Its heading as plain text (one line, bounded), made unique: a second "History" is "History (2)". */
  readonly name: string;
  /** Where its text starts (after its heading line) and ends, in `sectionSource(text)`. */
  readonly start: number;
  readonly end: number;
}

/** One line of an article's outline: a section's number, name and size. */
export interface OutlineEntry {
  /** 1-based, in reading order. */
  readonly number: number;
  readonly name: string;
  /** Characters of its text. */
  readonly chars: number;
  /** Its tokens as `estimateTokens` counts them. */
  readonly tokens: number;
}

/** The text sections are cut from: line ends as `\n`, so every offset is the same for every caller. */
export function sectionSource(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}

/** A heading line's level and raw title, or undefined when the line is no ATX heading. Manual, so it stays linear. */
function atxHeading(line: string): { level: number; title: string } | undefined {
  let i = 0;
  while (i < 3 && line.charCodeAt(i) === 0x20) {
    i++;
  }
  let level = 0;
  while (line.charCodeAt(i + level) === 0x23 /* # */ && level < 7) {
    level++;
  }
  const after = line.charCodeAt(i + level);
  if (level === 0 || level > 6 || !(Number.isNaN(after) || after === 0x20 || after === 0x09)) {
    return undefined;
  }
  let title = line.slice(i + level, i + level + HEADING_READ_CHARS).trim();
  // A closing run of `#` (preceded by a space, or the whole title) is not part of the title.
  let end = title.length;
  while (end > 0 && title.charCodeAt(end - 1) === 0x23) {
    end--;
  }
  if (end === 0 || title.charCodeAt(end - 1) === 0x20 || title.charCodeAt(end - 1) === 0x09) {
    title = title.slice(0, end).trim();
  }
  return { level, title };
}

/** A fence opening or closing line: its character and length, or undefined. */
function fenceOf(line: string): { char: number; length: number; rest: string } | undefined {
  let i = 0;
  while (i < 3 && line.charCodeAt(i) === 0x20) {
    i++;
  }
  const char = line.charCodeAt(i);
  if (char !== 0x60 /* ` */ && char !== 0x7e /* ~ */) {
    return undefined;
  }
  let length = 0;
  while (line.charCodeAt(i + length) === char) {
    length++;
  }
  return length >= 3 ? { char, length, rest: line.slice(i + length) } : undefined;
}

interface Heading {
  level: number;
  title: string;
  /** Where its line starts, and where the next line starts. */
  lineStart: number;
  textStart: number;
}

/** The headings outside fenced code, in order. */
function headingsOf(source: string): Heading[] {
  const headings: Heading[] = [];
  let fence: { char: number; length: number } | undefined;
  let at = 0;
  while (at <= source.length) {
    const lineEnd = source.indexOf('\n', at);
    const end = lineEnd === -1 ? source.length : lineEnd;
    const line = source.slice(at, end);
    const marker = fenceOf(line);
    if (fence) {
      if (marker && marker.char === fence.char && marker.length >= fence.length && !marker.rest.trim()) {
        fence = undefined;
      }
    } else if (marker && !(marker.char === 0x60 && marker.rest.includes('`'))) {
      fence = { char: marker.char, length: marker.length };
    } else {
      const heading = atxHeading(line);
      if (heading) {
        headings.push({ ...heading, lineStart: at, textStart: Math.min(end + 1, source.length) });
      }
    }
    if (lineEnd === -1) {
      break;
    }
    at = lineEnd + 1;
  }
  return headings;
}

/** The level sections start at: the shallowest occurring twice, else the shallowest (see the file comment). */
function splitLevel(headings: readonly Heading[]): number {
  const counts = [0, 0, 0, 0, 0, 0, 0];
  for (const heading of headings) {
    counts[heading.level]++;
  }
  const twice = counts.findIndex((count, level) => level > 0 && count >= 2);
  return twice !== -1 ? twice : counts.findIndex((count, level) => level > 0 && count > 0);
}

/** A heading's title as a one-line plain name, bounded. */
function nameOf(title: string): string {
  return clip(cleanText(title.replace(INVISIBLE, ' ')), SECTION_NAME_CHARS) || UNTITLED;
}

/** Names made unique, case-insensitively: a repeated name gets the first free " (n)". Linear in the names. */
function uniqueNames(names: readonly string[]): string[] {
  const taken = new Set<string>();
  const next = new Map<string, number>();
  return names.map((name) => {
    const key = name.toLowerCase();
    let unique = name;
    if (taken.has(key)) {
      let n = next.get(key) ?? 2;
      while (taken.has(`${key} (${n})`)) {
        n++;
      }
      next.set(key, n + 1);
      unique = `${name} (${n})`;
    }
    taken.add(unique.toLowerCase());
    return unique;
  });
}

/**
 * The sections of an article's text (give it `sectionSource(text)`): an introduction when there is text before the
 * first heading (or no heading at all), then one per heading of the split level. Never empty.
 */
export function splitSections(source: string): ArticleSection[] {
  const all = headingsOf(source);
  const level = splitLevel(all);
  const headings = all.filter((heading) => heading.level === level);
  const parts: { name: string; start: number; end: number }[] = [];
  const introEnd = headings[0]?.lineStart ?? source.length;
  if (headings.length === 0 || source.slice(0, introEnd).trim()) {
    parts.push({ name: INTRODUCTION, start: 0, end: introEnd });
  }
  headings.forEach((heading, i) => {
    const end = headings[i + 1]?.lineStart ?? source.length;
    parts.push({ name: nameOf(heading.title), start: heading.textStart, end: Math.max(heading.textStart, end) });
  });
  const names = uniqueNames(parts.map((part) => part.name));
  return parts.map((part, i) => ({ name: names[i], start: part.start, end: part.end }));
}

/** A section's text, trimmed. */
export function sectionText(source: string, section: ArticleSection): string {
  return source.slice(section.start, section.end).trim();
}

/** The outline: each section's number, name and size (characters and estimated tokens of its trimmed text). */
export function articleOutline(source: string, sections: readonly ArticleSection[]): OutlineEntry[] {
  return sections.map((section, i) => {
    const text = sectionText(source, section);
    return { number: i + 1, name: section.name, chars: text.length, tokens: estimateTokens(text) };
  });
}

/**
 * The index of the section `wanted` names: its name, trimmed and compared case-insensitively with white space
 * folded; else, when it is a number from the outline, that section. Undefined when none is meant.
 */
export function findSection(sections: readonly ArticleSection[], wanted: string): number | undefined {
  const key = cleanText(wanted.replace(INVISIBLE, ' ')).toLowerCase();
  if (!key) {
    return undefined;
  }
  const named = sections.findIndex((section) => section.name.toLowerCase() === key);
  if (named !== -1) {
    return named;
  }
  const number = /^\d{1,9}$/.test(key) ? Number(key) : 0;
  return number >= 1 && number <= sections.length ? number - 1 : undefined;
}
