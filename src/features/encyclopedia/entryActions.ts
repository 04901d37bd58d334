import * as vscode from 'vscode';
import { lookupMarkdown, lookupTitle } from '../../core/encyclopedia/articleMarkdown';
import { fetchImageDataUri, type PublicFetch } from '../../core/encyclopedia/imageData';
import type { LookupValue } from '../../core/encyclopedia/lookupTypes';
import { describeError } from '../../core/errors';
import type { Logger } from '../../core/logger';
import { DisposableOwner } from '../../host/disposables';
import type { HostToWebview } from '../../protocol/encyclopediaProtocol';
import { webUrl } from '../../shared/links';

/** The actions on a shown entry: open as Markdown, insert a fact, ask ALPHA, open links, load images. */
export class EntryActions extends DisposableOwner {
  private lastEditor: vscode.TextEditor | undefined = vscode.window.activeTextEditor;
  private readonly imageLoads = new Set<AbortController>();

  constructor(
    private readonly log: Logger,
    private readonly fetchPublic: PublicFetch,
  ) {
    super();
    this._register(
      vscode.window.onDidChangeActiveTextEditor((editor) => {
        if (editor) {
          this.lastEditor = editor;
        }
      }),
    );
    this._register({ dispose: () => this.imageLoads.forEach((c) => c.abort()) });
  }

  /** Opens the entry as a new, untitled Markdown document. */
  async openMarkdown(value: LookupValue): Promise<void> {
    const document = await vscode.workspace.openTextDocument({ language: 'markdown', content: lookupMarkdown(value) });
    await vscode.window.showTextDocument(document, { preview: false });
  }

  /** Opens ALPHA chat with the entry as context (the chat feature's `alpha.chat.ask` takes it). */
  async askAlpha(value: LookupValue): Promise<void> {
    const context = { label: lookupTitle(value), content: lookupMarkdown(value) };
    try {
      await vscode.commands.executeCommand('alpha.chat.ask', { context });
    } catch (error) {
      void vscode.window.showErrorMessage(vscode.l10n.t('Could not open ALPHA chat: {0}', describeError(error)));
    }
  }

  /** Inserts a fact's value at the cursor(s) of the last active editor; with no index, asks which fact. */
  async insertFact(value: LookupValue, index?: number): Promise<void> {
    if (value.kind !== 'article' || !value.article.facts.length) {
      void vscode.window.showInformationMessage(vscode.l10n.t('This entry has no facts to insert.'));
      return;
    }
    const facts = value.article.facts;
    let fact = index === undefined ? undefined : facts[index];
    if (!fact) {
      const picked = await vscode.window.showQuickPick(
        facts.map((f, i) => ({ label: f.name, description: f.value, i })),
        {
          title: vscode.l10n.t('AXO: Insert a Fact of “{0}”', value.article.title),
          placeHolder: vscode.l10n.t('Which fact? Its value is inserted at the cursor.'),
        },
      );
      fact = picked ? facts[picked.i] : undefined;
    }
    if (!fact) {
      return;
    }
    const editor = this.targetEditor();
    if (!editor) {
      void vscode.window.showWarningMessage(vscode.l10n.t('Open an editor first: the fact is inserted at its cursor.'));
      return;
    }
    const text = fact.value;
    const shown = await vscode.window.showTextDocument(editor.document, {
      viewColumn: editor.viewColumn,
      preserveFocus: false,
    });
    const ok = await shown.edit((edit) => {
      for (const selection of shown.selections) {
        edit.replace(selection, text);
      }
    });
    if (!ok) {
      void vscode.window.showWarningMessage(
        vscode.l10n.t('The fact could not be inserted: the editor is read-only or changed.'),
      );
    }
  }

  /** Opens an http(s) link in the browser; anything else (`command:`, `javascript:`, `file:`) is refused. */
  async openLink(url: string): Promise<void> {
    const safe = webUrl(url);
    if (!safe) {
      this.log.warn('Encyclopedia view: refused to open a link that is not http(s).');
      void vscode.window.showWarningMessage(
        vscode.l10n.t('Only http and https links from the encyclopedia are opened.'),
      );
      return;
    }
    await vscode.env.openExternal(vscode.Uri.parse(safe, true));
  }

  /** Downloads an image the user asked to see and posts it to the view as a data: URI. */
  async loadImage(url: string, post: (message: HostToWebview) => void): Promise<void> {
    const controller = new AbortController();
    this.imageLoads.add(controller);
    const timer = setTimeout(() => controller.abort(), 30_000);
    try {
      post({ type: 'media/loaded', url, dataUri: await fetchImageDataUri(this.fetchPublic, url, controller.signal) });
    } catch (error) {
      const message = controller.signal.aborted
        ? vscode.l10n.t('The image took too long to load.')
        : describeError(error);
      post({ type: 'media/failed', url, message });
    } finally {
      clearTimeout(timer);
      this.imageLoads.delete(controller);
    }
  }

  private targetEditor(): vscode.TextEditor | undefined {
    const active = vscode.window.activeTextEditor;
    if (active) {
      return active;
    }
    const last = this.lastEditor;
    return last && !last.document.isClosed ? last : vscode.window.visibleTextEditors[0];
  }
}
