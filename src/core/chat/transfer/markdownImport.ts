import * as l10n from '@vscode/l10n';
import {
  newConversation,
  titleFor,
  type Conversation,
  type ReplyStatus,
  type StoredMessage,
} from '../conversation/conversation';
import { newId } from '../conversation/conversation';
import { CHAT_LINEUP } from '../request/modelLineup';

/** A message heading of the Markdown export: "## You · <time>" or "## ALPHA (<model>) · <time>". */
const HEADING = /^## (You|ALPHA)(?: \(([^)\n]{1,100})\))? · [^\n]*$/;
/** A code fence's opening or closing line: three or more backticks or tildes. */
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
/**
 * The line the export writes after the fence it adds to close a message's unclosed code block (a reply stopped in
 * the middle of one): without it the block would run on through every later heading. The import takes both away.
 */
export const FENCE_CLOSED_NOTE = '<!-- alpha: the export closed this code block -->';

/** The status notes the export writes at the end of a reply. */
const STATUS_NOTES: Record<string, ReplyStatus> = { '_(stopped)_': 'stopped', '_(interrupted)_': 'interrupted' };
/** The speed line the export writes under a reply ("_first token 0.8 s · 42 tokens/s_"): taken off, not kept. */
const SPEED_LINE = /^_first token \d+(?:\.\d)? m?s(?: · (?:≈ )?\d+(?:\.\d)? tokens\/s)?_$/;

/**
 * Reads the Markdown "Export Conversation as Markdown" writes, as far as it goes: the title, and each prompt and
 * reply, split at the export's own message headings outside code fences (a heading inside a fenced block is text).
 * Times are dropped (the messages keep their order, a millisecond apart from now); a reply's model comes back when
 * the heading names one of the lineup; context blocks stay in the prompt's text; branches were never exported.
 */
export function parseMarkdownExport(
  text: string,
  now = Date.now(),
): { conversation: Conversation } | { problems: string[] } {
  const lines = text.split(/\r\n|\r|\n/);
  let title = '';
  let fence: string | undefined;
  let current: { message: StoredMessage; lines: string[] } | undefined;
  /** The index in `current.lines` of the line that just closed a fence (-1: the last line closed none). */
  let closedAt = -1;
  const messages: StoredMessage[] = [];
  const finish = () => {
    if (current) {
      messages.push(finished(current.message, current.lines));
    }
  };
  for (const line of lines) {
    const heading = fence === undefined ? HEADING.exec(line) : null;
    if (heading) {
      finish();
      const role = heading[1] === 'You' ? 'user' : 'assistant';
      const message: StoredMessage = { id: newId(), role, content: '', createdAt: now + messages.length };
      const model = heading[2] && CHAT_LINEUP.find((m) => m.label === heading[2] || m.id === heading[2]);
      if (role === 'assistant') {
        message.status = 'done';
        if (model) {
          message.model = model.id;
        }
      }
      current = { message, lines: [] };
      closedAt = -1;
      continue;
    }
    if (current && fence === undefined && line === FENCE_CLOSED_NOTE && closedAt === current.lines.length - 1) {
      current.lines.pop();
      continue;
    }
    const before = fence;
    fence = nextFence(line, fence);
    if (current) {
      current.lines.push(line);
      closedAt = before !== undefined && fence === undefined ? current.lines.length - 1 : -1;
    } else if (!title && line.startsWith('# ')) {
      title = line.slice(2).trim();
    }
  }
  finish();
  if (!messages.some((m) => m.role === 'user')) {
    return {
      problems: [
        l10n.t(
          'The file is neither JSON nor Markdown exported by ALPHA: it has no prompt under a "## You · …" heading.',
        ),
      ],
    };
  }
  const conversation = newConversation(now);
  conversation.title = titleFor(title, 200) || titleFor(messages.find((m) => m.role === 'user')?.content ?? '');
  conversation.messages = messages;
  conversation.updatedAt = messages.at(-1)?.createdAt ?? now;
  return { conversation };
}

/** The code fence `text` leaves open at its end (its marker), if any. */
export function openFenceAt(text: string): string | undefined {
  let fence: string | undefined;
  for (const line of text.split(/\r\n|\r|\n/)) {
    fence = nextFence(line, fence);
  }
  return fence;
}

/** The fence open after `line`: opened by a fence line, closed by one of the same kind at least as long. */
function nextFence(line: string, open: string | undefined): string | undefined {
  const match = FENCE.exec(line);
  if (!match) {
    return open;
  }
  const marker = match[1];
  if (open === undefined) {
    return marker;
  }
  const closes = marker[0] === open[0] && marker.length >= open.length && line.trim() === marker;
  return closes ? undefined : open;
}

/** A message with its section's text: blank lines around it trimmed, a reply's status note read and taken off. */
function finished(message: StoredMessage, lines: string[]): StoredMessage {
  // Indices, not `shift`: a section of a million blank lines is read once.
  let first = 0;
  let end = lines.length;
  while (first < end && !lines[first].trim()) {
    first++;
  }
  while (end > first && !lines[end - 1].trim()) {
    end--;
  }
  const status = message.role === 'assistant' && end > first ? STATUS_NOTES[lines[end - 1].trim()] : undefined;
  if (status) {
    end--;
    while (end > first && !lines[end - 1].trim()) {
      end--;
    }
    message.status = status;
  }
  if (message.role === 'assistant' && end > first && SPEED_LINE.test(lines[end - 1].trim())) {
    end--;
    while (end > first && !lines[end - 1].trim()) {
      end--;
    }
  }
  return { ...message, content: lines.slice(first, end).join('\n') };
}
