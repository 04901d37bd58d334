/* The chat state's test harness: a reply source the test drives, conversations in memory, a listener that records. */
import type { ChatRequest, UsageListener } from '../../src/core/service/alphaClient';
import type { TokenUsage } from '../../src/core/service/usage';
import { ChatState } from '../../src/core/chat/runs/chatState';
import type {
  ChatStateListener,
  ConversationHolder,
  ExternalChange,
  ReplySettings,
} from '../../src/core/chat/runs/chatStateTypes';
import {
  newConversation,
  type ContextItem,
  type Conversation,
  type StoredMessage,
} from '../../src/core/chat/conversation/conversation';
import { summaryOf, type ConversationSummary } from '../../src/core/chat/store/conversationSummary';
import type { GroundingResult } from '../../src/core/chat/request/grounding';
import type { ReplySource } from '../../src/core/chat/runs/replyRunner';
import { silentLogger, type Logger } from '../../src/core/logger';
import type { ToolStep } from '../../src/core/chat/tools/chatTool';

/** A promise and the function that settles it. */
export function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/**
 * A reply source the test drives: each reply yields `pieces`; while `held`, it stops after the first piece until
 * `release()` or an abort (as the real client does, an abort ends the stream; runReply then records "stopped").
 */
export class ScriptedSource implements ReplySource {
  readonly requests: ChatRequest[] = [];
  held = false;
  failWith: Error | undefined;
  /** The usage the service reports for each reply, before its text; none by default (then it is estimated). */
  report: TokenUsage | undefined;
  private gate = deferred();

  constructor(public pieces: string[] = ['Hello', ', world.']) {}

  release(): void {
    this.held = false;
    this.gate.resolve();
    this.gate = deferred();
  }

  async *stream(
    request: ChatRequest,
    signal?: AbortSignal,
    onUsage?: UsageListener,
  ): AsyncGenerator<string, void, undefined> {
    this.requests.push(request);
    if (this.report) {
      onUsage?.(this.report);
    }
    for (const [i, piece] of this.pieces.entries()) {
      if (i === 1 && this.held) {
        await Promise.race([this.gate.promise, aborted(signal)]);
      }
      if (signal?.aborted) {
        return;
      }
      if (i === 1 && this.failWith) {
        throw this.failWith;
      }
      yield piece;
      await Promise.resolve();
    }
  }

  complete(request: ChatRequest): Promise<string> {
    this.requests.push(request);
    return Promise.resolve(this.pieces.join(''));
  }
}

/** Settles when `signal` aborts, at once when it already has. */
function aborted(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) {
      resolve();
    }
    signal?.addEventListener('abort', () => resolve(), { once: true });
  });
}

/** The conversations in memory, as the store would keep them: a save copies the conversation shown. */
export class MemoryHolder implements ConversationHolder {
  conversation: Conversation = newConversation();
  pending: ContextItem[] = [];
  saveFailing = false;
  unwritten = false;
  readonly files = new Map<string, Conversation>();
  syncSaves = 0;
  /** While set, a switch waits for it (after reading, before showing): a slow disk. */
  switchGate: Promise<void> | undefined;
  private readonly listeners = new Set<(change: ExternalChange) => void>();

  init(): Promise<void> {
    return Promise.resolve();
  }

  list(): Promise<ConversationSummary[]> {
    return Promise.resolve([...this.files.values()].map(summaryOf).sort((a, b) => b.updatedAt - a.updatedAt));
  }

  async switchTo(id: string): Promise<boolean> {
    const found = this.files.get(id);
    await this.switchGate;
    if (!found) {
      return false;
    }
    await this.saveNow();
    this.conversation = structuredClone(found);
    return true;
  }

  async startNew(): Promise<void> {
    await this.saveNow();
    this.conversation = newConversation();
  }

  delete(id: string): Promise<void> {
    this.files.delete(id);
    if (id === this.conversation.id) {
      this.conversation = newConversation();
    }
    return Promise.resolve();
  }

