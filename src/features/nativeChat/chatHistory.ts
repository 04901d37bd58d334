import type { ChatMessage } from '../../core/alphaClient';
import type { ChatRequestTurn, ChatResponseTurn } from './chatApi';

/** How much earlier conversation goes along with a request, in characters (newest turns kept first). */
export const HISTORY_BUDGET_CHARS = 60_000;

/**
 * The participant's earlier turns as service messages. VS Code passes only this participant's turns. A request turn
 * becomes the prompt that was actually sent (kept in its response's `metadata.sentPrompt`, so code from a `/fix`
 * stays in the conversation), else `/command prompt`; a response turn becomes its Markdown text. Failed or empty
 * turns are dropped; the oldest turns go first when the budget is exceeded.
 */
export function historyMessages(
  history: readonly (ChatRequestTurn | ChatResponseTurn)[],
  budgetChars = HISTORY_BUDGET_CHARS,
): ChatMessage[] {
  const messages: ChatMessage[] = [];
  for (let i = 0; i < history.length; i++) {
    const turn = history[i];
    if (!isRequestTurn(turn)) {
      continue;
    }
    const next = history[i + 1];
    const response = next && !isRequestTurn(next) ? next : undefined;
    const answer = response ? responseText(response) : '';
    if (!answer.trim()) {
      continue;
    }
    const sent = response?.result.metadata?.sentPrompt;
    const asked = typeof sent === 'string' ? sent : turn.command ? `/${turn.command} ${turn.prompt}` : turn.prompt;
    messages.push({ role: 'user', content: asked }, { role: 'assistant', content: answer });
  }
  return trimToBudget(messages, budgetChars);
}

/** The Markdown a response turn showed. */
export function responseText(turn: ChatResponseTurn): string {
  return turn.response
    .map((part) => {
      const value = (part as { value?: unknown }).value;
      if (typeof value === 'string') {
        return value;
      }
      const markdown = (value as { value?: unknown } | undefined)?.value;
      return typeof markdown === 'string' ? markdown : '';
    })
    .join('');
}

function isRequestTurn(turn: ChatRequestTurn | ChatResponseTurn): turn is ChatRequestTurn {
  return typeof (turn as ChatRequestTurn).prompt === 'string' && !('response' in turn);
}

function trimToBudget(messages: ChatMessage[], budgetChars: number): ChatMessage[] {
  let total = 0;
  let keepFrom = messages.length;
  // Whole exchanges (user + assistant) only, newest first.
  for (let i = messages.length - 2; i >= 0; i -= 2) {
    const size = messages[i].content.length + messages[i + 1].content.length;
    if (total + size > budgetChars) {
      break;
    }
    total += size;
    keepFrom = i;
  }
  return messages.slice(keepFrom);
}
