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

/** The ignore files of one workspace folder, applied as git applies them (a deeper file's rules come last). */
export class IgnoreRules {
  private readonly rules: { dir: string; ignore: Ignore }[];

  constructor(files: readonly IgnoreFile[]) {
    this.rules = [...files]
      .sort((a, b) => depth(a.dir) - depth(b.dir))
      .map((file) => ({ dir: file.dir, ignore: ignore({ allowRelativePaths: true }).add(file.text) }));
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
}

function depth(dir: string): number {
  return dir ? dir.split('/').length : 0;
}