  read(id: string): Promise<Conversation | undefined> {
    const found = id === this.conversation.id ? this.conversation : this.files.get(id);
    return Promise.resolve(found && structuredClone(found));
  }

  update(id: string, change: (conversation: Conversation) => void): Promise<boolean> {
    if (id === this.conversation.id) {
      change(this.conversation);
      this.write();
      return Promise.resolve(true);
    }
    const found = this.files.get(id);
    if (found) {
      change(found);
    }
    return Promise.resolve(found !== undefined);
  }

  add(conversation: Conversation): Promise<void> {
    this.files.set(conversation.id, structuredClone(conversation));
    return Promise.resolve();
  }

  scheduleSave(): void {
    this.write();
  }

  saveNow(): Promise<void> {
    this.write();
    return Promise.resolve();
  }

  saveSync(): void {
    this.syncSaves++;
    this.write();
  }

  private write(): void {
    if (this.conversation.messages.length > 0) {
      this.files.set(this.conversation.id, structuredClone(this.conversation));
    }
  }

  onDidChangeExternally(listener: (change: ExternalChange) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  fire(change: ExternalChange): void {
    this.listeners.forEach((l) => l(change));
  }
}

/** Records what the state tells, in order, as short strings ("started 1", "delta 1 Hello", "ended 1 stopped"…). */
export class Recorder implements ChatStateListener {
  readonly events: string[] = [];
  failStart = false;
  private waiters: Array<{ pattern: RegExp; resolve: () => void }> = [];

  replyStarted(requestId: number, user: StoredMessage): Promise<void> {
    if (this.failStart) {
      return Promise.reject(new Error('the pages could not be told'));
    }
    this.note(`started ${requestId} ${user.content}`);
    return Promise.resolve();
  }
  replyDelta(requestId: number, text: string): void {
    this.note(`delta ${requestId} ${text}`);
  }
  replyNotice(requestId: number, notice: string): void {
    this.note(`notice ${requestId} ${notice}`);
  }
  replyStep(requestId: number, step: ToolStep): void {
    this.note(`step ${requestId} ${step.tool} ${step.status}`);
  }
  replyEnded(requestId: number, reply: StoredMessage): void {
    this.note(`ended ${requestId} ${reply.status ?? ''}`);
  }
  queueChanged(): void {
    this.note('queue');
  }
  conversationChanged(): Promise<void> {
    this.note('redraw');
    return Promise.resolve();
  }
  listChanged(): Promise<void> {
    this.note('list');
    return Promise.resolve();
  }
  streamingChanged(streaming: boolean): void {
    this.note(streaming ? 'streaming' : 'idle');
  }

  /** Settles when an event matching `pattern` has been told (at once when it already was). */
  when(pattern: RegExp): Promise<void> {
    if (this.events.some((e) => pattern.test(e))) {
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiters.push({ pattern, resolve }));
  }

  private note(event: string): void {
    this.events.push(event);
    this.waiters = this.waiters.filter((w) => !(w.pattern.test(event) && (w.resolve(), true)));
  }
}

export function setup(
  options: {
    settings?: Partial<ReplySettings>;
    ground?: (p: string, s: AbortSignal) => Promise<GroundingResult>;
    owner?: string;
    holder?: MemoryHolder;
  } = {},
) {
  const holder = options.holder ?? new MemoryHolder();
  const source = new ScriptedSource();
  const recorder = new Recorder();
  const warnings: string[] = [];
  const log: Logger = { ...silentLogger, warn: (m) => warnings.push(m) };
  const settings: ReplySettings = { model: 'alpha-1', stream: true, groundByDefault: false, ...options.settings };
  const state = new ChatState({
    holder,
    source,
    settings: () => settings,
    ground: options.ground,
    listener: recorder,
    log,
    owner: options.owner,
  });
  return { holder, source, recorder, state, warnings };
}

export function shape(messages: readonly StoredMessage[]): string[] {
  return messages.map((m) => (m.role === 'user' ? `user: ${m.content}` : `ALPHA (${m.status}): ${m.content}`));
}
