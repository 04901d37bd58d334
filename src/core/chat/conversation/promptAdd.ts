import * as l10n from '@vscode/l10n';
import { newId, titleFor, type ContextItem, type Conversation, type StoredMessage } from './conversation';

/**
 * Adds a prompt with `context` to the end of `conversation` and titles a conversation that has no title yet. The
 * attachments are kept whole: only a request is trimmed to the model's context, and its reply records and shows
 * what (requestBuilder.ts). Returns false when there is nothing to add.
 */
export function addPrompt(conversation: Conversation, text: string, context: readonly ContextItem[]): boolean {
  if (!text.trim() && context.length === 0) {
    return false;
  }
  const user: StoredMessage = { id: newId(), role: 'user', content: text, createdAt: Date.now() };
  if (context.length) {
    user.context = [...context];
  }
  conversation.messages.push(user);
  if (!conversation.title) {
    conversation.title = titleFrom(text, context);
  }
  return true;
}

/** Adds a reply already received (not asked of ALPHA now), with what fitting its request trimmed. */
export function addRecordedReply(
  conversation: Conversation,
  text: string,
  model: string,
  trimmed: Pick<StoredMessage, 'notice' | 'trim'>,
): void {
  conversation.messages.push({
    id: newId(),
    role: 'assistant',
    content: text,
    createdAt: Date.now(),
    status: 'done',
    model,
    ...(trimmed.notice ? { notice: trimmed.notice } : {}),
    ...(trimmed.trim ? { trim: trimmed.trim } : {}),
  });
  conversation.updatedAt = Date.now();
}

/** Whether the title is the one the first prompt gave (not one the user gave): it then follows that prompt's version. */
export function hasPromptTitle(conversation: Conversation): boolean {
  const first = conversation.messages[0];
  return first !== undefined && conversation.title === titleFrom(first.content, first.context ?? []);
}

/** The title of a conversation: its first prompt, or the label of its first context. */
export function titleFrom(text: string, context: readonly ContextItem[]): string {
  const line = text.trim() ? text : context[0] ? l10n.t('About {0}', context[0].label) : '';
  return titleFor(line);
}

/** Adds context chips to `pending` (the same label and content only once). */
export function addPending(pending: ContextItem[], items: readonly ContextItem[]): void {
  for (const item of items) {
    if (!pending.some((p) => p.label === item.label && p.content === item.content)) {
      pending.push(item);
    }
  }
}
