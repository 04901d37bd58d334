import * as vscode from 'vscode';
import { describeError } from '../../core/errors';
import { affectsDisplay, readDisplay } from '../../host/display';
import type { Logger } from '../../core/logger';
import { DisposableOwner } from '../../host/disposables';
import { webviewHtml, webviewOptions } from '../../host/webviewHtml';
import type { HostToWebview } from '../../protocol/encyclopediaProtocol';

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
 * The Encyclopedia side view. Holds every message until the page says `webview/ready`; when VS Code re-creates
 * the page (the view was hidden and shown again), it shows the last screen again.
 */
export class EncyclopediaViewProvider extends DisposableOwner implements vscode.WebviewViewProvider {
  private view: vscode.WebviewView | undefined;
  private ready = false;
  private queue: HostToWebview[] = [];
  private screen: HostToWebview | undefined;
  private viewDisposables: vscode.Disposable[] = [];

  constructor(
    private readonly extensionUri: vscode.Uri,
    /** Every message but `webview/ready`, unchecked: the controller checks every field before acting on it. */
    private readonly onMessage: (message: unknown) => Promise<void>,
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
    this.ready = false;
    this.queue = [{ type: 'ui/textSize', fontSize: readDisplay().fontSize }, ...(this.screen ? [this.screen] : [])];
    view.webview.options = webviewOptions(this.extensionUri);
    view.webview.html = webviewHtml(view.webview, this.extensionUri, {
      bundle: 'encyclopedia',
      title: vscode.l10n.t('Encyclopedia'),
      hasCss: true,
    });
    this.viewDisposables.push(
      view.webview.onDidReceiveMessage((message: unknown) => void this.receive(message)),
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
    if (this.view && this.ready) {
      this.view.webview.postMessage(message).then(undefined, (error: unknown) => {
        this.log.warn(`Encyclopedia view: could not post ${message.type}: ${describeError(error)}`);
      });
    } else {
      this.queue.push(message);
    }
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

  private async receive(message: unknown): Promise<void> {
    const type = (message as { type?: unknown } | null)?.type;
    if (type === 'webview/ready') {
      this.ready = true;
      const held = this.queue;
      this.queue = [];
      for (const item of held) {
        this.post(item);
      }
      return;
    }
    try {
      await this.onMessage(message);
    } catch (error) {
      this.log.error(`Encyclopedia view: ${String(type).slice(0, 40)} failed: ${describeError(error)}`);
      void vscode.window.showErrorMessage(`AXO: ${describeError(error)}`);
    }
  }

  private dropView(): void {
    for (const d of this.viewDisposables.splice(0)) {
      d.dispose();
    }
    this.view = undefined;
    this.ready = false;
  }
}
