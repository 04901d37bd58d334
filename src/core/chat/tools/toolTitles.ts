import * as l10n from '@vscode/l10n';
import { codeName, quotedName } from './toolInput';

/*
 * What a step says in the reply, in the user's language: file names and patterns as inline code (backticks taken
 * out of them), phrases in quotes, each on one line and bounded: they come from a call ALPHA wrote.
 */

/** "Read `src/app.ts`, lines 1–120", or "Read `src/app.ts`" before the lines are known. */
export function readTitle(file: string, first?: number, last?: number): string {
  return first === undefined || last === undefined
    ? l10n.t('Read `{0}`', codeName(file))
    : l10n.t('Read `{0}`, lines {1}–{2}', codeName(file), first, last);
}

/** "Finding files matching `src/**`" while it runs, "Found 12 files matching `src/**`" once done. */
export function findTitle(glob: string, count?: number): string {
  return count === undefined
    ? l10n.t('Finding files matching `{0}`', codeName(glob))
    : l10n.t('Found {0} files matching `{1}`', count, codeName(glob));
}

/** "Searching for `parseTrim`" while it runs, "Searched for `parseTrim`: 3 matches" once done. */
export function searchTitle(query: string, count?: number): string {
  return count === undefined
    ? l10n.t('Searching for `{0}`', codeName(query))
    : l10n.t('Searched for `{0}`: {1} matches', codeName(query), count);
}

/** An AXO step: "Looked up “Alan Turing” in AXO", "Searched AXO for “Turing”", "Read the AXO article “…”". */
export function axoTitle(tool: string, value: string): string {
  const what = quotedName(value);
  switch (tool) {
    case 'axo_search':
      return l10n.t('Searched AXO for “{0}”', what);
    case 'axo_article':
      return l10n.t('Read the AXO article “{0}”', what);
    default:
      return l10n.t('Looked up “{0}” in AXO', what);
  }
}

/** "Problems in `src/app.ts`", or "Problems in the workspace". */
export function problemsTitle(file: string | undefined): string {
  return file ? l10n.t('Problems in `{0}`', codeName(file)) : l10n.t('Problems in the workspace');
}

/** "Proposing a change to `README.md`" while it runs, "Proposed a change to `README.md` (Review)" once proposed. */
export function proposeTitle(file: string, proposed: boolean): string {
  return proposed
    ? l10n.t('Proposed a change to `{0}` (Review)', codeName(file))
    : l10n.t('Proposing a change to `{0}`', codeName(file));
}
