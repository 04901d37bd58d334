import * as vscode from 'vscode';
import type { ChatState } from '../../core/chat/runs/chatState';

// The organise operations as the user meets them: asked for what is missing, told what could not be done.

/** How long a deleted conversation can be brought back with Undo. */
export const UNDO_SECONDS = 8;

/**
 * Deletes a conversation (the one shown when no id is given) and offers Undo in a notification for
 * UNDO_SECONDS: no confirmation first, as the deletion can be taken back.
 */
export async function deleteWithUndo(chat: ChatState, id?: string): Promise<void> {
  await chat.whenLoaded();
  const removed = await chat.delete(id ?? chat.conversation.id);
  if (!removed || removed.messages.length === 0) {
    return;
  }
  const title = removed.title || vscode.l10n.t('New conversation');
  const until = Date.now() + UNDO_SECONDS * 1000;
  const undo = vscode.l10n.t('Undo');
  const choice = await vscode.window.showInformationMessage(
    vscode.l10n.t('Deleted the conversation “{0}”.', title),
    undo,
  );
  if (choice !== undo) {
    return;
  }
  if (Date.now() > until) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('“{0}” can no longer be restored: Undo lasts {1} seconds.', title, UNDO_SECONDS),
    );
    return;
  }
  await chat.restore(removed);
}

/** Renames a conversation (the one shown when no id is given); without a title, asks for one. */
export async function renameAsking(chat: ChatState, id?: string, title?: string): Promise<void> {
  await chat.whenLoaded();
  const target = id ?? chat.conversation.id;
  let next = title;
  if (next === undefined) {
    const current = (await chat.list()).find((s) => s.id === target)?.title ?? chat.conversation.title;
    next = await vscode.window.showInputBox({
      title: vscode.l10n.t('Rename Conversation'),
      prompt: vscode.l10n.t('The conversation’s new title'),
      value: current,
      validateInput: (value) => (value.trim() ? undefined : vscode.l10n.t('A title cannot be empty.')),
    });
    if (next === undefined) {
      return;
    }
  }
  if (!(await chat.rename(target, next))) {
    void vscode.window.showWarningMessage(
      next.trim()
        ? vscode.l10n.t('That conversation could not be renamed: it was deleted or is damaged.')
        : vscode.l10n.t('A title cannot be empty.'),
    );
  }
}

/** Pins or unpins a conversation (the one shown, toggled, when no id is given). */
export async function togglePinned(chat: ChatState, id?: string, pinned?: boolean): Promise<void> {
  await chat.whenLoaded();
  const target = id ?? chat.conversation.id;
  if (target === chat.conversation.id && chat.conversation.messages.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('An empty conversation cannot be pinned.'));
    return;
  }
  const summary = (await chat.list()).find((s) => s.id === target);
  await chat.setPinned(target, pinned ?? summary?.pinned !== true);
}

/** Copies a conversation (the one shown when no id is given) and shows the copy. */
export async function duplicateShowing(chat: ChatState, id?: string): Promise<void> {
  await chat.whenLoaded();
  if (!(await chat.duplicate(id ?? chat.conversation.id))) {
    void vscode.window.showWarningMessage(
      vscode.l10n.t('That conversation could not be opened: it was deleted or is damaged.'),
    );
  }
}
