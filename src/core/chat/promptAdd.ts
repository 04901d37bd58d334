import * as l10n from '@vscode/l10n';
import { estimateTokens } from '../service/tokenEstimate';
import { fitAttachments } from './attachments';
import { estimateMessagesTokens } from './contextBudget';
import { newId, titleFor, type ContextItem, type Conversation, type StoredMessage } from './conversation';
import { contextTokensOf } from './modelLineup';
import { requestMessages } from './promptMessages';

/**
 * Adds a prompt with `context` to the end of `conversation`, its attachments fitted to `model`'s context, and titles
 * a conversation that has no title yet. Returns false when there is nothing to add, else what fitting trimmed (for
 * the reply's notice; undefined when nothing was).
 */
export function addPrompt(
  conversation: Conversation,
  text: string,
  context: readonly ContextItem[],
  model: string,
): { trimNotice: string | undefined } | false {
  if (!text.trim() && context.length === 0) {
    return false;
  }
  const user: StoredMessage = { id: newId(), role: 'user', content: text, createdAt: Date.now() };
  let trimNotice: string | undefined;
  if (context.length) {
    // Attachments the context has no room for are trimmed, and the reply says which (never dropped silently).
    const limit = contextTokensOf(model);
    const used = estimateMessagesTokens(requestMessages(conversation.messages)) + estimateTokens(text) + 16;
    const fit = fitAttachments(context, limit - Math.min(8192, limit / 8) - used);
    user.context = fit.items;
    trimNotice = fit.notice;
  }
  conversation.messages.push(user);
  if (!conversation.title) {
    conversation.title = titleFrom(text, context);
  }
  return { trimNotice };
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
