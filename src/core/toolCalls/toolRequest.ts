import type { ChatMessage } from '../service/alphaClient';
import { estimateTokens } from '../service/tokenEstimate';

/** Tokens a message costs beyond its text (role and separators), as chat formats add them. */
export const MESSAGE_OVERHEAD = 4;

/** The estimated tokens of a message. */
export function messageTokens(message: ChatMessage): number {
  return estimateTokens(message.content) + MESSAGE_OVERHEAD;
}

/** A request that fits: its messages, and how many earlier messages were left out to fit. */
export interface FittedRequest {
  messages: ChatMessage[];
  dropped: number;
}

/**
 * The messages of a request with tools: the leading system messages, then the tools message (as a system message),
 * then the conversation. When the estimate is over `maxTokens`, the oldest messages of the conversation go first;
 * the system messages, the tools message and the last prompt (`lastPrompt`, else the last user message) with all
 * after it always stay (when they alone are over the budget the service is left to say so).
 */
export function fitRequest(
  conversation: readonly ChatMessage[],
  toolsMessage: string,
  maxTokens: number,
  lastPrompt?: number,
): FittedRequest {
  let lead = 0;
  while (lead < conversation.length && conversation[lead].role === 'system') {
    lead++;
  }
  const head = [...conversation.slice(0, lead)];
  if (toolsMessage) {
    head.push({ role: 'system', content: toolsMessage });
  }
  const rest = conversation.slice(lead);
  let lastUser = lastPrompt !== undefined && lastPrompt >= lead ? lastPrompt - lead : rest.length - 1;
  while (lastPrompt === undefined && lastUser >= 0 && rest[lastUser].role !== 'user') {
    lastUser--;
  }
  let total = [...head, ...rest].reduce((sum, m) => sum + messageTokens(m), 0);
  let start = 0;
  // Only messages before the last user message may go; what follows it (a call and its result) stays too.
  while (total > maxTokens && start < Math.max(0, lastUser)) {
    total -= messageTokens(rest[start]);
    start++;
  }
  return { messages: [...head, ...rest.slice(start)], dropped: start };
}
