import type { Logger } from '../../logger';
import type { ContextItem, Conversation, StoredMessage } from '../conversation/conversation';
import type { ConversationSummary } from '../store/conversationSummary';
import type { GroundingResult } from '../request/grounding';
import type { Instructions } from '../request/instructions';
import type { ReplySource } from './replyRunner';
import type { Citation } from '../../service/normalize';
import type { ChatToolbox, ToolAccess, ToolRunContext, ToolStep } from '../tools/chatTool';

/** What another window changed: the conversation shown (already updated in place), the list, or both. */
export interface ExternalChange {
  conversation: boolean;
  list: boolean;
}

/**
 * Where the chat's conversation lives: the conversation shown, the context waiting for the next prompt, and their
 * persistence. `ChatSession` (src/features/chat) is the real one, on the conversation store; tests use a fake.
 */
export interface ConversationHolder {
  conversation: Conversation;
  pending: ContextItem[];
  /** The last save failed (a retry is due). */
  readonly saveFailing: boolean;
  /** A change is not written yet: its save waits, is under way, or failed. */
  readonly unwritten: boolean;
  /** Loads the conversation shown last. */
  init(): Promise<void>;
  list(): Promise<ConversationSummary[]>;
  /** Shows another conversation; false when it cannot be read. */
  switchTo(id: string): Promise<boolean>;
  startNew(): Promise<void>;
  delete(id: string): Promise<void>;
  /** A conversation as it stands: the one shown, or its file; undefined when it cannot be read. */
  read(id: string): Promise<Conversation | undefined>;
  /** Changes a conversation (the one shown in place) and saves it; false when it cannot be read. */
  update(id: string, change: (conversation: Conversation) => void): Promise<boolean>;
  /** Writes a conversation that is not shown (a duplicate, one brought back by Undo). */
  add(conversation: Conversation): Promise<void>;
  /** Saves soon (throttled), while a reply streams. */
  scheduleSave(): void;
  saveNow(): Promise<void>;
  /** Saves at once, blocking: the extension is going away. */
  saveSync(): void;
  onDidChangeExternally(listener: (change: ExternalChange) => void): { dispose(): void };
}

/** The settings a reply is written with, read when it starts. */
export interface ReplySettings {
  model: string;
  /** Stream token by token, or ask for the whole reply at once. */
  stream: boolean;
  /** "Ground with AXO" for a conversation that has not chosen. */
  groundByDefault: boolean;
  /** A prompt sent while a reply streams waits its turn (true) or stops that reply (false, absent). */
  queuePrompts?: boolean;
  /** `alphaAxo.chat.toolCalling`: ALPHA may call tools at all (absent: no). */
  toolCalling?: boolean;
  /** What ALPHA may use in a conversation that has not chosen (`alphaAxo.chat.tools`; absent: nothing). */
  toolAccess?: ToolAccess;
  /** The most tool calls one reply may run (`alphaAxo.chat.toolCallsPerReply`; absent: 8). */
  toolCallsPerReply?: number;
}

/** What the chat tells its pages. Each call comes after the state changed; an awaited one is awaited in order. */
export interface ChatStateListener {
  /** A prompt and its reply were added; the reply streams next (deltas follow only once this has settled). */
  replyStarted(requestId: number, user: StoredMessage, reply: StoredMessage): Promise<void>;
  replyDelta(requestId: number, text: string): void;
  /** The running reply got a notice (the grounding's note, a trim of the context). */
  replyNotice(requestId: number, notice: string): void;
  /**
   * A step of the running reply was written or changed (a copy, as it stands now); `sources`: the reply's sources,
   * when the step added to them.
   */
  replyStep?(requestId: number, step: ToolStep, sources?: readonly Citation[]): void;
  /** The reply ended: done, stopped or failed (its `status` and `error` say which). */
  replyEnded(requestId: number, reply: StoredMessage): void;
  /** The conversation shown changed as a whole (a switch, an edit, a merge): draw it again, with the list. */
  conversationChanged(): Promise<void>;
  /** Only the list of conversations changed. */
  listChanged(): Promise<void>;
  /** A reply started (true) or ended (false). */
  streamingChanged(streaming: boolean): void;
  /** The prompt queue of the conversation shown changed (here or in another window). */
  queueChanged?(): void;
}

/** What the chat state is built on. */
export interface ChatStateOptions {
  holder: ConversationHolder;
  source: ReplySource;
  settings: () => ReplySettings;
  /** Asks AXO for a grounded reply's sources (absent: grounding is unavailable and stays off). */
  ground?: (prompt: string, signal: AbortSignal) => Promise<GroundingResult>;
  /** The tools this window offers ALPHA (absent: none; every reply is written without tools). */
  toolbox?: ChatToolbox;
  /** Asks the user a tool's yes/no question (absent: every such question is declined). */
  confirm?: ToolRunContext['confirm'];
  /** The repository's instructions the next request sends (absent or undefined: none; see instructions.ts). */
  instructions?: () => Instructions | undefined;
  listener: ChatStateListener;
  log: Logger;
  /** This window's id, new at every start: the queued prompts it runs are marked with it (default: a new id). */
  owner?: string;
}

/** The estimate of the next request, untrimmed (it may pass the limit), by part. */
export interface Budget {
  usedTokens: number;
  limitTokens: number;
  parts: {
    /** The turns sent (with their attachments). */
    conversation: number;
    /** The attachments waiting for the next prompt. */
    attachments: number;
    /** The repository's instructions. */
    instructions: number;
    /** The grounding of the last grounded request (when grounding is on): the next one's is not known before it. */
    grounding: number;
    /** The tools message: what ALPHA may use in this conversation, described (0 when it may use nothing). */
    tools: number;
  };
}
