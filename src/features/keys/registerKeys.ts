import * as vscode from 'vscode';
import { describeError, keyLabel, type KeyKind } from '../../core/service/errors';
import { KeyringError, SecretStore } from '../../host/secretStore';
import type { Services } from '../../host/services';
import { testConnection } from './connectionTest';
import { offerSessionKey, registerKeyringNotice } from './keyringNotice';
import { registerWalkthrough } from './walkthrough';

/** Registers the key commands, the connection test and the log command. */
export function registerKeys(services: Services): void {
  const { context, secrets, log } = services;
  context.subscriptions.push(
    vscode.commands.registerCommand('alpha.setApiKey', () => promptForKey(services, 'chat')),
    vscode.commands.registerCommand('axo.setApiKey', () => promptForKey(services, 'encyclopedia')),
    vscode.commands.registerCommand('alphaAxo.clearApiKeys', () => clearKeys(services)),
    vscode.commands.registerCommand('alphaAxo.testConnection', () => testConnection(services)),
    vscode.commands.registerCommand('alphaAxo.showLogs', () => log.channel.show()),
    secrets.onDidChange(() => void refreshRedaction(services)),
    registerKeyringNotice(services, (kind) => promptForKey(services, kind, { sessionOnly: true })),
  );
  void refreshRedaction(services);
  registerWalkthrough(services);
}

/**
 * Asks for a key in a password input box; trimmed, empty refused. Stores it in SecretStorage, or with
 * `sessionOnly` (or when the keyring fails and the user chooses so) keeps it in memory for this session.
 * Returns true when a key was kept.
 */
export async function promptForKey(
  services: Services,
  kind: KeyKind,
  options: { sessionOnly?: boolean } = {},
): Promise<boolean> {
  const other: KeyKind = kind === 'chat' ? 'encyclopedia' : 'chat';
  // Not awaited: a keyring that hangs must not hold the input box back; the check uses it once it is known.
  let otherKey: string | undefined;
  void services.secrets.get(other).then((key) => (otherKey = key));
  const value = await vscode.window.showInputBox({
    title: kind === 'chat' ? vscode.l10n.t('ALPHA: Chat API Key') : vscode.l10n.t('AXO: Encyclopedia API Key'),
    prompt: options.sessionOnly
      ? vscode.l10n.t(
          'Paste your {0}. It is kept in memory for this session only, never written anywhere.',
          keyLabel(kind),
        )
      : kind === 'chat'
        ? vscode.l10n.t("Paste your chat API key (billed per token). It is kept in VS Code's secret storage only.")
        : vscode.l10n.t("Paste your encyclopedia API key (free). It is kept in VS Code's secret storage only."),
    placeHolder:
      kind === 'chat'
        ? vscode.l10n.t('Chat API key from the dashboard')
        : vscode.l10n.t('Encyclopedia API key from the dashboard'),
    password: true,
    ignoreFocusOut: true,
    validateInput: (text) => {
      const trimmed = text.trim();
      if (!trimmed) {
        return vscode.l10n.t('The {0} cannot be empty.', keyLabel(kind));
      }
      if (/\s/.test(trimmed)) {
        return vscode.l10n.t('A key has no spaces inside it. Check that you pasted only the key.');
      }
      if (otherKey && trimmed === otherKey) {
        return vscode.l10n.t('This is your {0}. The two kinds of key are different.', keyLabel(other));
      }
      return undefined;
    },
  });
  if (value === undefined || !value.trim()) {
    return false;
  }
  return keepKey(services, kind, value, options.sessionOnly === true);
}

/** Stores a typed key, or keeps it for the session; a keyring failure offers the ways on, never loses the key. */
async function keepKey(services: Services, kind: KeyKind, value: string, sessionOnly: boolean): Promise<boolean> {
  // A typed key is the user's secret whether or not it can be stored.
  services.scrubber.add(value);
  if (sessionOnly) {
    services.secrets.setSession(kind, value);
    await refreshRedaction(services);
    void vscode.window.showInformationMessage(
      vscode.l10n.t('Your {0} is kept for this session only; it is not written anywhere.', keyLabel(kind)),
    );
    return true;
  }
  try {
    await services.secrets.set(kind, value);
  } catch (error) {
    if (error instanceof KeyringError) {
      const kept = await offerSessionKey(services, kind, value, error);
      await refreshRedaction(services);
      return kept;
    }
    throw error;
  }
  await refreshRedaction(services);
  services.log.info(`The ${keyLabel(kind)} was set.`);
  void vscode.window.showInformationMessage(
    vscode.l10n.t("Your {0} is saved in VS Code's secret storage.", keyLabel(kind)),
  );
  return true;
}

async function clearKeys(services: Services): Promise<void> {
  const remove = vscode.l10n.t('Remove Keys');
  const choice = await vscode.window.showWarningMessage(
    vscode.l10n.t("Remove both API keys (chat and encyclopedia) from VS Code's secret storage?"),
    { modal: true },
    remove,
  );
  if (choice !== remove) {
    return;
  }
  try {
    await services.secrets.delete('chat');
    await services.secrets.delete('encyclopedia');
    services.log.info('Both API keys were removed.');
    void vscode.window.showInformationMessage(vscode.l10n.t('Both API keys were removed.'));
  } catch (error) {
    const why =
      error instanceof KeyringError
        ? vscode.l10n.t("VS Code's secret storage is not available or did not answer.")
        : describeError(error);
    void vscode.window.showErrorMessage(vscode.l10n.t('Could not remove the keys: {0}', why));
  }
}

/**
 * Tells the scrubber every key there is now: the key of each kind in use (stored, or whatever the key store
 * serves first) and both environment variables, which stay secrets when a stored key hides them. Keys it knew
 * before stay known (a replaced or rejected key is still the user's).
 */
async function refreshRedaction(services: Services): Promise<void> {
  const { secrets, scrubber } = services;
  scrubber.add(process.env[SecretStore.envVar('chat')], process.env[SecretStore.envVar('encyclopedia')]);
  for (const kind of ['chat', 'encyclopedia'] as const) {
    // A keyring that fails was reported where it failed; the keys known so far stay registered.
    scrubber.add(await secrets.get(kind).catch(() => undefined));
  }
}
