import * as vscode from 'vscode';
import type { Logger } from '../../core/logger';
import { DisposableOwner } from '../../host/disposables';
import { webviewOptions } from '../../host/webviewHtml';
import { ChatSurface, type SurfaceHost } from './chatSurface';

/** The view type of the chat's editor tabs; VS Code restores them after a reload through the serializer. */
export const CHAT_PANEL_TYPE = 'alpha.chatPanel';

/**
 * The chat in editor tabs (`alpha.chat.openInEditor`). One tab is enough: opening again reveals it. A tab left open
 * comes back after a window reload: VS Code hands it to `deserializeWebviewPanel`, which loads a fresh page.
 */
export class ChatPanels extends DisposableOwner implements vscode.WebviewPanelSerializer {
  private panel: vscode.WebviewPanel | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly host: SurfaceHost,
    private readonly log: Logger,
  ) {
    super();
    this._register({ dispose: () => this.panel?.dispose() });
  }

  /** Opens the chat tab, or reveals the one already open. */
  open(): void {
    if (this.panel) {
      this.panel.reveal();
      return;
    }
    const panel = vscode.window.createWebviewPanel(
      CHAT_PANEL_TYPE,
      vscode.l10n.t('ALPHA Chat'),
      { viewColumn: vscode.ViewColumn.Active, preserveFocus: false },
      { ...webviewOptions(this.extensionUri), enableFindWidget: true },
    );
    this.show(panel);
  }

  async deserializeWebviewPanel(panel: vscode.WebviewPanel): Promise<void> {
    if (this.panel) {
      // Only one chat tab; a second restored one would show the same conversation twice.
      panel.dispose();
      return;
    }
    this.show(panel);
    await Promise.resolve();
  }

  private show(panel: vscode.WebviewPanel): void {
    this.panel = panel;
    const onDispose: vscode.Event<void> = (listener, thisArg, disposables) =>
      panel.onDidDispose(
        () => {
          if (this.panel === panel) {
            this.panel = undefined;
          }
          listener.call(thisArg);
        },
        undefined,
        disposables,
      );
    new ChatSurface(panel.webview, this.extensionUri, onDispose, this.host, this.log, 'editor');
  }
}
