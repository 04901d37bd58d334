import * as vscode from 'vscode';
import { fetchImageDataUri, type PublicFetch } from '../core/encyclopedia/imageData';
import { describeError } from '../core/service/errors';
import { openableLink } from '../core/service/links';
import type { Logger } from '../core/logger';
import { DisposableOwner } from './disposables';

/** How long an image the user asked to see may take to load. */
const IMAGE_TIMEOUT_MS = 30_000;

/** An image a page asked for: its data: URI, or why it could not be loaded. */
export type LoadedImage = { ok: true; dataUri: string } | { ok: false; message: string };

/**
 * What both pages do outside themselves, in one place: they put text into the editor the user was in, open links
 * outside VS Code, and load images the user asked to see. Remembers the last text editor, because focusing a page
 * (the chat in an editor tab, the side views) leaves no active one. Image loads end with it.
 */
export class EditorActions extends DisposableOwner {
  private lastEditor: vscode.TextEditor | undefined = vscode.window.activeTextEditor;
  private readonly imageLoads = new Set<AbortController>();

  constructor(
    protected readonly log: Logger,
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

  /** The editor text goes to: the active one, else the last one while it is still shown, else the first shown. */
  targetEditor(): vscode.TextEditor | undefined {
    const active = vscode.window.activeTextEditor;
    if (active) {
      return active;
    }
    const visible = vscode.window.visibleTextEditors;
    const last = this.lastEditor;
    return last && visible.includes(last) ? last : visible[0];
  }

  /**
   * Shows the target editor and edits it at each selection with `edit`. Says `noEditor` when there is none and
   * `failed` when the editor refused the edit (read-only, or changed meanwhile); false then.
   */
  protected async editAtSelections(
    edit: (builder: vscode.TextEditorEdit, selection: vscode.Selection, editor: vscode.TextEditor) => void,
    messages: { noEditor: string; failed: string },
  ): Promise<boolean> {
    const editor = this.targetEditor();
    if (!editor) {
      void vscode.window.showWarningMessage(messages.noEditor);
      return false;
    }
    const shown = await vscode.window.showTextDocument(editor.document, {
      viewColumn: editor.viewColumn,
      preserveFocus: false,
    });
    const ok = await shown.edit((builder) => {
      for (const selection of shown.selections) {
        edit(builder, selection, shown);
      }
    });
    if (!ok) {
      void vscode.window.showWarningMessage(messages.failed);
    }
    return ok;
  }

  /**
   * Opens a link outside VS Code when its scheme is one of `schemes` (see `openableLink`: no user name, a mailto
   * without fields that attach files); anything else is refused, logged and said in `refused`.
   */
  protected async openExternal(url: string, schemes: readonly string[], refused: string): Promise<void> {
    const safe = openableLink(url, schemes);
    if (!safe) {
      this.log.warn(`Refused to open a link whose scheme is not one of ${schemes.join(' ')}.`);
      void vscode.window.showWarningMessage(refused);
      return;
    }
    await vscode.env.openExternal(vscode.Uri.parse(safe, true));
  }

  /** Downloads an image the user clicked to see (no key is sent), within 30 s; ends early when this is disposed. */
  protected async fetchImage(url: string): Promise<LoadedImage> {
    const controller = new AbortController();
    this.imageLoads.add(controller);
    const timer = setTimeout(() => controller.abort(), IMAGE_TIMEOUT_MS);
    try {
      return { ok: true, dataUri: await fetchImageDataUri(this.fetchPublic, url, controller.signal) };
    } catch (error) {
      const message = controller.signal.aborted
        ? vscode.l10n.t('The image took too long to load.')
        : describeError(error);
      return { ok: false, message };
    } finally {
      clearTimeout(timer);
      this.imageLoads.delete(controller);
    }
  }
}
