import { WORKSPACE_FRAME } from './fileRange';
import type { TextMatch } from './textSearch';

/** Most paths one find returns. */
export const FIND_MAX_PATHS = 200;
/** Most problems one call returns. */
export const PROBLEMS_MAX = 100;
/** Longest problem message shown. */
const PROBLEM_MESSAGE_CHARS = 300;

/** The files a find matched, as ALPHA is sent them: at most {@link FIND_MAX_PATHS}, and how many more there were. */
export function findResult(glob: string, paths: readonly string[]): string {
  if (!paths.length) {
    return `No file of the workspace matches ${glob} (files the user's settings or ignore files leave out are not listed).`;
  }
  const shown = paths.slice(0, FIND_MAX_PATHS);
  const lines = [WORKSPACE_FRAME, '', `${paths.length} files match ${glob}:`, ...shown];
  if (paths.length > shown.length) {
    lines.push(`… and ${paths.length - shown.length} more not listed: narrow the pattern.`);
  }
  return lines.join('\n');
}

/** The matches of one file. */
export interface FileMatches {
  file: string;
  matches: readonly TextMatch[];
}

/** What a search went through, for the result's last lines. */
export interface SearchTally {
  /** Files searched. */
  searched: number;
  /** Files left out: too large, binary, unreadable. */
  skipped: number;
  /** True when the search stopped at the match cap, or at its budget of bytes. */
  capped: boolean;
  /** True when it stopped at its budget of bytes before the last file. */
  outOfBudget?: boolean;
}

/** A search as ALPHA is sent it: `file:line: text` per match, grouped by file, and what was left out. */
export function searchResult(query: string, found: readonly FileMatches[], tally: SearchTally): string {
  const count = found.reduce((sum, f) => sum + f.matches.length, 0);
  const lines = [WORKSPACE_FRAME, ''];
  lines.push(
    count
      ? `${count} lines hold "${query}" (case ignored) in ${tally.searched} files searched:`
      : `No line holds "${query}" (case ignored) in the ${tally.searched} files searched.`,
  );
  for (const { file, matches } of found) {
    for (const match of matches) {
      lines.push(`${file}:${match.line}: ${match.text}`);
    }
  }
  if (tally.capped) {
    lines.push(
      tally.outOfBudget
        ? 'The search stopped at its budget of bytes read: narrow it with "include".'
        : 'The search stopped at its cap of matches: narrow it.',
    );
  }
  if (tally.skipped) {
    lines.push(
      `${tally.skipped} files were not searched (secret-looking, binary, larger than 512 KB, a link out of the workspace, or unreadable).`,
    );
  }
  return lines.join('\n');
}

/** One problem VS Code reports. */
export interface ProblemLine {
  file: string;
  /** 1-based. */
  line: number;
  column: number;
  severity: 'error' | 'warning' | 'information' | 'hint';
  message: string;
  source?: string;
  code?: string;
}

/** Problems as ALPHA is sent them, errors first: at most {@link PROBLEMS_MAX}, and how many more there were. */
export function problemsResult(where: string, problems: readonly ProblemLine[]): string {
  if (!problems.length) {
    return `VS Code reports no problems in ${where}.`;
  }
  const order = ['error', 'warning', 'information', 'hint'];
  const sorted = [...problems].sort((a, b) => order.indexOf(a.severity) - order.indexOf(b.severity));
  const lines = [WORKSPACE_FRAME, '', `${problems.length} problems in ${where}:`];
  for (const p of sorted.slice(0, PROBLEMS_MAX)) {
    const origin = [p.source, p.code].filter(Boolean).join(' ');
    const message = oneLine(p.message, PROBLEM_MESSAGE_CHARS);
    lines.push(`${p.file}:${p.line}:${p.column} ${p.severity}: ${message}${origin ? ` (${oneLine(origin, 80)})` : ''}`);
  }
  if (problems.length > PROBLEMS_MAX) {
    lines.push(`… and ${problems.length - PROBLEMS_MAX} more not listed: ask for one file's problems.`);
  }
  return lines.join('\n');
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
