import * as vscode from 'vscode';
import { keyLabel, type KeyKind } from '../../core/service/errors';
import { KEYRING_TIMEOUT_MS, KeyringError, SecretStore } from '../../host/secretStore';
import type { Services } from '../../host/services';

/** Why the keyring failed, as the second half of a sentence. */
function reason(error: KeyringError): string {
  return error.problem === 'timeout'
    ? vscode.l10n.t("VS Code's secret storage did not answer within {0} s", Math.round(KEYRING_TIMEOUT_MS / 1000))
    : vscode.l10n.t(
        "VS Code's secret storage is not available here (on Linux it needs a keyring such as GNOME Keyring or KWallet)",
      );
}

/** Explains how to use the environment variable instead; the key is not kept. */
async function explainEnvironment(kind: KeyKind): Promise<void> {
  await vscode.window.showInformationMessage(
    vscode.l10n.t(
      'Set {0} to your {1} in the environment VS Code is started from (on a remote, in the remote environment), then reload the window.',
      SecretStore.envVar(kind),
      keyLabel(kind),
    ),
  );
}

/**
 * The keyring refused or did not answer when storing a key the user typed: says so in one sentence and offers
 * to keep the key for this session only (in memory) or to use the environment variable. Returns true when the
 * key was kept for the session.
 */
export async function offerSessionKey(
  services: Services,
  kind: KeyKind,
  value: string,
  error: KeyringError,
): Promise<boolean> {
  services.log.warn(`The ${keyLabel(kind)} could not be stored: ${error.message}`);
  const keep = vscode.l10n.t('Keep for This Session');
  const env = vscode.l10n.t('Use {0}', SecretStore.envVar(kind));
  const choice = await vscode.window.showWarningMessage(
    vscode.l10n.t('Your {0} could not be stored securely: {1}.', keyLabel(kind), reason(error)),
    keep,
    env,
  );
  if (choice === keep) {
    services.secrets.setSession(kind, value);
    void vscode.window.showInformationMessage(
      vscode.l10n.t('Your {0} is kept for this session only; it is not written anywhere.', keyLabel(kind)),
    );
    return true;
  }
  if (choice === env) {
    await explainEnvironment(kind);
  }
  return false;
}

/**
 * When the keyring cannot be read and no other key is at hand, says so once per window and offers the same two
 * ways on: enter the key for this session, or use the environment variable. Every failure is logged.
 */
export function registerKeyringNotice(
  services: Services,
  promptForSessionKey: (kind: KeyKind) => Promise<boolean>,
): vscode.Disposable {
  let shown = false;
  return services.secrets.onDidFail((error) => {
    services.log.warn(`Secret storage: ${error.message}`);
    if (error.operation !== 'read' || shown || services.secrets.hasFallback(error.kind)) {
      return;
    }
    shown = true;
    const kind = error.kind;
    const enter = vscode.l10n.t('Enter Key for This Session');
    const env = vscode.l10n.t('Use {0}', SecretStore.envVar(kind));
    const offer = async () => {
      const choice = await vscode.window.showWarningMessage(
        vscode.l10n.t('Your {0} could not be read from secure storage: {1}.', keyLabel(kind), reason(error)),
        enter,
        env,
      );
      if (choice === enter) {
        await promptForSessionKey(kind);
      } else if (choice === env) {
        await explainEnvironment(kind);
      }
    };
    void offer();
  });
}
