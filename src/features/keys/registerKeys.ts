import * as vscode from 'vscode';
import { describeError, keyLabel, type KeyKind } from '../../core/errors';
import type { Services } from '../../host/services';
import { testConnection } from './connectionTest';
import { registerWalkthrough } from './walkthrough';

const TITLES: Record<KeyKind, string> = {
  chat: 'ALPHA: Chat API Key',
  encyclopedia: 'AXO: Encyclopedia API Key',
};

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
  );
  void refreshRedaction(services);
  registerWalkthrough(services);
}

/** Asks for a key in a password input box; trimmed, empty refused. Returns true when one was stored. */
export async function promptForKey(services: Services, kind: KeyKind): Promise<boolean> {
  const other: KeyKind = kind === 'chat' ? 'encyclopedia' : 'chat';
  const otherKey = await services.secrets.get(other);
  const value = await vscode.window.showInputBox({
    title: TITLES[kind],
    prompt:
      kind === 'chat'
        ? "Paste your chat API key (billed per token). It is kept in VS Code's secret storage only."
        : "Paste your encyclopedia API key (free). It is kept in VS Code's secret storage only.",
    placeHolder: kind === 'chat' ? 'Chat API key from the dashboard' : 'Encyclopedia API key from the dashboard',
    password: true,
    ignoreFocusOut: true,
    validateInput: (text) => {
      const trimmed = text.trim();
      if (!trimmed) {
        return `The ${keyLabel(kind)} cannot be empty.`;
      }
      if (/\s/.test(trimmed)) {
        return 'A key has no spaces inside it. Check that you pasted only the key.';
      }
      if (otherKey && trimmed === otherKey) {
        return `This is your ${keyLabel(other)}. The two kinds of key are different.`;
      }
      return undefined;
    },
  });
  if (value === undefined || !value.trim()) {
    return false;
  }
  await services.secrets.set(kind, value);
  await refreshRedaction(services);
  services.log.info(`The ${keyLabel(kind)} was set.`);
  void vscode.window.showInformationMessage(`Your ${keyLabel(kind)} is saved in VS Code's secret storage.`);
  return true;
}

async function clearKeys(services: Services): Promise<void> {
  const choice = await vscode.window.showWarningMessage(
    "Remove both API keys (chat and encyclopedia) from VS Code's secret storage?",
    { modal: true },
    'Remove Keys',
  );
  if (choice !== 'Remove Keys') {
    return;
  }
  try {
    await services.secrets.delete('chat');
    await services.secrets.delete('encyclopedia');
    services.log.info('Both API keys were removed.');
    void vscode.window.showInformationMessage('Both API keys were removed.');
  } catch (error) {
    void vscode.window.showErrorMessage(`Could not remove the keys: ${describeError(error)}`);
  }
}

/** Keeps the logger's list of strings to redact equal to the current keys. */
async function refreshRedaction(services: Services): Promise<void> {
  services.log.setSecrets([await services.secrets.get('chat'), await services.secrets.get('encyclopedia')]);
}
