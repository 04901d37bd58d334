/*
 * Reading the arguments of a call ALPHA wrote. The call was checked against the tool's schema already (types and
 * required fields); what is read here is the rest: trimmed strings within a length, whole line numbers, a path in
 * the workspace's terms. A call is service text: every value is bounded before it is used.
 */

/** Longest path a workspace tool takes (characters). */
export const MAX_PATH_CHARS = 500;
/** Longest glob pattern taken. */
export const MAX_PATTERN_CHARS = 200;
/** Most wildcards (`*` runs, `?`) a pattern may have: VS Code turns a glob into a pattern that can backtrack. */
export const MAX_GLOB_WILDCARDS = 6;

/** The string `name` of `input`, trimmed; undefined when absent, not a string, or blank. */
export function stringArg(input: Record<string, unknown>, name: string): string | undefined {
  const value = input[name];
  return typeof value === 'string' && value.trim() ? value.trim() : undefined;
}

/** The whole number `name` of `input` (a numeric string too), at least 1; undefined when absent or not a number. */
export function lineArg(input: Record<string, unknown>, name: string): number | undefined {
  const value = input[name];
  const number = typeof value === 'string' && value.trim() ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isFinite(number)) {
    return undefined;
  }
  return Math.max(1, Math.floor(number));
}

/**
 * A workspace path as ALPHA wrote it, in `/` form without a leading `./`; or the sentence saying why it is not
 * one (empty, too long, a control character, a URI).
 */
export function workspacePath(raw: string | undefined): { path: string } | { problem: string } {
  if (!raw) {
    return { problem: 'The call needs a "path": a file path relative to the workspace folder.' };
  }
  if (raw.length > MAX_PATH_CHARS) {
    return { problem: `The path is ${raw.length} characters long; at most ${MAX_PATH_CHARS} are taken.` };
  }
  if (/[\u0000-\u001f]/.test(raw)) {
    return { problem: 'The path holds a control character; give the file path as the workspace shows it.' };
  }
  if (/^[a-z][a-z0-9+.-]+:\/\//i.test(raw)) {
    return { problem: 'Give a file path relative to the workspace folder, not a URI.' };
  }
  let path = raw.replace(/\\/g, '/');
  while (path.startsWith('./')) {
    path = path.slice(2);
  }
  return { path };
}

/** A name shown in a step's inline code: on one line, no backticks (they would end the code span), bounded. */
export function codeName(text: string, max = 120): string {
  const flat = text.replace(/\s+/g, ' ').replace(/`/g, "'").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** A phrase shown in a step's quotes: on one line, bounded. */
export function quotedName(text: string, max = 120): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** Why a glob pattern is not taken (too long, too many wildcards), or undefined. */
export function globProblem(pattern: string | undefined): string | undefined {
  if (!pattern) {
    return 'The call needs a non-empty "pattern", a glob such as "**/*.ts".';
  }
  if (pattern.length > MAX_PATTERN_CHARS) {
    return `The pattern is ${pattern.length} characters long; at most ${MAX_PATTERN_CHARS} are taken.`;
  }
  const wildcards = (pattern.match(/\*+|\?/g) ?? []).length;
  return wildcards > MAX_GLOB_WILDCARDS
    ? `The pattern has ${wildcards} wildcards; at most ${MAX_GLOB_WILDCARDS} are taken: make it more precise.`
    : undefined;
}
