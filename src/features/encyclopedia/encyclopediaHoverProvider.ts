import * as vscode from 'vscode';
import type { EncyclopediaStore } from '../../core/encyclopedia/encyclopediaStore';
import { HOVER_COMMAND, hoverMarkdown } from '../../core/encyclopedia/hoverText';
import { cleanText } from '../../core/encyclopedia/lookupTypes';
import { ServiceError, describeError, isAbortError } from '../../core/service/errors';
import { sleep } from '../../core/service/axoClient';
import type { Logger } from '../../core/logger';
import { abortOnCancel } from '../../host/disposables';
import { hoverLookups } from './encyclopediaConfig';

/** Pause before a hover fetches, so sweeping the mouse over words sends nothing. */
const FETCH_DEBOUNCE_MS = 400;
const MIN_FETCH_CHARS = 3;
const MAX_FETCH_CHARS = 100;
const MAX_MISSES = 500;

/** Markdown whose only trusted command is `axo.article`: every service value in the text is escaped. */
export function hoverMarkdownString(text: string): vscode.MarkdownString {
  const md = new vscode.MarkdownString(text);
  md.supportHtml = false;
  md.isTrusted = { enabledCommands: [HOVER_COMMAND] };
  return md;
}

/**
 * Hovers in every editor over looked-up article titles and questions (memory and the persisted cache only).
 * With `hoverLookups: always`, a hover over another word fetches its article after a pause, cancelled with it.
 */
export class EncyclopediaHoverProvider implements vscode.HoverProvider {
  /** Words whose article the service did not have, not asked again this session. */
  private readonly misses = new Set<string>();

  constructor(
    private readonly store: EncyclopediaStore,
    private readonly log: Logger,
  ) {}

  /** Forgets the words the service had no article for (the cache was cleared). */
  forgetMisses(): void {
    this.misses.clear();
  }

  async provideHover(
    document: vscode.TextDocument,
    position: vscode.Position,
    token: vscode.CancellationToken,
  ): Promise<vscode.Hover | undefined> {
    const mode = hoverLookups();
    if (mode === 'off') {
      return undefined;
    }
    if (!this.store.loaded) {
      await this.store.ensureLoaded();
      if (token.isCancellationRequested) {
        return undefined;
      }
    }
    const line = document.lineAt(position.line);
    const hit = this.store.hoverAt(line.text, position.character);
    if (hit) {
      const range = new vscode.Range(position.line, hit.start, position.line, hit.end);
      return new vscode.Hover(hoverMarkdownString(hit.markdown), range);
    }
    return mode === 'always' ? this.fetchHover(document, position, token) : undefined;
  }

  private async fetchHover(
    document: vscode.TextDocument,
    position: vscode.Position,
    token: vscode.CancellationToken,
  ): Promise<vscode.Hover | undefined> {
    const range = termRange(document, position);
    const term = range ? cleanText(document.getText(range)) : '';
    if (!range || term.length < MIN_FETCH_CHARS || term.length > MAX_FETCH_CHARS || /^[\d\W_]+$/u.test(term)) {
      return undefined;
    }
    if (this.misses.has(term.toLowerCase())) {
      return undefined;
    }
    const controller = new AbortController();
    const link = abortOnCancel(token, controller);
    try {
      await sleep(FETCH_DEBOUNCE_MS, controller.signal);
      const result = await this.store.lookup({ kind: 'article', title: term }, { signal: controller.signal });
      const markdown = token.isCancellationRequested ? undefined : hoverMarkdown(result.value);
      return markdown ? new vscode.Hover(hoverMarkdownString(markdown), range) : undefined;
    } catch (error) {
      if (error instanceof ServiceError && error.kind === 'notFound') {
        if (this.misses.size >= MAX_MISSES) {
          this.misses.clear();
        }
        this.misses.add(term.toLowerCase());
      } else if (!isAbortError(error)) {
        this.log.info(`Encyclopedia hover for a word failed: ${describeError(error)}`);
      }
      return undefined;
    } finally {
      link.dispose();
    }
  }
}

/** The selection when the hover is inside a one-line selection, else the word under the mouse. */
function termRange(document: vscode.TextDocument, position: vscode.Position): vscode.Range | undefined {
  const editor = vscode.window.activeTextEditor;
  const selection = editor?.document === document ? editor.selection : undefined;
  if (selection && !selection.isEmpty && selection.isSingleLine && selection.contains(position)) {
    return selection;
  }
  return document.getWordRangeAtPosition(position);
}
