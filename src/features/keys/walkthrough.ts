import * as vscode from 'vscode';
import type { Services } from '../../host/services';

const SHOWN_KEY = 'alphaAxo.walkthroughShown';

/**
 * Keeps the context keys the walkthrough steps complete on (`alphaAxo.hasBaseUrl`, `alphaAxo.hasChatKey`,
 * `alphaAxo.hasEncyclopediaKey`) equal to the truth, and opens the walkthrough on the first activation only.
 */
export function registerWalkthrough(services: Services): void {
  const { context, secrets, settings } = services;
  const refresh = async () => {
    const [chat, encyclopedia] = await Promise.all([secrets.get('chat'), secrets.get('encyclopedia')]);
    await Promise.all([
      vscode.commands.executeCommand('setContext', 'alphaAxo.hasBaseUrl', Boolean(settings.baseUrl?.trim())),
      vscode.commands.executeCommand('setContext', 'alphaAxo.hasChatKey', Boolean(chat)),
      vscode.commands.executeCommand('setContext', 'alphaAxo.hasEncyclopediaKey', Boolean(encyclopedia)),
    ]);
  };
  context.subscriptions.push(
    secrets.onDidChange(() => void refresh()),
    settings.onDidChange(() => void refresh()),
  );
  void refresh();
  const wanted = vscode.workspace.getConfiguration('alphaAxo').get<boolean>('showWalkthroughOnFirstRun', true);
  if (wanted && !context.globalState.get<boolean>(SHOWN_KEY)) {
    void context.globalState.update(SHOWN_KEY, true);
    void vscode.commands.executeCommand(
      'workbench.action.openWalkthrough',
      `${context.extension.id}#gettingStarted`,
      false,
    );
  }
}
