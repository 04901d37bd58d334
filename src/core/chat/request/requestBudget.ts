import type { ChatMessage } from '../../service/alphaClient';
import { estimateTokens } from '../../service/tokenEstimate';
import type { Budget } from '../runs/chatStateTypes';
import { estimateMessagesTokens } from './contextBudget';
import type { ContextItem, StoredMessage } from '../conversation/conversation';
import type { Instructions } from './instructions';
import { contextTokensOf } from './modelLineup';
import { contextBlock, requestMessages } from './promptMessages';

/** What the estimate of the next request is made of. */
export interface NextRequest {
  /** The path shown, after the compaction in force (see compaction.ts). */
  messages: readonly StoredMessage[];
  /** The message standing for the turns the compaction in force summarised. */
  summary?: ChatMessage;
  /** The attachments waiting for the next prompt. */
  pending: readonly ContextItem[];
  instructions: Instructions | undefined;
  /** The grounding expected (the last grounded request's), 0 when grounding is off. */
  groundingTokens: number;
  /** The tools message's estimate (`toolsMessageTokens`), 0 when ALPHA may use no tool. */
  toolsTokens?: number;
  model: string;
}

/**
 * The estimate of the next request before anything is trimmed, by part, as the composer's gauge shows it: the
 * conversation as it would be sent, the pending attachments as their blocks, the instructions as their message
 * (each message with its overhead, as `estimateMessagesTokens` counts), the grounding expected, and the tools
 * message when ALPHA may use tools. The text not yet typed is not counted.
 */
export function nextRequestBudget(next: NextRequest): Budget {
  const conversation = estimateMessagesTokens([
    ...(next.summary ? [next.summary] : []),
    ...requestMessages(next.messages),
  ]);
  const attachments = next.pending.reduce((sum, c) => sum + estimateTokens(contextBlock(c)), 0);
  const message = next.instructions?.message;
  const instructions = message ? estimateMessagesTokens([{ role: 'user', content: message }]) : 0;
  const tools = next.toolsTokens ?? 0;
  const parts = { conversation, attachments, instructions, grounding: next.groundingTokens, tools };
  return {
    usedTokens: conversation + attachments + instructions + next.groundingTokens + tools,
    limitTokens: contextTokensOf(next.model),
    parts,
  };
}

/** The estimate of a tools message as a request carries it (one message with its overhead). */
export function toolsMessageTokens(toolsMessage: string): number {
  return toolsMessage ? estimateMessagesTokens([{ role: 'system', content: toolsMessage }]) : 0;
}
