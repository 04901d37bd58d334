import * as vscode from 'vscode';
import { describeError } from '../../core/errors';
import type { Logger } from '../../core/logger';
import { webviewHtml, webviewOptions } from '../../host/webviewHtml';
import type { HostToWebview } from '../../protocol/chatProtocol';

/** Messages still worth sending after `chat/state` has redrawn the page (everything else is part of the state). */
const KEPT_UNTIL_READY = new Set<HostToWebview['type']>(['composer/focus', 'ui/announce']);

/** What a surface asks of the controller. */
export interface SurfaceHost {
  /** The page is ready: send it the whole state. */
  onReady(surface: ChatSurface): void;
  /** Any other message from the page, unchecked: the host checks every field before acting on it. */
  onMessage(surface: ChatSurface, message: unknown): Promise<void>;
  /** The webview is gone. */
  onClosed(surface: ChatSurface): void;
}

/**
 * One chat page, in the side view or in an editor tab. Loads the page, checks what it sends, and holds what the
 * host posts until the page says `webview/ready` (then the controller sends `chat/state` first). The page is built
 * from scratch every time VS Code re-creates it; nothing relies on `retainContextWhenHidden`.
 */
export class ChatSurface implements vscode.Disposable {
  private ready = false;
  private held: HostToWebview[] = [];
  private readonly disposables: vscode.Disposable[] = [];
  private closed = false;

  constructor(
    readonly webview: vscode.Webview,
    extensionUri: vscode.Uri,
    onDidDispose: vscode.Event<void>,
    private readonly host: SurfaceHost,
    private readonly log: Logger,
    readonly kind: 'view' | 'editor',
  ) {
    webview.options = webviewOptions(extensionUri);
    webview.html = webviewHtml(webview, extensionUri, {
      bundle: 'chat',
      title: vscode.l10n.t('ALPHA Chat'),
      hasCss: true,
    });
    this.disposables.push(
      webview.onDidReceiveMessage((message: unknown) => void this.receive(message)),
      onDidDispose(() => this.dispose()),
    );
  }

  /** Whether the page has said it is ready (and has not been re-created since). */
  get isReady(): boolean {
    return this.ready;
  }

  /** Sends a message now, or holds it until the page is ready. */
  post(message: HostToWebview): void {
    if (this.closed) {
      return;
    }
    if (!this.ready) {
      this.held.push(message);
      return;
    }
    this.webview.postMessage(message).then(undefined, (error: unknown) => {
      this.log.warn(`Chat view: could not post ${message.type}: ${describeError(error)}`);
    });
  }

  dispose(): void {
    if (this.closed) {
      return;
    }
    this.closed = true;
    this.ready = false;
    for (const d of this.disposables.splice(0)) {
      d.dispose();
    }
    this.host.onClosed(this);
  }

  private async receive(message: unknown): Promise<void> {
    const type = (message as { type?: unknown } | null)?.type;
    if (type === 'webview/ready') {
      // A reloaded page says ready again: everything it showed is gone, so it gets the whole state again.
      const kept = this.held.filter((m) => KEPT_UNTIL_READY.has(m.type));
      this.held = [];
      this.ready = true;
      this.host.onReady(this);
      kept.forEach((m) => this.post(m));
      return;
    }
    try {
      await this.host.onMessage(this, message);
    } catch (error) {
      this.log.error(`Chat view: ${String(type).slice(0, 40)} failed: ${describeError(error)}`);
      void vscode.window.showErrorMessage(vscode.l10n.t('ALPHA chat: {0}', describeError(error)));
    }
  }
}
