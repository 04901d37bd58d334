import * as l10n from '@vscode/l10n';
import { newId, titleFor, type Conversation } from '../conversation/conversation';
import { changeSetting } from '../conversation/conversationSettings';
import type { ChatStateListener, ConversationHolder } from './chatStateTypes';

/** The longest title a rename keeps. */
export const MAX_TITLE_LENGTH = 200;

/** What the organise operations act on. Each runs inside the chat's operation queue. */
export interface OrganiseContext {
  holder: ConversationHolder;
  listener: ChatStateListener;
  /** Stops the running reply and waits until it has ended and been saved. */
  halt(): Promise<void>;
  /** Whether a reply is running now. */
  replying(): boolean;
}

/**
 * Deletes a conversation; deleting the one shown stops its reply and shows a new one. Returns what was deleted,
 * for Undo ({@link restoreConversation}); undefined when it could not be read (it is deleted all the same).
 */
export async function deleteConversation(context: OrganiseContext, id: string): Promise<Conversation | undefined> {
  const { holder, listener } = context;
  if (id === holder.conversation.id) {
    await context.halt();
  }
  const removed = await holder.read(id);
  const copy = removed && structuredClone(removed);
  await holder.delete(id);
  await listener.conversationChanged();
  return copy;
}

/**
 * Brings a deleted conversation back (Undo). When the deleted one was shown and nothing was written since (the new
 * conversation it left is still empty), it is shown again.
 */
export async function restoreConversation(context: OrganiseContext, conversation: Conversation): Promise<void> {
  const { holder, listener } = context;
  await holder.add(structuredClone(conversation));
  if (holder.conversation.messages.length === 0 && !context.replying()) {
    await holder.switchTo(conversation.id);
    await listener.conversationChanged();
  } else {
    await listener.listChanged();
  }
}

/** Renames a conversation (blank titles are refused: false); the one shown is redrawn with its new title. */
export async function renameConversation(context: OrganiseContext, id: string, title: string): Promise<boolean> {
  const { holder, listener } = context;
  const clean = titleFor(title, MAX_TITLE_LENGTH);
  if (!clean) {
    return false;
  }
  const ok = await holder.update(id, (c) => changeSetting(c, 'title', clean));
  await (id === holder.conversation.id ? listener.conversationChanged() : listener.listChanged());
  return ok;
}

/** Pins a conversation to the top of the list, or unpins it. */
export async function pinConversation(context: OrganiseContext, id: string, pinned: boolean): Promise<boolean> {
  const ok = await context.holder.update(id, (c) => changeSetting(c, 'pinned', pinned ? true : undefined));
  await context.listener.listChanged();
  return ok;
}

/**
 * Copies a conversation under a new id ("… (copy)", not pinned, in the workspace of the original) and shows the
 * copy; the one shown stops its reply first, so the copy holds a finished history. Returns the copy's id.
 */
export async function duplicateConversation(context: OrganiseContext, id: string): Promise<string | undefined> {
  const { holder, listener } = context;
  await context.halt();
  const original = await holder.read(id);
  if (!original) {
    return undefined;
  }
  const now = Date.now();
  const copy: Conversation = {
    ...structuredClone(original),
    id: newId(),
    title: l10n.t('{0} (copy)', original.title || l10n.t('New conversation')),
    createdAt: now,
    updatedAt: now,
  };
  delete copy.pinned;
  await holder.add(copy);
  await holder.switchTo(copy.id);
  await listener.conversationChanged();
  return copy.id;
}
