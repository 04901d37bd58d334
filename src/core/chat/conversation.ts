import { randomUUID } from 'node:crypto';
import type { ErrorInfo } from '../service/errors';
import * as l10n from '@vscode/l10n';
import type { Citation } from '../service/normalize';
import { parseUsage, type ReplyUsage } from '../service/usage';
import { parseQueue, type QueuePart } from './promptQueue';
import { CONVERSATION_VERSION, migrateConversation } from './store/conversationSchema';
import { parseCompactions, type Compaction } from './compaction';

/** What became of a reply; `streaming` is on disk only while a reply arrives (or after a crash). */
export type ReplyStatus = 'streaming' | 'done' | 'stopped' | 'interrupted' | 'error';

/** Context that went with a prompt. */
export interface ContextItem {
  id: string;
  label: string;
  content: string;
  language?: string;
}

/** An error kept with the reply it ended, with when it happened. */
export interface StoredError extends ErrorInfo {
  at: number;
}

/**
 * What fitting a request to the model's context left out or cut, kept with the reply it was sent for (the
 * conversation itself keeps everything whole). Each field is absent when that trim was not made.
 */
export interface TrimRecord {
  /** How many of the oldest messages were left out. */
  messages?: number;
  /** The last prompt's attachments left out (labels, oldest first): every one but the newest can go. */
  attachments?: string[];
  /** The repository's instructions were left out (instructions.ts). */
  instructions?: boolean;
  /** The newest attachment, cut to fit (its label). */
  cut?: string;
  /** AXO's answer (and its cached facts) shortened. */
  grounding?: boolean;
  /** The context the request was fitted to, in tokens. */
  limit: number;
}

/** One message as stored. */
export interface StoredMessage {
  id: string;
  role: 'user' | 'assistant';
  content: string;
  createdAt: number;
  status?: ReplyStatus;
  error?: StoredError;
  context?: ContextItem[];
  notice?: string;
  model?: string;
  /** A grounded reply's numbered sources (AXO's citations), in the order the `[1]` markers count them. */
  sources?: Citation[];
  /** A reply's request: what fitting it to the context trimmed (absent: nothing was). */
  trim?: TrimRecord;
  /** A reply's tokens: as the service reported them, else estimated (see src/core/service/usage.ts). */
  usage?: ReplyUsage;
  /**
   * A branch message's parent: the message it follows (absent: a first prompt). Only messages in `branches` have
   * one; on the path, a message follows the one before it (see branches.ts).
   */
  parentId?: string;
}

/** One conversation: one JSON file. */
export interface Conversation {
  version: number;
  id: string;
  title: string;
  createdAt: number;
  updatedAt: number;
  /** The path shown, in order. */
  messages: StoredMessage[];
  /** The messages off the path shown (edited prompts, regenerated replies and what followed them), each once. */
  branches?: StoredMessage[];
  /** "Ground with AXO" is on for this conversation; optional, so older files need no upgrade step (absent = off). */
  groundWithAxo?: boolean;
  /** Summaries sent in place of older turns (see compaction.ts); absent when the conversation was never compacted. */
  compactions?: Compaction[];
  /** Pinned: listed above the others. Optional like `groundWithAxo` (absent = not pinned). */
  pinned?: boolean;
  /**
   * The workspace the conversation was started in: the workspace file's URI, else the first folder's (absent in a
   * window without one, and in conversations from before workspaces were kept: those show under "All" only).
   */
  workspace?: string;
  /**
   * Prompts written while a reply streamed, waiting their turn, by the window that queued them (see promptQueue.ts).
   * Optional like `pinned`: older files have none, and older builds ignore it.
   */
  queue?: QueuePart[];
}

/** The notice on a reply that a reload or crash cut short. */
export const INTERRUPTED_NOTICE = 'Interrupted: the window closed or reloaded before the reply was complete.';

/** A new id for a message or a conversation. */
export function newId(): string {
  return randomUUID();
}

/** An empty conversation. */
export function newConversation(now = Date.now(), workspace?: string): Conversation {
  const conversation: Conversation = {
    version: CONVERSATION_VERSION,
    id: newId(),
    title: '',
    createdAt: now,
    updatedAt: now,
    messages: [],
  };
  if (workspace) {
    conversation.workspace = workspace;
  }
  return conversation;
}

