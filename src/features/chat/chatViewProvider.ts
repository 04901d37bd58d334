import * as vscode from 'vscode';
import type { Logger } from '../../core/logger';
import { DisposableOwner } from '../../host/disposables';
import { ChatSurface, type SurfaceHost } from './chatSurface';

/** The id of the chat side view, as contributed in package.json. */
export const CHAT_VIEW_ID = 'alpha.chatView';

/** The Chat side view. Each time VS Code resolves it (first show, after a reload or a move), a fresh page starts. */
export class ChatViewProvider extends DisposableOwner implements vscode.WebviewViewProvider {
  private view: vscode.WebviewView | undefined;
  private surface: ChatSurface | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly host: SurfaceHost,
    private readonly log: Logger,
  ) {
    super();
    this._register({ dispose: () => this.surface?.dispose() });
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.surface?.dispose();
    this.view = view;
    const onDispose: vscode.Event<void> = (listener, thisArg, disposables) =>
      view.onDidDispose(
        () => {
          if (this.view === view) {
            this.view = undefined;
          }
          listener.call(thisArg);
        },
        undefined,
        disposables,
      );
    this.surface = new ChatSurface(view.webview, this.extensionUri, onDispose, this.host, this.log, 'view');
  }

  /** Shows the view (creating it when needed) and returns once VS Code has been asked to. */
  async reveal(preserveFocus = false): Promise<void> {
    if (this.view) {
      this.view.show(preserveFocus);
      return;
    }
    await vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`);
  }
}
