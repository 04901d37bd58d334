import ignore, { type Ignore } from 'ignore';

/**
 * Which workspace files `#` may offer: not those the user's `files.exclude` or `search.exclude` hide, nor those the
 * workspace's ignore files (`.gitignore` at any depth, `.git/info/exclude`) ignore. VS Code's stable `findFiles`
 * applies `files.exclude` only when it is given no exclude of its own and honours neither of the others, so the
 * rules are gathered here.
 */

/** Always left out: dependencies and the repository's own data. */
const ALWAYS_EXCLUDED = ['**/node_modules', '**/.git'];
/** A brace group expands to at most this many patterns (`{a,b}{c,d}` is 4). */
const MAX_EXPANSION = 64;

/**
 * One exclude glob for `findFiles` from `files.exclude` and `search.exclude` (each an object of glob → `true`,
 * `false` or `{when}`; a `when` clause, which depends on a sibling file, is not applied), plus the folders always
 * left out. Brace groups inside a pattern are expanded, since VS Code's globs do not nest them.
 */
export function excludeGlob(...settings: unknown[]): string {
  const patterns = new Set(ALWAYS_EXCLUDED);
  for (const setting of settings) {
    if (!setting || typeof setting !== 'object') {
      continue;
    }
    for (const [glob, on] of Object.entries(setting as Record<string, unknown>)) {
      if (on === true && glob.trim()) {
        expandBraces(glob.trim()).forEach((p) => patterns.add(p));
      }
    }
  }
  return `{${[...patterns].join(',')}}`;
}

/** `a/{b,c}/*.{js,ts}` → the four patterns it stands for (at most {@link MAX_EXPANSION}; unbalanced: as it is). */
export function expandBraces(glob: string): string[] {
  const open = glob.indexOf('{');
  const close = open < 0 ? -1 : glob.indexOf('}', open);
  if (close < 0) {
    return [glob.replace(/[{}]/g, '')];
  }
  const inner = glob.slice(open + 1, close);
  if (inner.includes('{')) {
    return [glob.replace(/[{},]/g, '')];
  }
  const out: string[] = [];
  for (const choice of inner.split(',')) {
    for (const rest of expandBraces(glob.slice(close + 1))) {
      if (out.length < MAX_EXPANSION) {
        out.push(`${glob.slice(0, open)}${choice}${rest}`);
      }
    }
  }
  return out;
}

/** The ignore rules of one folder of a workspace folder: the text of its ignore file, for paths under it. */
export interface IgnoreFile {
  /** The folder the file is in, relative to the workspace folder with `/` ('' for the folder itself). */
  dir: string;
  text: string;
}

// Why matching is bounded this way. `ignore` compiles each line to one backtracking RegExp: a `**` between two
// segments becomes `(?:\/[^\/]+)*` (any number of folders), each run of `*` inside a segment `[^\/]*`, a leading
// `**/` the anchor `(?:^|\/)` and a trailing `/**` a single `[\s\S]`. With k of the first two kinds, a path of
// d folders that almost matches is tried in about d^(k+1) ways, and `ignore` tests every parent folder of a path
// too: `**/a/**/a/**/a/**/a/**/a/**/a/**/zz` (k = 6) against a file 60 folders deep takes 22 s, and no
// budget can interrupt one RegExp call. So the cost of one call is bounded before it is made: a line with more than
// MAX_WILDCARDS such groups is skipped (and named, so the user knows), and paths deeper than MAX_PATH_DEPTH folders
// or longer than MAX_PATH_CHARS are not matched (nor offered: such a path is no use in a pick list). What is left,
// k ≤ 2 on d ≤ 64, is at most a few milliseconds per path; a listing that still runs past its budget leaves the
// paths it had no time for out, rather than offer files that may be ignored.

/** Unbounded wildcard groups (`**` between segments, `*` runs inside one) a line may have; more: skipped. */
export const MAX_WILDCARDS = 2;
/** Paths with more folders than this are not matched (nor listed). */
export const MAX_PATH_DEPTH = 64;
/** Paths longer than this are not matched (nor listed). */
export const MAX_PATH_CHARS = 1_024;

