import { newId, type StoredError, type StoredMessage } from '../conversation/conversation';
import type { ChatStateOptions } from './chatStateTypes';
import { SUMMARY_PROMPT, activeCompaction, compactionRange, summaryMessage } from '../conversation/compaction';
import type { Compaction } from '../conversation/conversation';
import { requestMessages } from '../request/promptMessages';
import { buildRequest } from '../request/requestBuilder';
import { runReply, storedError } from './replyRunner';

/** How asking for a compaction ended. */
export type CompactOutcome =
  | { kind: 'compacted'; compaction: Compaction }
  /** Fewer than two messages before the last turn (or since the last compaction). */
  | { kind: 'nothing' }
  | { kind: 'stopped' }
  | { kind: 'failed'; error: StoredError };

/**
 * Asks ALPHA to summarise the older turns of the path shown (all but its last turn, from where the compaction in
 * force ends, after its summary), as a request of its own, billed like a reply: its usage is kept with the
 * compaction. Adds the compaction to the conversation when a summary came; the caller saves and redraws.
 */
export async function compactConversation(options: ChatStateOptions, signal: AbortSignal): Promise<CompactOutcome> {
  const conversation = options.holder.conversation;
  const range = compactionRange(conversation);
  if (!range) {
    return { kind: 'nothing' };
  }
  const active = activeCompaction(conversation);
  const through = conversation.messages[range.through];
  const older = conversation.messages.slice(range.from, range.through + 1);
  const { model, stream } = options.settings();
  const built = buildRequest({
    model,
    earlier: [...(active ? [summaryMessage(active.compaction)] : []), ...requestMessages(older)],
    prompt: { content: SUMMARY_PROMPT },
    instructions: options.instructions?.(),
  });
  if (built.error) {
    return { kind: 'failed', error: storedError(built.error, Date.now()) };
  }
  const scratch: StoredMessage = { id: newId(), role: 'assistant', content: '', createdAt: Date.now() };
  const outcome = await runReply({
    source: options.source,
    request: { model, messages: built.messages },
    stream,
    reply: scratch,
    signal,
    onDelta: () => undefined,
  });
  if (outcome.status === 'error') {
    return { kind: 'failed', error: outcome.error };
  }
  if (outcome.status === 'stopped' || !scratch.content.trim()) {
    return { kind: 'stopped' };
  }
  const compaction: Compaction = {
    id: newId(),
    throughId: through.id,
    messages: range.through + 1,
    summary: scratch.content.trim(),
    createdAt: Date.now(),
    model,
    ...(scratch.usage ? { usage: scratch.usage } : {}),
  };
  conversation.compactions = [...(conversation.compactions ?? []), compaction];
  conversation.updatedAt = Date.now();
  return { kind: 'compacted', compaction };
}

/** {@link compactConversation}, then, when a summary came, saves and tells the pages (they draw the marker). */
export async function compactAndTell(options: ChatStateOptions, signal: AbortSignal): Promise<CompactOutcome> {
  const outcome = await compactConversation(options, signal);
  if (outcome.kind === 'compacted') {
    await options.holder.saveNow();
    await options.listener.conversationChanged();
  }
  return outcome;
}

/**
 * Undo: the compaction `id` no longer stands for its turns (kept, as it was billed); saved and redrawn. False when
 * there is none to undo.
 */
export async function undoAndTell(options: ChatStateOptions, id: string): Promise<boolean> {
  const compaction = options.holder.conversation.compactions?.find((c) => c.id === id);
  if (!compaction || compaction.undone) {
    return false;
  }
  compaction.undone = true;
  options.holder.conversation.updatedAt = Date.now();
  await options.holder.saveNow();
  await options.listener.conversationChanged();
  return true;
}
