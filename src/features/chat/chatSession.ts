import type * as vscode from 'vscode';
import {
  CONVERSATION_SETTINGS,
  newConversation,
  type ContextItem,
  type Conversation,
} from '../../core/chat/conversation/conversation';
import { type ConversationMatch } from '../../core/chat/conversation/conversationSearch';
import { mergeConversations } from '../../core/chat/conversation/conversationMerge';
import { copySetting } from '../../core/chat/conversation/conversationSettings';
import { type ConversationStore } from '../../core/chat/store/conversationStore';
import {
  summaryOf,
  type ConversationSummary,
  listOrder,
  type StoreChange,
} from '../../core/chat/store/conversationSummary';
import type { ConversationHolder, ExternalChange } from '../../core/chat/runs/chatStateTypes';
import { ThrottledTask } from '../../core/chat/runs/throttledTask';
import { describeError } from '../../core/service/errors';
import * as l10n from '@vscode/l10n';
import type { Logger } from '../../core/logger';

/** The workspace-state key of the conversation shown in this workspace. */
const CURRENT_KEY = 'alphaAxo.chat.currentConversation';
/** How often a streaming reply is written to disk at most. */
export const STREAM_SAVE_INTERVAL_MS = 500;
/** The first wait before a failed save is tried again; it doubles up to SAVE_RETRY_MAX_MS. */
const SAVE_RETRY_MS = 2_000;
const SAVE_RETRY_MAX_MS = 30_000;

/** How a session reaches the user; optional so tests can leave it out. */
export interface SessionOptions {
  /** Tells the user a save failed: called once per run of failures, with a sentence to show next to "Show Logs". */
  onSaveFailure?: (message: string) => void;
  /** The first wait before a failed save is tried again. */
  retryMs?: number;
  /** This window's workspace (see `Conversation.workspace`), recorded in every conversation it starts. */
  workspace?: string;
}

/**
 * The conversation this window shows, the context waiting for the next prompt, and their persistence: the
 * conversation is saved through a throttle while a reply streams, at once otherwise, and its id is remembered per
 * workspace so a reload comes back to it.
 */
export class ChatSession implements ConversationHolder, vscode.Disposable {
  conversation: Conversation;
  /** Context chips for the next prompt. */
  pending: ContextItem[] = [];
  private readonly saver: ThrottledTask;
  /** Set while saves fail: the user was told, and a retry is due. */
  private failure: { told: boolean; retryMs: number; timer?: ReturnType<typeof setTimeout> } | undefined;
  private readonly listeners = new Set<(change: ExternalChange) => void>();
  private readonly storeListener: { dispose(): void };
  private disposed = false;
  /** Changes asked to be saved (`scheduleSave`, `saveNow`), and how many of them the last finished save holds. */
  private changes = 0;
  private saved = 0;
  /** Conversations left (switched away from) while saves failed: retried with the one shown, kept until written. */
  private readonly unsaved = new Map<string, Conversation>();

  constructor(
    readonly store: ConversationStore,
    private readonly memento: vscode.Memento,
    private readonly log: Logger,
    private readonly options: SessionOptions = {},
  ) {
    this.conversation = this.fresh();
    this.saver = new ThrottledTask(
      () => this.saveCurrent(),
      STREAM_SAVE_INTERVAL_MS,
      (error) => this.saveFailed(error),
    );
    this.storeListener = store.onDidChange((change) => void this.onStoreChange(change));
  }

  /** Whether the last save failed (a retry is due): what the window shows is not all on disk. */
  get saveFailing(): boolean {
    return this.failure !== undefined;
  }

  /** Whether a change is not written yet (its save waits, is under way, or failed). */
  get unwritten(): boolean {
    return this.saved !== this.changes;
  }