/** The number of unbounded wildcard groups `ignore` compiles a line of an ignore file to (see above). */
export function wildcardGroups(line: string): number {
  const segments = line.replace(/^!/, '').replace(/^\//, '').split('/');
  let groups = 0;
  segments.forEach((segment, i) => {
    if (/^\*{2,}$/.test(segment)) {
      // Leading: an anchor; trailing: one character class; between segments: any number of folders.
      groups += i > 0 && i < segments.length - 1 ? 1 : 0;
    } else {
      groups += (segment.replace(/\\./g, '').match(/\*+/g) ?? []).length;
    }
  });
  return groups;
}

/** A line of an ignore file left out because its matching cannot be bounded. */
export interface SkippedPattern {
  dir: string;
  pattern: string;
}

/** What {@link IgnoreRules.select} kept of a listing, and what it left out and why. */
export interface Selection {
  /** Indices into the paths given, in order, of those not ignored (at most `max`). */
  kept: number[];
  /** Paths too deep or too long to match. */
  tooDeep: number;
  /** Paths the budget left no time for. */
  unjudged: number;
}

/** The ignore files of one workspace folder, applied as git applies them (a deeper file's rules come last). */
export class IgnoreRules {
  private readonly rules: { dir: string; ignore: Ignore }[];
  /** The lines left out (see MAX_WILDCARDS), for one log line each. */
  readonly skipped: SkippedPattern[] = [];

  constructor(files: readonly IgnoreFile[]) {
    this.rules = [...files]
      .sort((a, b) => depth(a.dir) - depth(b.dir))
      .map((file) => ({ dir: file.dir, ignore: ignore({ allowRelativePaths: true }).add(this.bounded(file)) }));
  }

  /** Whether `relative` (a file's path relative to the workspace folder, with `/`) is ignored. */
  ignores(relative: string): boolean {
    let ignored = false;
    for (const { dir, ignore: rules } of this.rules) {
      if (dir && !relative.startsWith(`${dir}/`)) {
        continue;
      }
      const result = rules.test(dir ? relative.slice(dir.length + 1) : relative);
      if (result.ignored) {
        ignored = true;
      } else if (result.unignored) {
        ignored = false;
      }
    }
    return ignored;
  }

  /**
   * The paths to offer, in order: the first `max` that are not ignored, not too deep, and judged within `budgetMs`
   * of matching (`clock` in ms). Ignored paths do not count towards `max`, so a large ignored folder leaves room.
   */
  select(paths: readonly string[], max: number, budgetMs: number, clock: () => number = Date.now): Selection {
    const kept: number[] = [];
    let tooDeep = 0;
    const started = clock();
    for (let i = 0; i < paths.length && kept.length < max; i++) {
      const path = paths[i];
      if (path.length > MAX_PATH_CHARS || depth(path) > MAX_PATH_DEPTH + 1) {
        tooDeep++;
      } else if (clock() - started > budgetMs) {
        return { kept, tooDeep, unjudged: paths.length - i };
      } else if (!this.ignores(path)) {
        kept.push(i);
      }
    }
    return { kept, tooDeep, unjudged: 0 };
  }

  /** The text of an ignore file without the lines whose matching cannot be bounded (noted in `skipped`). */
  private bounded(file: IgnoreFile): string {
    const lines = file.text.split(/\r?\n/);
    return lines
      .filter((line) => {
        const pattern = line.trim();
        if (!pattern || pattern.startsWith('#') || wildcardGroups(pattern) <= MAX_WILDCARDS) {
          return true;
        }
        this.skipped.push({ dir: file.dir, pattern: pattern.length > 200 ? `${pattern.slice(0, 200)}…` : pattern });
        return false;
      })
      .join('\n');
  }
}

function depth(dir: string): number {
  let count = dir ? 1 : 0;
  for (let at = dir.indexOf('/'); at >= 0; at = dir.indexOf('/', at + 1)) {
    count++;
  }
  return count;
}
