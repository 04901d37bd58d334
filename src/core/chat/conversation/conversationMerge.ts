import { tidyBranches } from './branches';
import { mergeCompactions } from './compaction';
import type { Conversation, StoredMessage } from './conversation';
import { mergeSettings, settingsDiffer } from './conversationSettings';
import { mergeQueues, queuesDiffer } from './queuedPrompts';

/** What a window last read or wrote of a conversation: the ids of its messages then. */
export interface MergeBase {
  ids: ReadonlySet<string>;
}

/**
 * Merges this window's copy of a conversation with the one another window wrote since `base` (what this window
 * last read or wrote), so neither window's turns are lost:
 * - a message only the other window has, and that was not in `base`, was added there: it is kept;
 * - a message only this window has, and that was not in `base`, was added here: it is kept, after the message it
 *   follows here and after the other window's new messages written before it (turns stay together, in time order);
 * - a message in `base` that one side no longer has was removed there on purpose (a regenerated reply, an edited
 *   prompt): it goes;
 * - a message both have comes from the copy that is further along (see `further`), this window's on a tie, as the
 *   same object, so a reply streaming into it keeps streaming into what is saved.
 * The title, pin, "Ground with AXO" and tool access each come from the copy that changed it last (mergeSettings);
 * times span both. Each window's part of the prompt queue comes from the copy that changed it last (mergeQueues).
 */
export function mergeConversations(base: MergeBase, mine: Conversation, theirs: Conversation): Conversation {
  const mineById = new Map(mine.messages.map((m) => [m.id, m]));
  const theirIds = new Set(theirs.messages.map((m) => m.id));
  const merged: StoredMessage[] = [];
  for (const their of theirs.messages) {
    const own = mineById.get(their.id);
    if (own) {
      merged.push(further(own, their));
    } else if (!base.ids.has(their.id)) {
      merged.push(their);
    }
  }
  let anchor: string | undefined;
  let anchorIsNew = false;
  for (const own of mine.messages) {
    const isNew = !theirIds.has(own.id) && !base.ids.has(own.id);
    if (isNew) {
      // A reply stays right after its prompt: the other window's turns only go before a turn's first message.
      insertAfter(merged, own, anchor, anchorIsNew ? undefined : base);
    }
    anchor = own.id;
    anchorIsNew = isNew;
  }
  const result: Conversation = {
    ...mine,
    createdAt: Math.min(mine.createdAt, theirs.createdAt),
    updatedAt: Math.max(mine.updatedAt, theirs.updatedAt),
    messages: merged,
  };
  mergeSettings(result, mine, theirs);
  // Compactions too: each once, undone when either window undid it.
  delete result.compactions;
  const compactions = mergeCompactions(mine.compactions, theirs.compactions);
  if (compactions.length) {
    result.compactions = compactions;
  }
  // Branches are only ever added to: both windows' together, less what the merged path shows. A turn one window
  // took off the path (an edit, a regenerate, a switch) is in that window's branches, so it stays in the tree.
  delete result.branches;
  delete result.queue;
  const queue = mergeQueues(mine.queue, theirs.queue);
  if (queue) {
    result.queue = queue;
  }
  const branches = [...(mine.branches ?? []), ...(theirs.branches ?? [])];
  if (branches.length) {
    result.branches = branches;
    tidyBranches(result);
  }
  return result;
}

/** Whether a merge changed anything this window shows (its messages, queue or settings). */
export function differs(before: Conversation, after: Conversation): boolean {
  return (
    before.messages.length !== after.messages.length ||
    (before.branches?.length ?? 0) !== (after.branches?.length ?? 0) ||
    before.messages.some((m, i) => m !== after.messages[i]) ||
    queuesDiffer(before.queue, after.queue) ||
    settingsDiffer(before, after)
  );
}

/**
 * Puts `message` after `anchorId` (first when there is none, last when it is gone) and, given `base`, after the other
 * window's new messages that follow the anchor and were written no later than `message`.
 */
function insertAfter(
  merged: StoredMessage[],
  message: StoredMessage,
  anchorId: string | undefined,
  base: MergeBase | undefined,
): void {
  const found = anchorId === undefined ? -1 : merged.findIndex((m) => m.id === anchorId);
  // No anchor: the first message goes first; an anchor the other window removed: the turn goes last.
  let at = anchorId === undefined ? 0 : found < 0 ? merged.length : found + 1;
  while (base && at < merged.length && !base.ids.has(merged[at].id) && merged[at].createdAt <= message.createdAt) {
    at++;
  }
  merged.splice(at, 0, message);
}

/**
 * A finished message is further along than one streaming or cut short; then the longer text; then the one further in
 * its tool calls (the text stands still while a call runs); a tie keeps `own`. The message is taken whole, its steps
 * with it.
 */
function further(own: StoredMessage, their: StoredMessage): StoredMessage {
  const rank =
    finality(their) - finality(own) ||
    their.content.length - own.content.length ||
    callProgress(their) - callProgress(own);
  return rank > 0 ? their : own;
}

/** How far a reply is in its calls: each call counts once when made and once more when it ended. */
function callProgress(message: StoredMessage): number {
  let progress = 0;
  for (const step of message.steps ?? []) {
    progress += step.status === 'running' ? 1 : 2;
  }
  return progress;
}

function finality(message: StoredMessage): number {
  return message.status === 'streaming' || message.status === 'interrupted' ? 0 : 1;
}
