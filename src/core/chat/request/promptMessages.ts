import type { ChatMessage } from '../../service/alphaClient';
import type { ContextItem, StoredMessage } from '../conversation/conversation';

/** A fence longer than any run of backticks in `content`, so the context cannot close it early. */
export function fenceFor(content: string): string {
  let longest = 0;
  for (const match of content.matchAll(/`+/g)) {
    longest = Math.max(longest, match[0].length);
  }
  return '`'.repeat(Math.max(3, longest + 1));
}

/** A context item as the model reads it: its label, then its content as a fenced block with the language. */
export function contextBlock(item: ContextItem): string {
  const fence = fenceFor(item.content);
  const body = item.content.endsWith('\n') ? item.content : `${item.content}\n`;
  return `${item.label}:\n${fence}${item.language ?? ''}\n${body}${fence}`;
}

/** The text sent for a prompt: its context blocks first, then what the user typed. */
export function promptText(message: Pick<StoredMessage, 'content' | 'context'>): string {
  const blocks = (message.context ?? []).map(contextBlock);
  return [...blocks, message.content].filter((p) => p.length > 0).join('\n\n');
}

/**
 * The messages to send for a conversation: prompts with their context, and the replies that have text (a stopped
 * or cut reply is sent as far as it got; failed replies without text and the reply now being written are left out).
 */
export function requestMessages(messages: readonly StoredMessage[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (const m of messages) {
    if (m.role === 'user') {
      out.push({ role: 'user', content: promptText(m) });
    } else if (m.status !== 'streaming' && m.content.trim()) {
      out.push({ role: 'assistant', content: m.content });
    }
  }
  return out;
}
