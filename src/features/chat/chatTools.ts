import * as vscode from 'vscode';
import type { Conversation } from '../../core/chat/conversation/conversation';
import type { ChatToolbox, StepReview } from '../../core/chat/tools/chatTool';

/**
 * ALPHA's tools in this window's chat, as the chat takes them (src/features/chat/tools builds them): the toolbox
 * the conversation's access picks from, and how a step's proposed edit is reviewed again. Absent: the chat offers
 * no tools and shows no control.
 */
export interface ChatToolsHost {
  readonly toolbox: ChatToolbox;
  /** Opens a proposed edit's review again (while it lasts). */
  openReview(review: StepReview): Promise<void>;
}

/** Asks the user a tool's yes/no question in a modal dialog; dismissing it declines. */
export async function confirmTool(question: string, yes: string): Promise<boolean> {
  const choice = await vscode.window.showWarningMessage(question, { modal: true }, yes);
  return choice === yes;
}

/**
 * Opens the review of step `stepId` of message `messageId` (ids a page names: looked up here, on the path shown and
 * its branches); nothing when there is no such step or it proposed no edit.
 */
export async function openStepReview(
  conversation: Conversation,
  messageId: string,
  stepId: string,
  tools: ChatToolsHost,
): Promise<void> {
  const message = [...conversation.messages, ...(conversation.branches ?? [])].find((m) => m.id === messageId);
  const review = message?.steps?.find((s) => s.id === stepId)?.review;
  if (review) {
    await tools.openReview(review);
  }
}
