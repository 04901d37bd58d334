import * as vscode from 'vscode';
import { languageIdForFence } from '../../core/chat/workspace/languageIds';
import { fitInsertion } from '../../core/chat/workspace/codeInsertion';
import { CHAT_LINK_SCHEMES } from '../../core/service/links';
import { eolOf } from '../../host/documentEol';
import { EditorActions } from '../../host/editorActions';
import type { HostToWebview } from '../../protocol/chatProtocol';

/** What the chat does outside its page: code into editors, the clipboard, links, images. */
export class CodeActions extends EditorActions {
  /** Whether the editor code goes to has a non-empty selection. */
  hasSelection(): boolean {
    return this.targetEditor()?.selections.some((s) => !s.isEmpty) ?? false;
  }

  /** Inserts at the cursors (`insert`) or over the selections (`replace`) of the target editor. */
  async applyToEditor(action: 'insert' | 'replace', code: string): Promise<void> {
    await this.editAtSelections(
      (edit, selection, editor) => {
        if (action === 'replace') {
          edit.replace(selection, code);
        } else {
          const line = editor.document.lineAt(selection.active.line).text;
          const at = selection.active.character;
          edit.insert(selection.active, fitInsertion(code, line.slice(0, at), line.slice(at), eolOf(editor.document)));
        }
      },
      {
        noEditor: vscode.l10n.t('Open an editor first: the code goes to its cursor.'),
        failed: vscode.l10n.t('The code could not be inserted: the editor is read-only or changed.'),
      },
    );
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
    await this.openExternal(
      url,
      CHAT_LINK_SCHEMES,
      vscode.l10n.t('Only http, https and mailto links from chat replies are opened.'),
    );
  }

  /** Downloads an image the user clicked to see (no key is sent) and posts it as a data: URI. */
  async loadImage(url: string, post: (message: HostToWebview) => void): Promise<void> {
    const image = await this.fetchImage(url);
    post(
      image.ok
        ? { type: 'image/loaded', url, dataUri: image.dataUri }
        : { type: 'image/failed', url, message: image.message },
    );
  }
}
