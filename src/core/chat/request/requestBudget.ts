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
  let conversation = next.summary ? estimateMessagesTokens([next.summary]) : 0;
  for (const message of next.messages) {
    conversation += sentTokens(message);
  }
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

/** A message's estimate, with the fields it was made from. */
interface Estimate {
  content: string;
  context: StoredMessage['context'];
  status: StoredMessage['status'];
  role: StoredMessage['role'];
  tokens: number;
}

/**
 * Each message's estimate, kept while its fields are the same: the gauge is estimated at every state, prompt, end of
 * a reply, chip and model change, and a conversation of 5,000 messages took 14–30 ms to estimate whole. Fields are
 * replaced when they change, never edited in place (see ConversationEncoder), so comparing them is enough.
 */
const estimates = new WeakMap<StoredMessage, Estimate>();

/** The estimate of a message as `requestMessages` sends it (0 when it is not sent), with its overhead. */
function sentTokens(message: StoredMessage): number {
  const { content, context, status, role } = message;
  const kept = estimates.get(message);
  if (kept && kept.content === content && kept.context === context && kept.status === status && kept.role === role) {
    return kept.tokens;
  }
  const sent = requestMessages([message]);
  const tokens = sent.length ? estimateMessagesTokens(sent) : 0;
  estimates.set(message, { content, context, status, role, tokens });
  return tokens;
}

/** The estimate of a tools message as a request carries it (one message with its overhead). */
export function toolsMessageTokens(toolsMessage: string): number {
  return toolsMessage ? estimateMessagesTokens([{ role: 'system', content: toolsMessage }]) : 0;
}
