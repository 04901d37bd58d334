import * as vscode from 'vscode';
import type { KeyGate, KeyRoute } from '../core/net/keyRoute';
import { ServiceError } from '../core/service/errors';

/** The hosts the user agreed to send keys to over plain http (globalState: host names, no secret). */
const PLAIN_HTTP_HOSTS_KEY = 'alphaAxo.plainHttpHosts';
/** Set once the user was told that keys go over connections whose certificate is not checked. */
const UNVERIFIED_TLS_KEY = 'alphaAxo.unverifiedTlsNoticed';

/** Where the service URL is kept, to switch it to https when the user chooses so. */
export interface BaseUrlSetting {
  readonly baseUrl: string | undefined;
  setBaseUrl(url: string): Thenable<void>;
}

/**
 * The host's side of the key gate (see {@link KeyGate}). Plain http to another computer: a modal asks the first time
 * a key is about to go to that host (Send Anyway, remembered per host; Use https, which rewrites
 * `alphaAxo.baseUrl`; Cancel, and nothing is sent). TLS without certificate checks (`http.proxyStrictSSL: false`):
 * one notice, the first time, naming the setting and the better ways.
 */
export class KeyRoutePrompt {
  /** One question per host at a time: requests that start together wait for the same answer. */
  private readonly asking = new Map<string, Promise<'send' | 'https'>>();

  constructor(
    private readonly state: vscode.Memento,
    private readonly setting: BaseUrlSetting,
  ) {}

  /** The gate for the HTTP client. */
  readonly gate: KeyGate = async (route: KeyRoute) => {
    const url = route.plainHttp ? await this.plainHttp(route.url) : route.url;
    if (route.unverifiedTls) {
      this.noticeUnverified(url);
    }
    return url;
  };

  private async plainHttp(url: URL): Promise<URL> {
    if (this.state.get<string[]>(PLAIN_HTTP_HOSTS_KEY, []).includes(url.host)) {
      return url;
    }
    let answer = this.asking.get(url.host);
    if (!answer) {
      answer = this.ask(url).finally(() => this.asking.delete(url.host));
      this.asking.set(url.host, answer);
    }
    if ((await answer) === 'send') {
      return url;
    }
    const secure = new URL(url);
    secure.protocol = 'https:';
    return secure;
  }

  /** The user's answer for a host; rejects (nothing is sent) on Cancel. */
  private async ask(url: URL): Promise<'send' | 'https'> {
    const send = vscode.l10n.t('Send Anyway');
    const https = vscode.l10n.t('Use https');
    const choice = await vscode.window.showWarningMessage(
      vscode.l10n.t('Send your API key to {0} over plain http?', url.host),
      {
        modal: true,
        detail: vscode.l10n.t(
          '"alphaAxo.baseUrl" is an http:// address on another computer: your key, your prompts and the replies would cross the network unencrypted, readable by anyone on the way. Choose Use https unless you trust every network in between.',
        ),
      },
      send,
      https,
    );
    if (choice === send) {
      const hosts = this.state.get<string[]>(PLAIN_HTTP_HOSTS_KEY, []);
      await this.state.update(PLAIN_HTTP_HOSTS_KEY, [...new Set([...hosts, url.host])]);
      return 'send';
    }
    if (choice === https) {
      const base = this.setting.baseUrl?.trim();
      if (base && /^http:/i.test(base)) {
        await this.setting.setBaseUrl(base.replace(/^http:/i, 'https:'));
      }
      return 'https';
    }
    throw new ServiceError(
      'config',
      vscode.l10n.t(
        'Nothing was sent: your key goes to {0} over plain http only once you agree. Change "alphaAxo.baseUrl" to https://, or send again and choose Send Anyway.',
        url.host,
      ),
    );
  }

  private noticeUnverified(url: URL): void {
    if (this.state.get<boolean>(UNVERIFIED_TLS_KEY) === true) {
      return;
    }
    void this.state.update(UNVERIFIED_TLS_KEY, true);
    const open = vscode.l10n.t('Open Settings');
    void vscode.window
      .showWarningMessage(
        vscode.l10n.t(
          'Your API key is sent to {0} over a connection whose certificate is not checked, because "http.proxyStrictSSL" is off. If your network inspects TLS with its own certificate authority, trust it with "http.systemCertificates" or NODE_EXTRA_CA_CERTS instead and turn "http.proxyStrictSSL" back on.',
          url.host,
        ),
        open,
      )
      .then((choice) =>
        choice === open
          ? vscode.commands.executeCommand('workbench.action.openSettings', 'http.proxyStrictSSL')
          : undefined,
      );
  }
}
