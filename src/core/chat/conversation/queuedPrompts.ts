import * as l10n from '@vscode/l10n';
import type { ContextItem, Conversation, QueuedPrompt, QueuePart } from './conversation';
import { isSelectableModel } from '../request/modelLineup';

/** A running part nobody has changed for this long is taken as one whose window went away without saying so. */
export const STALE_RUNNING_MS = 60 * 60 * 1000;

/** Bounds of what a queue holds (a file is read back, and may have been written by hand). */
export const MAX_QUEUED = 100;
/** An emptied part is kept (so a merge does not bring its old prompts back) for this long, then dropped. */
const EMPTY_PART_KEEP_MS = 24 * 60 * 60 * 1000;

/** How a queued prompt stands for one window. */
export interface QueueEntry {
  prompt: QueuedPrompt;
  /** This window may edit, remove or send it: its own, or one waiting for someone to resume it. */
  mine: boolean;
  /** It waits to be resumed (a reload, a Stop, a failed reply), rather than to run after the reply streaming now. */
  waiting: boolean;
}

/** Every queued prompt of a conversation, in the order queued, as `owner`'s window sees it. */
export function queueEntries(conversation: Conversation, owner: string, now = Date.now()): QueueEntry[] {
  const entries: QueueEntry[] = [];
  for (const part of conversation.queue ?? []) {
    const waiting = !isRunning(part, now);
    for (const prompt of part.prompts) {
      entries.push({
        prompt,
        mine: part.owner === owner || waiting,
        waiting: part.owner === owner ? !part.running : waiting,
      });
    }
  }
  return entries.sort((a, b) => a.prompt.queuedAt - b.prompt.queuedAt);
}

/** Whether a part runs in a window that is still there (its own window says so, and said so lately). */
function isRunning(part: QueuePart, now: number): boolean {
  // A time in the future is no window's word (a hand-written file): such a part waits, and anyone may change it.
  return part.running && part.changedAt <= now && now - part.changedAt < STALE_RUNNING_MS;
}

/**
 * The queue of an imported file, as it may stand in this window: every part paused (nothing is sent until the user
 * resumes), its times no later than `now`, every prompt's model one the lineup can send, else `currentModel`, said
 * beside the prompt; context chips keep a label the queue can show. A file's queue is someone else's: nothing in it
 * runs, or picks a model, on its own.
 */
export function importedQueue(
  queue: readonly QueuePart[] | undefined,
  currentModel: string,
  now = Date.now(),
): QueuePart[] | undefined {
  if (!queue?.length) {
    return undefined;
  }
  return queue.map((part) => ({
    owner: part.owner,
    changedAt: Math.min(part.changedAt, now),
    running: false,
    prompts: part.prompts.map((prompt) => importedPrompt(prompt, currentModel, now)),
  }));
}

function importedPrompt(prompt: QueuedPrompt, currentModel: string, now: number): QueuedPrompt {
  const sendable = isSelectableModel(prompt.model);
  const context = prompt.context?.map((c) => ({ ...c, label: c.label.replace(/\s+/g, ' ').trim() || c.id }));
  return {
    ...prompt,
    ...(context ? { context } : {}),
    model: sendable ? prompt.model : currentModel,
    queuedAt: Math.min(prompt.queuedAt, now),
    ...(sendable
      ? {}
      : {
          note: l10n.t(
            'imported with the model "{0}", which cannot be sent: sent with {1}',
            prompt.model.slice(0, 60),
            currentModel,
          ),
        }),
  };
}

/** `owner`'s part of the queue, made when it has none. */
export function ownPart(conversation: Conversation, owner: string, now = Date.now()): QueuePart {
  const queue = (conversation.queue ??= []);
  let part = queue.find((p) => p.owner === owner);
  if (!part) {
    part = { owner, changedAt: now, running: false, prompts: [] };
    queue.push(part);
  }
  return part;
}

/**
 * Takes into `owner`'s part every prompt waiting in another window's part (that window went away, or stopped):
 * this window may then run, edit and remove them. The parts taken from are emptied, not dropped, so a merge with an
 * older copy does not bring their prompts back.
 */
export function adoptWaiting(conversation: Conversation, owner: string, now = Date.now()): QueuePart {
  const mine = ownPart(conversation, owner, now);
  for (const part of conversation.queue ?? []) {
    if (part !== mine && !isRunning(part, now) && part.prompts.length) {
      mine.prompts.push(...part.prompts);
      part.prompts = [];
      part.changedAt = now;
    }
  }
  mine.prompts.sort((a, b) => a.queuedAt - b.queuedAt);
  mine.changedAt = now;
  return mine;
}