  /** Listens for another window's changes to the conversation shown or to the list. */
  onDidChangeExternally(listener: (change: ExternalChange) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** Loads the conversation this workspace showed last (a new one when there is none). */
  async init(): Promise<void> {
    const id = this.memento.get<string>(CURRENT_KEY);
    const loaded = id ? await this.store.load(id) : undefined;
    if (loaded) {
      this.conversation = loaded;
    }
  }

  /** The conversation list, newest first; the current one is listed even before its first save. */
  async list(): Promise<ConversationSummary[]> {
    const stored = await this.store.list();
    const inMemory = [...this.unsaved.values(), this.conversation].filter((c) => c.messages.length > 0);
    const ids = new Set(inMemory.map((c) => c.id));
    const others = stored.filter((s) => !ids.has(s.id));
    return [...inMemory.map(summaryOf), ...others].sort(listOrder);
  }

  /** A conversation as it stands: the one shown, one left while saves failed, or the file. */
  async read(id: string): Promise<Conversation | undefined> {
    if (id === this.conversation.id) {
      return this.conversation;
    }
    return this.unsaved.get(id) ?? (await this.store.load(id));
  }

  /**
   * Changes a conversation (its title, its pin) and saves it: the one shown in place, another through its file.
   * False when it cannot be read.
   */
  async update(id: string, change: (conversation: Conversation) => void): Promise<boolean> {
    if (id === this.conversation.id) {
      change(this.conversation);
      await this.saveNow();
      return true;
    }
    const conversation = await this.read(id);
    if (!conversation) {
      return false;
    }
    change(conversation);
    await this.store.save(conversation);
    return true;
  }

  /** Writes a conversation that is not shown (a duplicate, one brought back by Undo). */
  async add(conversation: Conversation): Promise<void> {
    this.store.undelete(conversation.id);
    await this.store.save(conversation);
  }

  /** A new, empty conversation of this window's workspace. */
  fresh(): Conversation {
    return newConversation(Date.now(), this.options.workspace);
  }

  /**
   * The conversations whose title or message text has every term of `query`, newest first (see
   * searchConversations). The store's search index reads what it has not read since it last changed.
   */
  async search(query: string): Promise<ConversationMatch[]> {
    return this.store.search.search(query, await this.list(), this.conversation);
  }

  /** Shows another conversation; false when it cannot be read. */
  async switchTo(id: string): Promise<boolean> {
    if (id === this.conversation.id) {
      return true;
    }
    // One left while saves failed is in memory only (and newer than its file).
    const loaded = this.unsaved.get(id) ?? (await this.store.load(id));
    if (!loaded) {
      return false;
    }
    await this.leave();
    // One left while saves failed still has to be written; one read from its file does not.
    if (this.unsaved.delete(id)) {
      this.changes++;
    } else {
      this.saved = this.changes;
    }
    this.conversation = loaded;
    this.remember();
    return true;
  }

  /** Starts an empty conversation (saved with its first message). */
  async startNew(): Promise<void> {
    await this.leave();
    this.conversation = this.fresh();
    this.saved = this.changes;
    this.remember();
  }

  /** Saves the conversation shown before another is shown; while saves fail, it is kept to retry with the rest. */
  private async leave(): Promise<void> {
    // One unchanged since its last save is not written again: a save of thousands of messages takes a tenth of a
    // second of the switch, and its new time would move a conversation that was only looked at up the list.
    if (this.saved === this.changes && !this.failure) {
      return;
    }
    await this.saveNow();
    if (this.failure && this.conversation.messages.length > 0) {
      this.unsaved.set(this.conversation.id, this.conversation);
    }
  }

  /** Deletes a conversation; deleting the current one starts a new one. */
  async delete(id: string): Promise<void> {
    this.unsaved.delete(id);
    if (id === this.conversation.id) {
      this.saver.cancel();
      this.conversation = this.fresh();
      this.remember();
    }
    await this.store.delete(id);
  }

  /** Saves soon (throttled): while a reply streams. */
  scheduleSave(): void {
    this.changes++;
    this.saver.schedule();
  }

  /** Saves now and waits for it. */
  async saveNow(): Promise<void> {
    this.conversation.updatedAt = Date.now();
    this.changes++;
    this.saver.schedule();
    await this.saver.flush();
    this.remember();
  }

  /** Saves at once, blocking (the extension is going away; an async write might never finish). */
  saveSync(): void {
    for (const conversation of [...this.unsaved.values(), this.conversation]) {
      try {
        this.store.saveSync(conversation);
      } catch (error) {
        this.log.error(`Chat: could not save the conversation: ${describeError(error)}`);
      }
    }
  }

  dispose(): void {
    this.disposed = true;
    this.saver.dispose();
    this.storeListener.dispose();
    this.listeners.clear();
    clearTimeout(this.failure?.timer);
  }

  /** Writes the conversation shown; takes in the turns another window added meanwhile (the store merged them). */
  private async saveCurrent(): Promise<void> {
    const conversation = this.conversation;
    const changes = this.changes;
    const sent = new Set(conversation.messages.map((m) => m.id));
    const merged = await this.store.save(conversation);
    if (conversation === this.conversation) {
      this.saved = changes;
    }
    if (merged) {
      this.adopt(conversation, merged, sent);
      this.emit({ conversation: true, list: true });
    }
    for (const [id, left] of this.unsaved) {
      await this.store.save(left);
      this.unsaved.delete(id);
    }
    if (this.failure) {
      clearTimeout(this.failure.timer);
      this.failure = undefined;
      this.log.info('Chat: the conversation is saved again.');
    }
  }

  /**
   * Takes a merged copy into the conversation shown, keeping what was added here since `sent` (the ids the merge
   * started from) and the same message objects (a reply streaming into one keeps streaming into what is shown), and
   * each setting (title, pin, grounding, tool access) from the copy that changed it last.
   */
  private adopt(conversation: Conversation, merged: Conversation, sent: ReadonlySet<string>): void {
    if (conversation !== this.conversation) {
      return;
    }
    const latest = mergeConversations({ ids: sent }, conversation, merged);
    conversation.messages = latest.messages;
    if (latest.branches) {
      conversation.branches = latest.branches;
    } else {
      delete conversation.branches;
    }
    if (latest.queue) {
      conversation.queue = latest.queue;
    } else {
      delete conversation.queue;
    }
    for (const setting of CONVERSATION_SETTINGS) {
      copySetting(conversation, latest, setting);
    }
    if (latest.changedAt) {
      conversation.changedAt = latest.changedAt;
    } else {
      delete conversation.changedAt;
    }
    conversation.updatedAt = latest.updatedAt;
  }

  /** A save failed: logged each time, told once per run of failures, tried again with a growing wait. */
  private saveFailed(error: unknown): void {
    this.log.error(`Chat: could not save the conversation: ${describeError(error)}`);
    const failure = (this.failure ??= { told: false, retryMs: this.options.retryMs ?? SAVE_RETRY_MS });
    if (!failure.told) {
      failure.told = true;
      this.options.onSaveFailure?.(saveFailureMessage(error));
    }
    if (failure.timer === undefined && !this.disposed) {
      failure.timer = setTimeout(() => {
        failure.timer = undefined;
        this.saver.schedule();
      }, failure.retryMs);
      failure.retryMs = Math.min(failure.retryMs * 2, SAVE_RETRY_MAX_MS);
    }
  }

  private async onStoreChange(change: StoreChange): Promise<void> {
    let shown = false;
    if (change.ids.has(this.conversation.id)) {
      const conversation = this.conversation;
      const sent = new Set(conversation.messages.map((m) => m.id));
      try {
        const merged = await this.store.refresh(conversation);
        if (merged) {
          this.adopt(conversation, merged, sent);
          shown = true;
        }
      } catch (error) {
        this.log.warn(`Chat: could not read another window's change: ${describeError(error)}`);
      }
    }
    if (shown || change.list) {
      this.emit({ conversation: shown, list: change.list || shown });
    }
  }

  private emit(change: ExternalChange): void {
    for (const listener of [...this.listeners]) {
      listener(change);
    }
  }

  /**
   * Notes the conversation shown, for the next start. Not waited for: the workbench's storage answers in 10–20 ms,
   * which a switch to a conversation waited for, and the memento holds the new value from the call on.
   */
  private remember(): void {
    if (this.memento.get(CURRENT_KEY) !== this.conversation.id) {
      this.memento
        .update(CURRENT_KEY, this.conversation.id)
        .then(undefined, (error: unknown) =>
          this.log.warn(`Chat: could not note the conversation shown: ${describeError(error)}`),
        );
    }
  }
}

/** The sentence for a failed save: what went wrong in words (no error code), and that nothing is lost yet. */
function saveFailureMessage(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const reason =
    code === 'ENOSPC' || code === 'EDQUOT'
      ? l10n.t('the disk is full')
      : code === 'EACCES' || code === 'EPERM' || code === 'EROFS'
        ? l10n.t('the folder cannot be written to')
        : l10n.t('the file could not be written');
  return l10n.t(
    'The conversation could not be saved: {0}. It stays open in this window, and saving is tried again.',
    reason,
  );
}
