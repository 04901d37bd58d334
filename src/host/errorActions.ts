import * as vscode from 'vscode';
import { ServiceError, describeError, isAbortError, type ErrorAction } from '../core/service/errors';

/**
 * Button labels for each action; also the labels the webviews show. Getters, so each label is translated
 * when it is read (the l10n bundle is loaded with the extension, not before its modules).
 */
export const ACTION_LABELS: Readonly<Record<Exclude<ErrorAction, 'none'>, string>> = {
  get setChatKey() {
    return vscode.l10n.t('Set Chat API Key');
  },
  get setEncyclopediaKey() {
    return vscode.l10n.t('Set Encyclopedia API Key');
  },
  get retry() {
    return vscode.l10n.t('Retry');
  },
  get openSettings() {
    return vscode.l10n.t('Open Settings');
  },
};

/**
 * The command behind an action (everything but Retry, which the caller owns): what a button runs, in a notification
 * or in VS Code's chat view.
 */
export function actionCommand(action: ErrorAction): vscode.Command | undefined {
  switch (action) {
    case 'setChatKey':
      return { command: 'alpha.setApiKey', title: ACTION_LABELS.setChatKey };
    case 'setEncyclopediaKey':
      return { command: 'axo.setApiKey', title: ACTION_LABELS.setEncyclopediaKey };
    case 'openSettings':
      return {
        command: 'workbench.action.openSettings',
        title: ACTION_LABELS.openSettings,
        arguments: ['alphaAxo.baseUrl'],
      };
    default:
      return undefined;
  }
}

/** Runs the host side of an action (everything but Retry, which the caller owns). */
export async function runErrorAction(action: ErrorAction): Promise<void> {
  const command = actionCommand(action);
  if (command) {
    await vscode.commands.executeCommand(command.command, ...(command.arguments ?? []));
  }
}

/**
 * Shows an error as a notification with its fitting action. Aborts are quiet.
 * `retry`, when given, is offered for retryable errors and run when chosen.
 */
export async function showServiceError(error: unknown, retry?: () => unknown): Promise<void> {
  if (isAbortError(error)) {
    return;
  }
  const message = describeError(error);
  const action: ErrorAction = error instanceof ServiceError ? error.action : 'none';
  const offered = action === 'none' || (action === 'retry' && !retry) ? undefined : ACTION_LABELS[action];
  const choice = await vscode.window.showErrorMessage(message, ...(offered ? [offered] : []));
  if (!choice) {
    return;
  }
  if (action === 'retry') {
    await retry?.();
  } else {
    await runErrorAction(action);
  }
}
