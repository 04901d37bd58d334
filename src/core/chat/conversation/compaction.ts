import type { ChatMessage } from '../../service/alphaClient';
import { parseUsage } from '../../service/usage';
import type { Compaction, Conversation, StoredMessage } from './conversation';

/** What ALPHA is asked, after the turns to summarise. */
export const SUMMARY_PROMPT =
  'Summarise our conversation so far into one message that can replace it as context for what comes next. Keep ' +
  'every fact, decision, name, file path, code identifier and open question that later turns may need; keep code ' +
  'that was agreed on. Write it as notes, without preamble.';

/** The fewest messages worth summarising. */
export const MIN_COMPACTED_MESSAGES = 2;

/** The compaction in force on the path shown (the newest one not undone that the path runs through), with its place. */
export function activeCompaction(conversation: Conversation): { compaction: Compaction; index: number } | undefined {
  const places = new Map(conversation.messages.map((m, i) => [m.id, i]));
  let found: { compaction: Compaction; index: number } | undefined;
  for (const compaction of conversation.compactions ?? []) {
    const index = places.get(compaction.throughId);
    if (compaction.undone || index === undefined) {
      continue;
    }
    if (!found || compaction.createdAt > found.compaction.createdAt) {
      found = { compaction, index };
    }
  }
  return found;
}

/** The message sent in place of the summarised turns. */
export function summaryMessage(compaction: Compaction): ChatMessage {
  return {
    role: 'user',
    content:
      `Summary of the earlier conversation (${compaction.messages} messages), written by ALPHA when the ` +
      `conversation was compacted:\n\n${compaction.summary}`,
  };
}

/**
 * The messages of `messages` (the path, or its start up to a prompt being answered) as sent: with the compaction
 * in force, the summary and what follows the message it ends at; the last message is never summarised away.
 */
export function sendablePath(
  conversation: Conversation,
  messages: readonly StoredMessage[] = conversation.messages,
): { summary?: ChatMessage; messages: readonly StoredMessage[] } {
  const active = activeCompaction(conversation);
  if (!active || active.index >= messages.length - 1 || messages[active.index]?.id !== active.compaction.throughId) {
    return { messages };
  }
  return { summary: summaryMessage(active.compaction), messages: messages.slice(active.index + 1) };
}

/**
 * What a new compaction would summarise: the path shown up to the message before its last prompt (the last turn
 * stays as it is), from where the compaction in force ends. Undefined when that is fewer than two messages.
 */
export function compactionRange(conversation: Conversation): { from: number; through: number } | undefined {
  const messages = conversation.messages;
  let lastPrompt = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i].role === 'user') {
      lastPrompt = i;
      break;
    }
  }
  const active = activeCompaction(conversation);
  const from = active ? active.index + 1 : 0;
  const through = lastPrompt - 1;
  return through - from + 1 >= MIN_COMPACTED_MESSAGES ? { from, through } : undefined;
}

/** Compactions read back from a file: each checked field by field; malformed ones dropped. */
export function parseCompactions(value: unknown): Compaction[] {
  if (!Array.isArray(value)) {
    return [];
  }
  const out: Compaction[] = [];
  for (const c of value) {
    if (
      !isRecord(c) ||
      typeof c.id !== 'string' ||
      typeof c.throughId !== 'string' ||
      typeof c.summary !== 'string' ||
      typeof c.messages !== 'number' ||
      typeof c.createdAt !== 'number'
    ) {
      continue;
    }
    const usage = parseUsage(c.usage);
    out.push({
      id: c.id,
      throughId: c.throughId,
      messages: c.messages,
      summary: c.summary,
      createdAt: c.createdAt,
      model: typeof c.model === 'string' ? c.model : '',
      ...(usage ? { usage } : {}),
      ...(c.undone === true ? { undone: true } : {}),
    });
  }
  return out;
}

/**
 * Two windows' compactions together: each once, by id; undone when either window undid it (an Undo is never taken
 * back: compacting again makes a new one).
 */
export function mergeCompactions(mine: readonly Compaction[] = [], theirs: readonly Compaction[] = []): Compaction[] {
  const byId = new Map<string, Compaction>();
  for (const c of [...theirs, ...mine]) {
    const seen = byId.get(c.id);
    byId.set(c.id, seen && (seen.undone || c.undone) ? { ...c, undone: true } : c);
  }
  return [...byId.values()].sort((a, b) => a.createdAt - b.createdAt);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
