import * as vscode from 'vscode';
import type { CompactOutcome } from '../../core/chat/runs/compactRun';

/** What compacting asks of the chat. */
export interface Compactable {
  compact(): Promise<CompactOutcome>;
  undoCompaction(id: string): Promise<boolean>;
}

/**
 * "ALPHA: Compact Conversation" (the palette, the chat's title menu, and the gauge's Compact past 80 %): asks ALPHA
 * for the summary under a progress notification, then says what happened; a compaction is offered Undo at once (the
 * marker in the conversation offers it too).
 */
export async function compactWithProgress(chat: Compactable): Promise<void> {
  const outcome = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Compacting the conversation…') },
    () => chat.compact(),
  );
  switch (outcome.kind) {
    case 'nothing':
      void vscode.window.showInformationMessage(
        vscode.l10n.t('There is nothing to compact yet: the conversation needs two messages before its last turn.'),
      );
      return;
    case 'failed':
      void vscode.window.showErrorMessage(
        vscode.l10n.t('The conversation could not be compacted: {0}', outcome.error.message),
      );
      return;
    case 'stopped':
      return;
    case 'compacted': {
      const undo = vscode.l10n.t('Undo');
      const choice = await vscode.window.showInformationMessage(
        vscode.l10n.t(
          'Compacted {0} messages into a summary: it is sent instead of them from now on. They stay in the conversation.',
          outcome.compaction.messages,
        ),
        undo,
      );
      if (choice === undo) {
        await chat.undoCompaction(outcome.compaction.id);
      }
    }
  }
}
