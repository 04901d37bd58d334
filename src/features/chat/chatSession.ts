import type * as vscode from 'vscode';
import { newConversation, type ContextItem, type Conversation } from '../../core/chat/conversation';
import {
  foldConversation,
  queryTerms,
  searchFolded,
  type ConversationMatch,
  type FoldedConversation,
} from '../../core/chat/conversationSearch';
import { summaryOf, type ConversationStore, type ConversationSummary } from '../../core/chat/conversationStore';
import { ThrottledTask } from '../../core/chat/throttledTask';
import { describeError } from '../../core/errors';
import type { Logger } from '../../core/logger';

/** The workspace-state key of the conversation shown in this workspace. */
const CURRENT_KEY = 'alphaAxo.chat.currentConversation';
/** How often a streaming reply is written to disk at most. */
export const STREAM_SAVE_INTERVAL_MS = 500;

/**
 * The conversation this window shows, the context waiting for the next prompt, and their persistence: the
 * conversation is saved through a throttle while a reply streams, at once otherwise, and its id is remembered per
 * workspace so a reload comes back to it.
 */
export class ChatSession implements vscode.Disposable {
  conversation: Conversation = newConversation();
  /** Context chips for the next prompt. */
  pending: ContextItem[] = [];
  private readonly saver: ThrottledTask;
  /**
   * Conversations read and folded for searching, by id, each with the `updatedAt` it was read at: a query then costs
   * a substring search per message, not reading and folding every conversation again (loadConversations.bench
   * measures both).
   */
  private readonly searchCache = new Map<string, { updatedAt: number; folded: FoldedConversation }>();

  constructor(
    readonly store: ConversationStore,
    private readonly memento: vscode.Memento,
    private readonly log: Logger,
  ) {
    this.saver = new ThrottledTask(
      () => this.store.save(this.conversation),
      STREAM_SAVE_INTERVAL_MS,
      (error) => this.log.error(`Chat: could not save the conversation: ${describeError(error)}`),
    );
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
    const current = this.conversation;
    if (current.messages.length === 0) {
      return stored;
    }
    const others = stored.filter((s) => s.id !== current.id);
    return [summaryOf(current), ...others].sort((a, b) => b.updatedAt - a.updatedAt);
  }

  /**
   * The conversations whose title or message text has every term of `query`, newest first (see
   * searchConversations). Reads the files it has not read since they last changed.
   */
  async search(query: string): Promise<ConversationMatch[]> {
    if (queryTerms(query).length === 0) {
      return [];
    }
    const summaries = await this.list();
    const conversations: FoldedConversation[] = [];
    for (const summary of summaries) {
      // The conversation shown may change under a search (a reply streams into it): it is folded afresh each time.
      const folded =
        summary.id === this.conversation.id ? foldConversation(this.conversation) : await this.foldedForSearch(summary);
      if (folded) {
        conversations.push(folded);
      }
    }
    const listed = new Set(summaries.map((s) => s.id));
    for (const id of this.searchCache.keys()) {
      if (!listed.has(id)) {
        this.searchCache.delete(id);
      }
    }
    return searchFolded(query, conversations);
  }

  private async foldedForSearch(summary: ConversationSummary): Promise<FoldedConversation | undefined> {
    const cached = this.searchCache.get(summary.id);
    if (cached?.updatedAt === summary.updatedAt) {
      return cached.folded;
    }
    const loaded = await this.store.load(summary.id);
    if (!loaded) {
      return undefined;
    }
    const folded = foldConversation(loaded);
    this.searchCache.set(summary.id, { updatedAt: summary.updatedAt, folded });
    return folded;
  }

  /** Shows another conversation; false when it cannot be read. */
  async switchTo(id: string): Promise<boolean> {
    if (id === this.conversation.id) {
      return true;
    }
    const loaded = await this.store.load(id);
    if (!loaded) {
      return false;
    }
    await this.saveNow();
    this.conversation = loaded;
    await this.remember();
    return true;
  }

  /** Starts an empty conversation (saved with its first message). */
  async startNew(): Promise<void> {
    await this.saveNow();
    this.conversation = newConversation();
    await this.remember();
  }

  /** Deletes a conversation; deleting the current one starts a new one. */
  async delete(id: string): Promise<void> {
    if (id === this.conversation.id) {
      this.saver.cancel();
      this.conversation = newConversation();
      await this.remember();
    }
    await this.store.delete(id);
  }

  /** Saves soon (throttled): while a reply streams. */
  scheduleSave(): void {
    this.saver.schedule();
  }

  /** Saves now and waits for it. */
  async saveNow(): Promise<void> {
    this.conversation.updatedAt = Date.now();
    this.saver.schedule();
    await this.saver.flush();
    await this.remember();
  }

  /** Saves at once, blocking (the extension is going away; an async write might never finish). */
  saveSync(): void {
    try {
      this.store.saveSync(this.conversation);
    } catch (error) {
      this.log.error(`Chat: could not save the conversation: ${describeError(error)}`);
    }
  }

  dispose(): void {
    this.saver.dispose();
  }

  private async remember(): Promise<void> {
    if (this.memento.get(CURRENT_KEY) !== this.conversation.id) {
      await this.memento.update(CURRENT_KEY, this.conversation.id);
    }
  }
}
