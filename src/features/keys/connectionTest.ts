import * as vscode from 'vscode';
import { ServiceError, describeError, type ErrorAction } from '../../core/service/errors';
import { ACTION_LABELS, runErrorAction } from '../../host/errorActions';
import type { Services } from '../../host/services';

interface Probe {
  label: string;
  ok: boolean;
  text: string;
  action: ErrorAction;
}

/** Checks both endpoints at once and reports both results in one message, with the fitting actions. */
export async function testConnection(services: Services): Promise<void> {
  const probes = await vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: vscode.l10n.t('ALPHA & AXO: testing the connection…'),
      cancellable: true,
    },
    async (_progress, token) => {
      const controller = new AbortController();
      const sub = token.onCancellationRequested(() => controller.abort());
      try {
        return await Promise.all([
          probe(vscode.l10n.t('Chat'), () =>
            services.alpha.complete(
              { model: services.settings.chatModel, messages: [{ role: 'user', content: 'Reply with OK.' }] },
              controller.signal,
            ),
          ),
          probe(vscode.l10n.t('Encyclopedia'), () => services.axo.search('test', controller.signal)),
        ]);
      } finally {
        sub.dispose();
      }
    },
  );
  const results = probes.map((p) => vscode.l10n.t('{0}: {1}', p.label, p.text)).join(' · ');
  const message = vscode.l10n.t('ALPHA & AXO connection: {0}', results);
  services.log.info(message);
  const actions = [
    ...new Set(probes.filter((p) => !p.ok && p.action !== 'none' && p.action !== 'retry').map((p) => p.action)),
  ];
  if (probes.every((p) => p.ok)) {
    void vscode.window.showInformationMessage(message);
    return;
  }
  const labels = actions.map((a) => ACTION_LABELS[a as Exclude<ErrorAction, 'none'>]);
  const again = vscode.l10n.t('Test Again');
  const choice = await vscode.window.showWarningMessage(message, ...labels, again);
  if (choice === again) {
    await testConnection(services);
  } else if (choice) {
    await runErrorAction(actions[labels.indexOf(choice)]);
  }
}

async function probe(label: Probe['label'], run: () => Promise<unknown>): Promise<Probe> {
  const started = Date.now();
  try {
    await run();
    return { label, ok: true, text: vscode.l10n.t('OK ({0} ms)', Date.now() - started), action: 'none' };
  } catch (error) {
    const action = error instanceof ServiceError ? error.action : 'none';
    return { label, ok: false, text: vscode.l10n.t('failed — {0}', describeError(error)), action };
  }
}
