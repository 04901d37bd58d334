import * as vscode from 'vscode';
import { fetchImageDataUri, type PublicFetch } from '../../core/encyclopedia/imageData';
import { languageIdForFence } from '../../core/chat/languageIds';
import { fitInsertion } from '../../core/chat/codeInsertion';
import { describeError } from '../../core/errors';
import { CHAT_LINK_SCHEMES, openableLink } from '../../core/links';
import type { Logger } from '../../core/logger';
import { DisposableOwner } from '../../host/disposables';
import { eolOf } from '../../host/documentEol';
import type { HostToWebview } from '../../protocol/chatProtocol';

/**
 * What the chat does outside its page: code into editors, the clipboard, links, images. Remembers the last text
 * editor, because focusing the chat (an editor tab) leaves no active one.
 */
export class CodeActions extends DisposableOwner {
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

  /** The editor code goes to: the active one, else the last one still open. */
  targetEditor(): vscode.TextEditor | undefined {
    const active = vscode.window.activeTextEditor;
    if (active) {
      return active;
    }
    const last = this.lastEditor;
    return last && vscode.window.visibleTextEditors.includes(last) ? last : undefined;
  }

  /** Whether the editor code goes to has a non-empty selection. */
  hasSelection(): boolean {
    return this.targetEditor()?.selections.some((s) => !s.isEmpty) ?? false;
  }

  /** Inserts at the cursors (`insert`) or over the selections (`replace`) of the target editor. */
  async applyToEditor(action: 'insert' | 'replace', code: string): Promise<void> {
    const editor = this.targetEditor();
    if (!editor) {
      void vscode.window.showWarningMessage(vscode.l10n.t('Open an editor first: the code goes to its cursor.'));
      return;
    }
    const shown = await vscode.window.showTextDocument(editor.document, {
      viewColumn: editor.viewColumn,
      preserveFocus: false,
    });
    const ok = await shown.edit((edit) => {
      for (const selection of shown.selections) {
        if (action === 'replace') {
          edit.replace(selection, code);
        } else {
          const line = shown.document.lineAt(selection.active.line).text;
          const at = selection.active.character;
          edit.insert(selection.active, fitInsertion(code, line.slice(0, at), line.slice(at), eolOf(shown.document)));
        }
      }
    });
    if (!ok) {
      void vscode.window.showWarningMessage(
        vscode.l10n.t('The code could not be inserted: the editor is read-only or changed.'),
      );
    }
  }

  /** Opens code in a new untitled editor in its language. */
  async openInEditor(code: string, fence: string | undefined): Promise<void> {
    const wanted = languageIdForFence(fence);
    const known = await vscode.languages.getLanguages();
    const language = known.includes(wanted) ? wanted : 'plaintext';
    const document = await vscode.workspace.openTextDocument({ language, content: code });
    await vscode.window.showTextDocument(document, { preview: false, viewColumn: vscode.ViewColumn.Active });
  }

  /** Copies text to the clipboard. */
  async copy(text: string): Promise<void> {
    await vscode.env.clipboard.writeText(text);
  }

  /**
   * Opens an http(s) or mailto link outside VS Code (a mailto without fields that attach files); anything else
   * is refused. The one path a click in a reply takes: the page's links have no `href` for VS Code to follow.
   */
  async openLink(url: string): Promise<void> {
    const safe = openableLink(url, CHAT_LINK_SCHEMES);
    if (!safe) {
      this.log.warn('Chat: refused to open a link that is not http, https or mailto.');
      void vscode.window.showWarningMessage(
        vscode.l10n.t('Only http, https and mailto links from chat replies are opened.'),
      );
      return;
    }
    await vscode.env.openExternal(vscode.Uri.parse(safe, true));
  }

  /** Downloads an image the user clicked to see (no key is sent) and posts it as a data: URI. */
  async loadImage(url: string, post: (message: HostToWebview) => void): Promise<void> {
    const controller = new AbortController();
    this.imageLoads.add(controller);
    const timer = setTimeout(() => controller.abort(), 30_000);
    try {
      post({ type: 'image/loaded', url, dataUri: await fetchImageDataUri(this.fetchPublic, url, controller.signal) });
    } catch (error) {
      const message = controller.signal.aborted
        ? vscode.l10n.t('The image took too long to load.')
        : describeError(error);
      post({ type: 'image/failed', url, message });
    } finally {
      clearTimeout(timer);
      this.imageLoads.delete(controller);
    }
  }
}