/** Finds a prompt this window may change (its own, or a waiting one, taken over first); undefined when none. */
export function claimPrompt(
  conversation: Conversation,
  owner: string,
  id: string,
  now = Date.now(),
): { part: QueuePart; prompt: QueuedPrompt } | undefined {
  const entry = queueEntries(conversation, owner, now).find((e) => e.prompt.id === id);
  if (!entry?.mine) {
    return undefined;
  }
  const part = ownPart(conversation, owner, now);
  if (!part.prompts.includes(entry.prompt)) {
    adoptWaiting(conversation, owner, now);
  }
  part.changedAt = now;
  return { part, prompt: entry.prompt };
}

/**
 * The queue of a merge of two copies of a conversation: each window's part from the copy that changed it last
 * (`mine` on a tie), a prompt in two parts only in the one changed last (one window took it over). Parts emptied a
 * day ago are dropped.
 */
export function mergeQueues(
  mine: readonly QueuePart[] | undefined,
  theirs: readonly QueuePart[] | undefined,
  now = Date.now(),
): QueuePart[] | undefined {
  if (!mine?.length && !theirs?.length) {
    return undefined;
  }
  const parts = new Map<string, QueuePart>();
  for (const part of [...(mine ?? []), ...(theirs ?? [])]) {
    const held = parts.get(part.owner);
    if (!held || part.changedAt > held.changedAt) {
      parts.set(part.owner, part);
    }
  }
  const newestFirst = [...parts.values()].sort((a, b) => b.changedAt - a.changedAt);
  const seen = new Set<string>();
  const result = newestFirst.map((part) => {
    const prompts = part.prompts.filter((p) => !seen.has(p.id));
    prompts.forEach((p) => seen.add(p.id));
    return prompts.length === part.prompts.length ? part : { ...part, prompts };
  });
  const kept = result.filter((p) => p.prompts.length > 0 || now - p.changedAt < EMPTY_PART_KEEP_MS);
  return kept.length ? kept : undefined;
}

/** Whether two queues differ in what a window shows or runs. */
export function queuesDiffer(a: readonly QueuePart[] | undefined, b: readonly QueuePart[] | undefined): boolean {
  const key = (q: readonly QueuePart[] | undefined) =>
    JSON.stringify((q ?? []).map((p) => [p.owner, p.changedAt, p.running, p.prompts.map((x) => [x.id, x.text])]));
  return key(a) !== key(b);
}

/**
 * Reads a conversation file's queue: parts and prompts of the right shape, within bounds; anything else is
 * dropped (a prompt without text and without context is nothing to send).
 */
export function parseQueue(value: unknown): QueuePart[] | undefined {
  if (!Array.isArray(value)) {
    return undefined;
  }
  const parts: QueuePart[] = [];
  let count = 0;
  for (const raw of value) {
    if (!isRecord(raw) || typeof raw.owner !== 'string' || !Array.isArray(raw.prompts)) {
      continue;
    }
    const prompts: QueuedPrompt[] = [];
    for (const p of raw.prompts) {
      const prompt = parsePrompt(p);
      if (prompt && count < MAX_QUEUED) {
        prompts.push(prompt);
        count++;
      }
    }
    parts.push({
      owner: raw.owner,
      changedAt: typeof raw.changedAt === 'number' && Number.isFinite(raw.changedAt) ? raw.changedAt : 0,
      running: raw.running === true,
      prompts,
    });
  }
  return parts.length ? parts : undefined;
}

function parsePrompt(value: unknown): QueuedPrompt | undefined {
  if (!isRecord(value) || typeof value.id !== 'string' || typeof value.text !== 'string') {
    return undefined;
  }
  const context = Array.isArray(value.context)
    ? value.context.filter(
        (c): c is ContextItem =>
          isRecord(c) && typeof c.id === 'string' && typeof c.label === 'string' && typeof c.content === 'string',
      )
    : [];
  if (!value.text.trim() && context.length === 0) {
    return undefined;
  }
  return {
    id: value.id,
    text: value.text,
    ...(context.length ? { context } : {}),
    groundWithAxo: value.groundWithAxo === true,
    model: typeof value.model === 'string' && value.model ? value.model : 'alpha',
    queuedAt: typeof value.queuedAt === 'number' && Number.isFinite(value.queuedAt) ? value.queuedAt : 0,
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
