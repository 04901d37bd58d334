import { contextBlock } from './promptMessages';
import { displayTitle, type Conversation, type StoredMessage } from './conversation';
import { modelLabel } from './modelLineup';

const STATUS_NOTES: Partial<Record<NonNullable<StoredMessage['status']>, string>> = {
  stopped: '_(stopped)_',
  interrupted: '_(interrupted)_',
};

/**
 * The conversation as a Markdown document: a title, then each message under a heading naming who wrote it, with
 * its context and any error or notice. `formatTime` renders the timestamps (the host passes the user's locale).
 */
export function conversationMarkdown(
  conversation: Conversation,
  formatTime: (ms: number) => string = (ms) => new Date(ms).toISOString(),
): string {
  const parts: string[] = [`# ${displayTitle(conversation)}`, '', `_Exported ${formatTime(Date.now())}_`];
  for (const m of conversation.messages) {
    const who = m.role === 'user' ? 'You' : m.model ? `ALPHA (${modelLabel(m.model)})` : 'ALPHA';
    parts.push('', `## ${who} · ${formatTime(m.createdAt)}`, '');
    for (const item of m.context ?? []) {
      parts.push(contextBlock(item), '');
    }
    if (m.content) {
      parts.push(m.content);
    }
    const note = m.status ? STATUS_NOTES[m.status] : undefined;
    if (note) {
      parts.push('', note);
    }
    if (m.error) {
      parts.push('', `> **Error:** ${m.error.message}`);
    }
    if (m.notice && m.status !== 'interrupted') {
      parts.push('', `> ${m.notice}`);
    }
  }
  return `${parts.join('\n').trimEnd()}\n`;
}
