import * as vscode from 'vscode';
import { describeError } from '../../core/service/errors';
import type { Logger } from '../../core/logger';
import { webviewHtml, webviewOptions } from '../../host/webviewHtml';
import { WebviewChannel } from '../../host/webviewChannel';
import type { HostToWebview, WebviewToHost } from '../../protocol/chatProtocol';
import { CHAT_VALIDATORS } from '../../protocol/chatValidators';

/** Messages still worth sending after `chat/state` has redrawn the page (everything else is part of the state). */
const KEPT_UNTIL_READY = new Set<HostToWebview['type']>(['composer/focus', 'ui/announce']);

/** What a surface tells the host's side of the page's protocol (the ChatRouter). */
export interface SurfaceHost {
  /** The page is ready: it connects, and is sent the whole state. */
  connectPage(surface: ChatSurface): void;
  /** Any other message from the page, its fields checked (the host checks it against its state before acting). */
  onMessage(surface: ChatSurface, message: WebviewToHost): Promise<void>;
  /** The webview is gone. */
  disconnectPage(surface: ChatSurface): void;
}

/**
 * One chat page, in the side view or in an editor tab: loads the page and talks to it through the one webview
 * channel (ready handshake, held messages, checks of what the page sends). The page is built from scratch every
 * time VS Code re-creates it; nothing relies on `retainContextWhenHidden`.
 */
export class ChatSurface implements vscode.Disposable {
  private readonly channel: WebviewChannel<WebviewToHost, HostToWebview>;
  private readonly disposables: vscode.Disposable[] = [];
  private closed = false;

  constructor(
    readonly webview: vscode.Webview,
    extensionUri: vscode.Uri,
    onDidDispose: vscode.Event<void>,
    private readonly host: SurfaceHost,
    log: Logger,
    readonly kind: 'view' | 'editor',
  ) {
    this.channel = new WebviewChannel<WebviewToHost, HostToWebview>(webview, {
      name: 'Chat view',
      validators: CHAT_VALIDATORS,
      readyType: 'webview/ready',
      replay: (held) => held.filter((m) => KEPT_UNTIL_READY.has(m.type)),
      onReady: () => this.host.connectPage(this),
      onMessage: (message) => this.host.onMessage(this, message),
      onFailure: (error) => void vscode.window.showErrorMessage(vscode.l10n.t('ALPHA chat: {0}', describeError(error))),
      log,
    });
    webview.options = webviewOptions(extensionUri);
    webview.html = webviewHtml(webview, extensionUri, {
      bundle: 'chat',
      title: vscode.l10n.t('ALPHA Chat'),
      hasCss: true,
      surface: kind,
    });
    this.disposables.push(
      this.channel,
      onDidDispose(() => this.dispose()),
    );
  }

  /** Whether the page has said it is ready (and has not been re-created since). */
  get isReady(): boolean {
    return this.channel.isReady;
  }

  /** Sends a message now, or holds it until the page is ready. */
  post(message: HostToWebview): void {
    this.channel.post(message);
  }

  dispose(): void {
    if (this.closed) {
      return;
    }
    this.closed = true;
    for (const d of this.disposables.splice(0)) {
      d.dispose();
    }
    this.host.disconnectPage(this);
  }
}
