import { parseUsage } from '../../service/usage';
import { parseCompactions } from './compaction';
import {
  CONVERSATION_SETTINGS,
  INTERRUPTED_NOTICE,
  newId,
  titleFor,
  type Compaction,
  type ContextItem,
  type Conversation,
  type ReplyStatus,
  type SettingTimes,
  type StoredError,
  type StoredMessage,
  type TrimRecord,
} from './conversation';
import { parseQueue } from './queuedPrompts';
import { parseSteps } from './storedSteps';
import { isToolAccess } from '../tools/chatTool';
import { parseTiming } from '../runs/replyTiming';
import { CONVERSATION_VERSION, migrateConversation } from '../store/conversationSchema';

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
    ...(typeof value.groundWithAxo === 'boolean' ? { groundWithAxo: value.groundWithAxo } : {}),
    ...(value.pinned === true ? { pinned: true } : {}),
    ...compactionsOf(value.compactions),
    ...(typeof value.workspace === 'string' && value.workspace ? { workspace: value.workspace } : {}),
    ...(queue ? { queue } : {}),
    ...(isToolAccess(value.toolAccess) ? { toolAccess: value.toolAccess } : {}),
    ...settingTimesOf(value.changedAt),
  };
}

/** The settings' change times kept: only known settings, each a finite time. */
function settingTimesOf(value: unknown): { changedAt?: SettingTimes } {
  if (!isRecord(value)) {
    return {};
  }
  const times: SettingTimes = {};
  for (const setting of CONVERSATION_SETTINGS) {
    const at = num(value[setting]);
    if (at !== undefined) {
      times[setting] = at;
    }
  }
  return Object.keys(times).length ? { changedAt: times } : {};
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
  const timing = value.role === 'assistant' ? parseTiming(value.timing) : undefined;
  if (timing) {
    message.timing = timing;
  }
  const trim = parseTrim(value.trim);
  if (trim) {
    message.trim = trim;
  }
  const steps =
    value.role === 'assistant'
      ? parseSteps(value.steps, { id: message.id, content: message.content, streaming: message.status === 'streaming' })
      : undefined;
  if (steps) {
    message.steps = steps;
  }
  if (value.role === 'assistant' && Number.isSafeInteger(value.requests) && (value.requests as number) > 0) {
    message.requests = value.requests as number;
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
  // Nothing resumes after a reload: a call that was running is stopped, and its reply interrupted.
  const steps = message.steps?.map((s) => (s.status === 'running' ? { ...s, status: 'stopped' as const } : s));
  return { ...message, status: 'interrupted', notice: INTERRUPTED_NOTICE, ...(steps ? { steps } : {}) };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
