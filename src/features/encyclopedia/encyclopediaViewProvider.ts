import * as vscode from 'vscode';
import { describeError } from '../../core/service/errors';
import { affectsDisplay, readDisplay } from '../../host/display';
import type { Logger } from '../../core/logger';
import { DisposableOwner } from '../../host/disposables';
import { webviewHtml, webviewOptions } from '../../host/webviewHtml';
import { WebviewChannel, type WebviewPort } from '../../host/webviewChannel';
import { ENCYCLOPEDIA_VALIDATORS, type HostToWebview, type WebviewToHost } from '../../protocol/encyclopediaProtocol';

/** The id of the view, as contributed in package.json. */
export const ENCYCLOPEDIA_VIEW_ID = 'axo.encyclopediaView';

/** Messages that replace what the view shows; the last one is shown again when the view is re-created. */
const SCREENS = new Set<HostToWebview['type']>([
  'lookup/started',
  'lookup/show',
  'lookup/empty',
  'lookup/error',
  'view/welcome',
]);

/**
 * The channel to an encyclopedia page: every message it sends checked against `ENCYCLOPEDIA_VALIDATORS` and handed
 * to `onMessage`; everything posted before the page is ready is sent once it is, in order.
 */
export function encyclopediaChannel(
  port: WebviewPort<HostToWebview>,
  onMessage: (message: WebviewToHost) => Promise<void>,
  log: Logger,
): WebviewChannel<WebviewToHost, HostToWebview> {
  return new WebviewChannel<WebviewToHost, HostToWebview>(port, {
    name: 'Encyclopedia view',
    validators: ENCYCLOPEDIA_VALIDATORS,
    readyType: 'webview/ready',
    replay: (held) => [...held],
    onReady: () => undefined,
    onMessage,
    onFailure: (error) => void vscode.window.showErrorMessage(`AXO: ${describeError(error)}`),
    log,
  });
}

/**
 * The Encyclopedia side view, talking to its page through the one webview channel (ready handshake, every message
 * held until then, checks of what the page sends); when VS Code re-creates the page (the view was hidden and shown
 * again), it shows the last screen again.
 */
export class EncyclopediaViewProvider extends DisposableOwner implements vscode.WebviewViewProvider {
  private view: vscode.WebviewView | undefined;
  private channel: WebviewChannel<WebviewToHost, HostToWebview> | undefined;
  private screen: HostToWebview | undefined;
  private viewDisposables: vscode.Disposable[] = [];

  constructor(
    private readonly extensionUri: vscode.Uri,
    /** Every message but `webview/ready`, its fields checked: the controller checks it against what is shown. */
    private readonly onMessage: (message: WebviewToHost) => Promise<void>,
    private readonly log: Logger,
  ) {
    super();
    this._register({ dispose: () => this.dropView() });
    this._register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (affectsDisplay(e)) {
          this.post({ type: 'ui/textSize', fontSize: readDisplay().fontSize });
        }
      }),
    );
  }

  /** Called by VS Code when the view becomes visible for the first time (or again after being disposed). */
  resolveWebviewView(view: vscode.WebviewView): void {
    this.dropView();
    this.view = view;
    const channel = encyclopediaChannel(view.webview, this.onMessage, this.log);
    channel.reload([{ type: 'ui/textSize', fontSize: readDisplay().fontSize }, ...(this.screen ? [this.screen] : [])]);
    this.channel = channel;
    view.webview.options = webviewOptions(this.extensionUri);
    view.webview.html = webviewHtml(view.webview, this.extensionUri, {
      bundle: 'encyclopedia',
      title: vscode.l10n.t('Encyclopedia'),
      hasCss: true,
    });
    this.viewDisposables.push(
      channel,
      view.onDidDispose(() => {
        if (this.view === view) {
          this.dropView();
        }
      }),
    );
  }

  /** Sends a message now, or when the page is ready. */
  post(message: HostToWebview): void {
    if (SCREENS.has(message.type)) {
      this.screen = message;
    }
    // Without a page, nothing is sent: the last screen is shown again when the view is created.
    this.channel?.post(message);
  }

  /** Shows the view, creating it if needed, leaving the keyboard focus where it is when the view exists. */
  async reveal(): Promise<void> {
    if (this.view) {
      this.view.show(true);
      return;
    }
    await vscode.commands.executeCommand(`${ENCYCLOPEDIA_VIEW_ID}.focus`);
  }

  /** The image URLs of the screen the page shows now (an article's media): the only ones it may ask to load. */
  shownMedia(): readonly string[] {
    const screen = this.screen;
    return screen?.type === 'lookup/show' && screen.entry.kind === 'article' ? screen.entry.media : [];
  }

  private dropView(): void {
    for (const d of this.viewDisposables.splice(0)) {
      d.dispose();
    }
    this.view = undefined;
    this.channel = undefined;
  }
}
