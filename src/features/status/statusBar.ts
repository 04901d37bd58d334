import * as vscode from 'vscode';
import { DisposableOwner } from '../../host/disposables';
import type { Services } from '../../host/services';

/** The states the status bar item shows, most urgent first. */
export type StatusState = 'keyMissing' | 'unreachable' | 'streaming' | 'ready';

/**
 * One status bar item: the chat model and its state — ready, streaming (click to stop), key missing (click to
 * set it), service unreachable (click to test the connection).
 */
export class StatusBar extends DisposableOwner {
  private readonly item: vscode.StatusBarItem;
  private keyMissing = false;
  private unreachable = false;
  private streaming = false;

  constructor(private readonly services: Services) {
    super();
    this.item = this._register(
      vscode.window.createStatusBarItem('alphaAxo.status', vscode.StatusBarAlignment.Right, 100),
    );
    this.item.name = 'ALPHA & AXO';
    const stopListening = services.http.onReachability((reachable) => {
      if (this.unreachable !== !reachable) {
        this.unreachable = !reachable;
        this.render();
      }
    });
    this._register({ dispose: stopListening });
    this._register(services.secrets.onDidChange(() => void this.refreshKey()));
    this._register(services.settings.onDidChange(() => this.render()));
    this.render();
    this.item.show();
    void this.refreshKey();
  }

  /** Called by the chat while a reply streams. */
  setStreaming(streaming: boolean): void {
    if (this.streaming !== streaming) {
      this.streaming = streaming;
      this.render();
    }
  }

  /** The state shown now. */
  get state(): StatusState {
    if (this.keyMissing) {
      return 'keyMissing';
    }
    if (this.unreachable) {
      return 'unreachable';
    }
    return this.streaming ? 'streaming' : 'ready';
  }

  private async refreshKey(): Promise<void> {
    const missing = !(await this.services.secrets.get('chat'));
    if (missing !== this.keyMissing) {
      this.keyMissing = missing;
      this.render();
    }
  }

  private render(): void {
    const model = this.services.settings.chatModel.toUpperCase();
    const item = this.item;
    item.backgroundColor = undefined;
    switch (this.state) {
      case 'keyMissing':
        item.text = `$(key) ${vscode.l10n.t('{0}: no key', model)}`;
        item.tooltip = vscode.l10n.t('No chat API key is set. Click to set it.');
        item.command = 'alpha.setApiKey';
        item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
        break;
      case 'unreachable':
        item.text = `$(debug-disconnect) ${vscode.l10n.t('{0}: unreachable', model)}`;
        item.tooltip = vscode.l10n.t('The service could not be reached. Click to test the connection.');
        item.command = 'alphaAxo.testConnection';
        item.backgroundColor = new vscode.ThemeColor('statusBarItem.errorBackground');
        break;
      case 'streaming':
        item.text = `$(loading~spin) ${model}`;
        item.tooltip = vscode.l10n.t('{0} is replying. Click to stop.', model);
        item.command = 'alpha.chat.stop';
        break;
      default:
        item.text = `$(comment-discussion) ${model}`;
        item.tooltip = vscode.l10n.t('{0} is ready. Click to open the chat.', model);
        item.command = 'alpha.chat.open';
    }
    item.accessibilityInformation = { label: `ALPHA & AXO: ${String(item.tooltip)}` };
  }
}
