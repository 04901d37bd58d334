import type { Conversation } from '../conversation/conversation';

/** One line of the conversation list. */
export interface ConversationSummary {
  id: string;
  title: string;
  updatedAt: number;
  messageCount: number;
  pinned?: boolean;
  /** The workspace it was started in (see `Conversation.workspace`). */
  workspace?: string;
}

/** What another window changed: conversations whose files changed, and whether the list did. */
export interface StoreChange {
  ids: ReadonlySet<string>;
  list: boolean;
}

const ID = /^[A-Za-z0-9_-]{1,64}$/;

/** Whether `id` is a safe conversation id (it names a file; ids from a webview are checked with this). */
export function isConversationId(id: unknown): id is string {
  return typeof id === 'string' && ID.test(id);
}

/** The summary of a conversation. */
export function summaryOf(c: Conversation): ConversationSummary {
  const summary: ConversationSummary = {
    id: c.id,
    title: c.title,
    updatedAt: c.updatedAt,
    messageCount: c.messages.length,
  };
  if (c.pinned) {
    summary.pinned = true;
  }
  if (c.workspace) {
    summary.workspace = c.workspace;
  }
  return summary;
}

/** The list's order: pinned conversations first, then the most recently changed. */
export function listOrder(a: ConversationSummary, b: ConversationSummary): number {
  return Number(b.pinned === true) - Number(a.pinned === true) || b.updatedAt - a.updatedAt;
}