/** The title a prompt gives a conversation: its first line, trimmed to a readable length. */
export function titleFor(prompt: string, max = 60): string {
  const line =
    prompt
      .split(/\r?\n/)
      .map((l) => l.replace(/\s+/g, ' ').trim())
      .find((l) => l.length > 0) ?? '';
  if (line.length <= max) {
    return line;
  }
  const cut = line.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${space > max / 2 ? cut.slice(0, space) : cut}…`;
}

/** The title to show: the stored one, or a placeholder for an empty conversation. */
export function displayTitle(conversation: Pick<Conversation, 'title'>): string {
  return conversation.title || l10n.t('New conversation');
}

/**
 * Reads a conversation from parsed JSON of any file version (see conversationSchema), tolerating missing optional
 * fields and dropping malformed messages. Replies still marked `streaming` (the window went away mid-stream) come
 * back `interrupted`, unless `keepStreaming` (a merge compares the file as another window wrote it).
 * Returns undefined when the value is not a conversation at all.
 */
export function parseConversation(input: unknown, keepStreaming = false): Conversation | undefined {
  if (!isRecord(input)) {
    return undefined;
  }
  const value = migrateConversation(input);
  if (typeof value.id !== 'string' || !Array.isArray(value.messages)) {
    return undefined;
  }
  const messages = value.messages.map(parseMessage).filter((m): m is StoredMessage => m !== undefined);
  for (const message of messages) {
    delete message.parentId;
  }
  const branches = Array.isArray(value.branches)
    ? value.branches.map(parseMessage).filter((m): m is StoredMessage => m !== undefined)
    : [];
  const createdAt = num(value.createdAt) ?? messages[0]?.createdAt ?? 0;
  const queue = parseQueue(value.queue);
  return {
    version: CONVERSATION_VERSION,
    id: value.id,
    title:
      typeof value.title === 'string' ? value.title : titleFor(messages.find((m) => m.role === 'user')?.content ?? ''),
    createdAt,
    updatedAt: num(value.updatedAt) ?? createdAt,
    messages: keepStreaming ? messages : messages.map(markInterrupted),
    ...(branches.length ? { branches: keepStreaming ? branches : branches.map(markInterrupted) } : {}),
    ...(value.groundWithAxo === true ? { groundWithAxo: true } : {}),
    ...(value.pinned === true ? { pinned: true } : {}),
    ...compactionsOf(value.compactions),
    ...(typeof value.workspace === 'string' && value.workspace ? { workspace: value.workspace } : {}),
    ...(queue ? { queue } : {}),
  };
}

function compactionsOf(value: unknown): { compactions?: Compaction[] } {
  const compactions = parseCompactions(value);
  return compactions.length ? { compactions } : {};
}

function parseMessage(value: unknown): StoredMessage | undefined {
  if (!isRecord(value) || (value.role !== 'user' && value.role !== 'assistant') || typeof value.content !== 'string') {
    return undefined;
  }
  const message: StoredMessage = {
    id: typeof value.id === 'string' ? value.id : newId(),
    role: value.role,
    content: value.content,
    createdAt: num(value.createdAt) ?? 0,
  };
  if (typeof value.status === 'string' && STATUSES.has(value.status as ReplyStatus)) {
    message.status = value.status as ReplyStatus;
  }
  if (isRecord(value.error) && typeof value.error.message === 'string') {
    message.error = value.error as unknown as StoredError;
  }
  if (Array.isArray(value.context)) {
    message.context = value.context.filter(
      (c): c is ContextItem => isRecord(c) && typeof c.label === 'string' && typeof c.content === 'string',
    );
  }
  if (typeof value.notice === 'string') {
    message.notice = value.notice;
  }
  if (typeof value.model === 'string') {
    message.model = value.model;
  }
  if (typeof value.parentId === 'string') {
    message.parentId = value.parentId;
  }
  const usage = parseUsage(value.usage);
  if (usage) {
    message.usage = usage;
  }
  const trim = parseTrim(value.trim);
  if (trim) {
    message.trim = trim;
  }
  if (Array.isArray(value.sources)) {
    message.sources = value.sources
      .filter((c): c is Record<string, unknown> => isRecord(c) && typeof c.title === 'string')
      .map((c) =>
        typeof c.url === 'string' ? { title: c.title as string, url: c.url } : { title: c.title as string },
      );
  }
  return message;
}

/** A stored trim record, its fields checked one by one (one from a file may be anything). */
function parseTrim(value: unknown): TrimRecord | undefined {
  if (!isRecord(value) || num(value.limit) === undefined) {
    return undefined;
  }
  const trim: TrimRecord = { limit: value.limit as number };
  if (num(value.messages) !== undefined && (value.messages as number) > 0) {
    trim.messages = value.messages as number;
  }
  if (Array.isArray(value.attachments)) {
    const labels = value.attachments.filter((a): a is string => typeof a === 'string');
    if (labels.length) {
      trim.attachments = labels;
    }
  }
  if (value.instructions === true) {
    trim.instructions = true;
  }
  if (typeof value.cut === 'string') {
    trim.cut = value.cut;
  }
  if (value.grounding === true) {
    trim.grounding = true;
  }
  return trim;
}

const STATUSES = new Set<ReplyStatus>(['streaming', 'done', 'stopped', 'interrupted', 'error']);

function markInterrupted(message: StoredMessage): StoredMessage {
  if (message.status !== 'streaming') {
    return message;
  }
  return { ...message, status: 'interrupted', notice: INTERRUPTED_NOTICE };
}

/** The last message with `role`, and its index. */
export function lastOf(
  conversation: Conversation,
  role: StoredMessage['role'],
): { message: StoredMessage; index: number } | undefined {
  for (let i = conversation.messages.length - 1; i >= 0; i--) {
    if (conversation.messages[i].role === role) {
      return { message: conversation.messages[i], index: i };
    }
  }
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
