import { randomUUID } from 'node:crypto';
import type { ErrorInfo } from '../../service/errors';
import * as l10n from '@vscode/l10n';
import type { Citation } from '../../service/normalize';
import type { ReplyUsage } from '../../service/usage';
import type { ReplyTiming } from '../runs/replyTiming';
import type { ToolAccess, ToolStep } from '../tools/chatTool';
import { CONVERSATION_VERSION } from '../store/conversationSchema';

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
   * A reply's timing: when its request was sent, its first token arrived and it ended (see replyTiming.ts). Optional,
   * so files of version 4 need no upgrade step: replies written before it have none and show no speed.
   */
  timing?: ReplyTiming;
  /** A reply's tool calls, in the order written, each where it sits in the text (absent: it called none). */
  steps?: ToolStep[];
  /** How many billed requests the reply took (absent: one; each tool round trip is another). */
  requests?: number;
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
  /**
   * "Ground with AXO" as chosen for this conversation; optional, so older files need no upgrade step (absent: the
   * `alphaAxo.chat.groundWithAxo` setting's default; `false` is kept, a choice against a default that is on).
   */
  groundWithAxo?: boolean;
  /** Summaries sent in place of older turns (see compaction.ts); absent when the conversation was never compacted. */
  compactions?: Compaction[];
  /** What ALPHA may use in this conversation (absent: the `alphaAxo.chat.tools` setting's level). */
  toolAccess?: ToolAccess;
  /** Pinned: listed above the others. Optional like `groundWithAxo` (absent = not pinned). */
  pinned?: boolean;
  /**
   * The workspace the conversation was started in: the workspace file's URI, else the first folder's (absent in a
   * window without one, and in conversations from before workspaces were kept: those show under "All" only).
   */
  workspace?: string;
  /**
   * Prompts written while a reply streamed, waiting their turn, by the window that queued them (see queuedPrompts.ts).
   * Optional like `pinned`: older files have none, and older builds ignore it.
   */
  queue?: QueuePart[];
  /**
   * When each of the conversation's own settings last changed (ms): two windows' copies take each setting from the
   * copy that changed it last (see conversationSettings.ts). Absent in older files, where this window's copy wins.
   */
  changedAt?: SettingTimes;
}

/** The settings a conversation keeps of its own, which a second window may change meanwhile (see changedAt). */
export const CONVERSATION_SETTINGS = ['title', 'pinned', 'groundWithAxo', 'toolAccess'] as const;

/** One of CONVERSATION_SETTINGS. */
export type ConversationSetting = (typeof CONVERSATION_SETTINGS)[number];

/** When each setting last changed (absent: never, or before the times were kept). */
export type SettingTimes = Partial<Record<ConversationSetting, number>>;

/**
 * Compaction: ALPHA summarises the older turns of the path shown into one message, which is sent instead of them
 * from then on. The originals stay in the conversation (shown, searched, exported); only requests change.
 *
 * Branches: a compaction names the last message it summarised (`throughId`). Every path that runs through that
 * message (the path it was made on, and any branch that leaves it later) sends the summary in place of that message
 * and all before it; a branch that leaves the path earlier (an edited earlier prompt) sends its own messages.
 * Undo marks it undone: the originals are sent again; it is kept, since its request was billed.
 */
export interface Compaction {
  id: string;
  /** The last message summarised. */
  throughId: string;
  /** How many messages of the path it was made on it stands for. */
  messages: number;
  summary: string;
  createdAt: number;
  model: string;
  /** The summary's request: billed like a reply. */
  usage?: ReplyUsage;
  /** Undo: the originals are sent again. */
  undone?: boolean;
}

/** A prompt written while a reply streamed, waiting its turn with what it was queued with. */
export interface QueuedPrompt {
  id: string;
  text: string;
  /** The context chips that were pending when it was queued (they go with it, not with the next prompt). */
  context?: ContextItem[];
  /** "Ground with AXO" as it was when it was queued. */
  groundWithAxo: boolean;
  /** The model chosen when it was queued. */
  model: string;
  queuedAt: number;
  /** Said beside it in the queue: why it came to differ from what was queued (an import changed its model). */
  note?: string;
}

/**
 * One window's part of a conversation's queue. Only the window that queued a prompt runs it (`owner` is that
 * window's id, new at every start of the extension); the others show it. A part changes only in its owner's window,
 * so two windows' parts merge by taking each part from the copy that changed it last (`changedAt`).
 */
export interface QueuePart {
  owner: string;
  changedAt: number;
  /** The owner runs it: the next prompt goes when the reply running there ends. False: it waits to be resumed. */
  running: boolean;
  prompts: QueuedPrompt[];
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
