import type { Conversation, StoredMessage } from './conversation';

/**
 * A conversation's branches. Editing an earlier prompt or regenerating a reply does not throw the old turns away:
 * they leave the path shown and the new prompt or reply becomes their sibling.
 *
 * The model: every message has a parent (the message it answers or follows; none for a first prompt), so the
 * messages form a tree, and the conversation shows one path through it. In memory and on disk the path is
 * `messages`, in order (a message's parent there is the one before it, implicitly), and every other message is in
 * `branches` with its `parentId`. Each message is stored once: a branch never copies the history it shares with
 * the path. A build that knows nothing of branches reads `messages` and sees the conversation as it was shown.
 *
 * `branches` keeps the order messages left the path in; a turn that leaves it goes to the end. Coming back to a
 * message, the path continues with its child that left the path last: the branch comes back as it was left.
 */

/** A message's place among its siblings, 1-based, as "‹ 2 / 3 ›" shows it. */
export interface BranchPlace {
  index: number;
  count: number;
}

/** The key of a message's parent: its id, or '' for a first prompt. */
function parentKey(parentId: string | undefined): string {
  return parentId ?? '';
}

/** The branch messages grouped by parent key, in `branches` order. */
function childrenByParent(branches: readonly StoredMessage[]): Map<string, StoredMessage[]> {
  const map = new Map<string, StoredMessage[]>();
  for (const message of branches) {
    const key = parentKey(message.parentId);
    const list = map.get(key);
    if (list) {
      list.push(message);
    } else {
      map.set(key, [message]);
    }
  }
  return map;
}

/** Siblings in the order they are counted: by when they were written (the original first), then by id. */
function bySiblingOrder(a: StoredMessage, b: StoredMessage): number {
  return a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/**
 * The place of each message on the path among its siblings, for the messages that have any (others are absent).
 * One pass over the branches and one over the path.
 */
export function branchPlaces(conversation: Pick<Conversation, 'messages' | 'branches'>): Map<string, BranchPlace> {
  const places = new Map<string, BranchPlace>();
  const branches = conversation.branches;
  if (!branches?.length) {
    return places;
  }
  const children = childrenByParent(branches);
  conversation.messages.forEach((message, i) => {
    const others = children.get(parentKey(conversation.messages[i - 1]?.id));
    if (others?.length) {
      const siblings = [...others, message].sort(bySiblingOrder);
      places.set(message.id, { index: siblings.indexOf(message) + 1, count: siblings.length });
    }
  });
  return places;
}

/**
 * The time a new version of the path's message at `index` is written at: now, or just after its latest sibling
 * when the clock says otherwise (two versions in one millisecond), so versions count in the order written.
 */
export function newVersionTime(conversation: Pick<Conversation, 'messages' | 'branches'>, index: number): number {
  const parent = parentKey(conversation.messages[index - 1]?.id);
  let latest = conversation.messages[index]?.createdAt ?? -Infinity;
  for (const message of conversation.branches ?? []) {
    if (parentKey(message.parentId) === parent) {
      latest = Math.max(latest, message.createdAt);
    }
  }
  return Math.max(Date.now(), latest + 1);
}

/**
 * Takes the path's messages from `index` on off the path into `branches` (each with its parent), keeping them
 * as a branch. Returns how many left.
 */
export function leavePath(conversation: Conversation, index: number): number {
  const leaving = conversation.messages.splice(index);
  if (!leaving.length) {
    return 0;
  }
  let parent = conversation.messages[index - 1]?.id;
  const branches = (conversation.branches ??= []);
  for (const message of leaving) {
    branches.push(withParent(message, parent));
    parent = message.id;
  }
  return leaving.length;
}

/**
 * Shows another sibling of the path's message `messageId`: `step` −1 for the one before (‹), +1 for the one after
 * (›). The path from that message on becomes a branch; the sibling and the branch below it that was shown last
 * become the path. False when there is no such sibling.
 */
export function switchBranch(conversation: Conversation, messageId: string, step: -1 | 1): boolean {
  const index = conversation.messages.findIndex((m) => m.id === messageId);
  const branches = conversation.branches;
  if (index < 0 || !branches?.length) {
    return false;
  }
  const current = conversation.messages[index];
  const parent = conversation.messages[index - 1]?.id;
  const children = childrenByParent(branches);
  const siblings = [...(children.get(parentKey(parent)) ?? []), current].sort(bySiblingOrder);
  const target = siblings[siblings.indexOf(current) + step];
  if (!target) {
    return false;
  }
  // The target and, below it, the child that left the path last, down to a message with no children.
  const chain: StoredMessage[] = [];
  for (let next: StoredMessage | undefined = target; next; next = children.get(next.id)?.at(-1)) {
    chain.push(next);
  }
  const joining = new Set(chain);
  conversation.branches = branches.filter((m) => !joining.has(m));
  leavePath(conversation, index);
  conversation.messages.push(...chain.map(withoutParent));
  if (!conversation.branches.length) {
    delete conversation.branches;
  }
  return true;
}

/** Every message of the conversation: the path, then the branches. */
export function allMessages(conversation: Pick<Conversation, 'messages' | 'branches'>): StoredMessage[] {
  return conversation.branches?.length ? [...conversation.messages, ...conversation.branches] : conversation.messages;
}

/** How many places in the conversation have more than one version (a message with siblings), over every branch. */
export function branchPointCount(conversation: Pick<Conversation, 'messages' | 'branches'>): number {
  if (!conversation.branches?.length) {
    return 0;
  }
  const children = new Map<string, number>();
  const count = (key: string) => children.set(key, (children.get(key) ?? 0) + 1);
  conversation.messages.forEach((_, i) => count(parentKey(conversation.messages[i - 1]?.id)));
  conversation.branches.forEach((m) => count(parentKey(m.parentId)));
  return [...children.values()].filter((n) => n > 1).length;
}

/**
 * Keeps only the branch messages whose parent is in the conversation (on the path or in a branch) and that are
 * not on the path: what a merge of two windows' copies or a damaged file may leave otherwise.
 */
export function tidyBranches(conversation: Conversation): void {
  if (!conversation.branches) {
    return;
  }
  const onPath = new Set(conversation.messages.map((m) => m.id));
  const seen = new Set<string>();
  const kept = conversation.branches.filter((m) => {
    if (onPath.has(m.id) || seen.has(m.id)) {
      return false;
    }
    seen.add(m.id);
    return true;
  });
  // A message whose parent is gone (and all below it) has no place in the tree any more.
  let reachable = kept;
  for (let changed = true; changed;) {
    const before = reachable.length;
    const ids = new Set([...onPath, ...reachable.map((m) => m.id)]);
    reachable = reachable.filter((m) => m.parentId === undefined || ids.has(m.parentId));
    changed = reachable.length !== before;
  }
  if (reachable.length) {
    conversation.branches = reachable;
  } else {
    delete conversation.branches;
  }
}

/**
 * A message given its parent, in place: the same object moves between the path and the branches, so what holds it
 * (the encoder's cache of its bytes, a page's view of it) keeps holding it.
 */
function withParent(message: StoredMessage, parentId: string | undefined): StoredMessage {
  if (parentId === undefined) {
    delete message.parentId;
  } else {
    message.parentId = parentId;
  }
  return message;
}

function withoutParent(message: StoredMessage): StoredMessage {
  delete message.parentId;
  return message;
}
