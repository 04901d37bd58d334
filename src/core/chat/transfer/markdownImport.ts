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
import { FENCE_CLOSED_NOTE, nextFence } from './markdownFences';
import { readStepBlock, STEP_END, STEP_START } from './markdownSteps';
import { parseSteps } from '../conversation/storedSteps';
import { parseUsage } from '../../service/usage';

/** A message heading of the Markdown export: "## You · <time>" or "## ALPHA (<model>) · <time>". */
const HEADING = /^## (You|ALPHA)(?: \(([^)\n]{1,100})\))? · [^\n]*$/;

/** The status notes the export writes at the end of a reply. */
const STATUS_NOTES: Record<string, ReplyStatus> = { '_(stopped)_': 'stopped', '_(interrupted)_': 'interrupted' };
/** The speed line the export writes under a reply ("_first token 0.8 s · 42 tokens/s_"): taken off, not kept. */
const SPEED_LINE = /^_first token \d+(?:\.\d)? m?s(?: · (?:≈ )?\d+(?:\.\d)? tokens\/s)?_$/;
/** The usage line the export writes under a reply ("_≈ 1,234 tokens in, 56 out · 3 requests_"): read back. */
const USAGE_LINE = /^_(≈ )?(\d[\d,]{0,24}) tokens in, (\d[\d,]{0,24}) out(?: · (\d[\d,]{0,16}) requests)?_$/;
/** The usage line of a reply without usage whose calls took several requests ("_3 requests_"). */
const REQUESTS_LINE = /^_(\d[\d,]{0,16}) requests_$/;

/** A message's section of the export as it is read: its lines, and its steps with the line each comes before. */
interface Section {
  message: StoredMessage;
  lines: string[];
  steps: { at: number; lines: string[] }[];
  /** The lines of a step block being read (from its STEP_START line). */
  block?: string[];
  /** A step block just ended: the blank line the export writes after it is the block's. */
  afterBlock?: boolean;
}

/**
 * Reads the Markdown "Export Conversation as Markdown" writes, as far as it goes: the title, and each prompt and
 * reply, split at the export's own message headings outside code fences (a heading inside a fenced block is text).
 * Times are dropped (the messages keep their order, a millisecond apart from now); a reply's model comes back when
 * the heading names one of the lineup; context blocks stay in the prompt's text; branches were never exported.
 * A reply's tool steps (markdownSteps.ts) come back as steps, never as the reply's words, and its usage line as its
 * usage and requests.
 */
export function parseMarkdownExport(
  text: string,
  now = Date.now(),
): { conversation: Conversation } | { problems: string[] } {
  const lines = text.split(/\r\n|\r|\n/);
  let title = '';
  let fence: string | undefined;
  let current: Section | undefined;
  /** The index in `current.lines` of the line that just closed a fence (-1: the last line closed none). */
  let closedAt = -1;
  const messages: StoredMessage[] = [];
  const finish = () => {
    if (current) {
      // A step block without its end was not the export's: its lines are the message's.
      for (const line of current.block ?? []) {
        current.lines.push(line);
      }
      messages.push(finished(current));
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
      current = { message, lines: [], steps: [] };
      closedAt = -1;
      continue;
    }
    if (current?.block) {
      fence = nextFence(line, fence);
      if (fence === undefined && line === STEP_END) {
        current.steps.push({ at: current.lines.length, lines: current.block });
        current.block = undefined;
        current.afterBlock = true;
        closedAt = -1;
      } else {
        current.block.push(line);
      }
      continue;
    }
    if (current?.afterBlock) {
      current.afterBlock = false;
      if (line === '') {
        continue;
      }
    }
    if (current?.message.role === 'assistant' && fence === undefined && STEP_START.test(line)) {
      current.block = [line];
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

/**
 * A message with its section's text: blank lines around it trimmed, a reply's status note, speed and usage lines read
 * and taken off, its steps read at their places in the text.
 */
function finished(section: Section): StoredMessage {
  const { message, lines } = section;
  // Indices, not `shift`: a section of a million blank lines is read once.
  let first = 0;
  let end = lines.length;
  const dropLast = () => {
    end--;
    while (end > first && !lines[end - 1].trim()) {
      end--;
    }
  };
  while (first < end && !lines[first].trim()) {
    first++;
  }
  while (end > first && !lines[end - 1].trim()) {
    end--;
  }
  const reply = message.role === 'assistant';
  const status = reply && end > first ? STATUS_NOTES[lines[end - 1].trim()] : undefined;
  if (status) {
    dropLast();
    message.status = status;
  }
  if (reply && end > first && readUsage(lines[end - 1].trim(), message)) {
    dropLast();
  }
  if (reply && end > first && SPEED_LINE.test(lines[end - 1].trim())) {
    dropLast();
  }
  const content = lines.slice(first, end).join('\n');
  const steps = section.steps.length
    ? parseSteps(stepsAt(section, first, end, content), {
        id: message.id,
        content,
        streaming: false,
      })
    : undefined;
  return { ...message, content, ...(steps ? { steps } : {}) };
}

/** The section's steps read from their blocks, each with its offset in the text kept (lines `first` to `end`). */
function stepsAt(section: Section, first: number, end: number, content: string): Record<string, unknown>[] {
  let line = first;
  let offset = 0;
  return section.steps.map(({ at, lines }) => {
    for (; line < Math.min(at, end); line++) {
      offset += section.lines[line].length + 1;
    }
    return readStepBlock(lines, Math.min(offset, content.length));
  });
}

/** Reads a usage line into `message` (its usage and requests); false when the line is not one. */
function readUsage(line: string, message: StoredMessage): boolean {
  const full = USAGE_LINE.exec(line);
  const only = full ? undefined : REQUESTS_LINE.exec(line);
  if (!full && !only) {
    return false;
  }
  const number = (text: string | undefined) => (text === undefined ? undefined : Number(text.replace(/,/g, '')));
  if (full) {
    const usage = parseUsage({ input: number(full[2]), output: number(full[3]), reported: !full[1] });
    if (usage) {
      message.usage = usage;
    }
  }
  const requests = number(full ? full[4] : only?.[1]);
  if (requests !== undefined && Number.isSafeInteger(requests) && requests > 0) {
    message.requests = requests;
  }
  return true;
}
