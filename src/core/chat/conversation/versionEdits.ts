import { leavePath, newVersionTime } from './branches';
import { newId, type Conversation, type StoredMessage } from './conversation';
import { changeSetting } from './conversationSettings';
import { hasPromptTitle, titleFrom } from './promptAdd';

/**
 * Makes room for a reply written again (Regenerate, Retry): `messageId`'s, else the last one (or the missing reply
 * to the last prompt). The old reply, and what followed it, stays as a branch; a last reply that got nothing is
 * dropped (one the service reported usage for stays a version: the total counts it). Returns the new version's
 * time, or undefined when there is no such reply to write again.
 */
export function prepareRegenerate(conversation: Conversation, messageId?: string): number | undefined {
  const messages = conversation.messages;
  const index =
    messageId === undefined
      ? messages.at(-1)?.role === 'assistant'
        ? messages.length - 1
        : messages.length
      : messages.findIndex((m) => m.id === messageId && m.role === 'assistant');
  if (index < 1 || messages[index - 1].role !== 'user') {
    return undefined;
  }
  const old = messages[index];
  const at = newVersionTime(conversation, index);
  if (old && index === messages.length - 1 && !old.content.trim() && !old.usage) {
    messages.pop();
  } else {
    leavePath(conversation, index);
  }
  return at;
}

/**
 * Puts the prompt `messageId` again as `text`, keeping its context: the edited prompt becomes a sibling of the old
 * one, which stays as a branch with everything that followed it. False when there is no such prompt, or nothing
 * to send.
 */
export function prepareEdit(conversation: Conversation, messageId: string, text: string): boolean {
  const messages = conversation.messages;
  const index = messages.findIndex((m) => m.id === messageId && m.role === 'user');
  if (index < 0 || (!text.trim() && !messages[index].context?.length)) {
    return false;
  }
  const edited: StoredMessage = {
    ...messages[index],
    id: newId(),
    content: text,
    createdAt: newVersionTime(conversation, index),
  };
  // A title the first prompt gave follows its new version; one the user gave stays.
  const autoTitle = index === 0 && hasPromptTitle(conversation);
  leavePath(conversation, index);
  messages.push(edited);
  if (autoTitle) {
    changeSetting(conversation, 'title', titleFrom(text, edited.context ?? []));
  }
  return true;
}
