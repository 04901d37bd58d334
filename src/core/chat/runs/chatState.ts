import { describeError } from '../../service/errors';
import { switchBranch } from '../conversation/branches';
import type { Budget, ChatStateOptions, ExternalChange } from './chatStateTypes';
import { nextRequestBudget } from '../request/requestBudget';
import { sendablePath } from '../conversation/compaction';
import { compactAndTell, undoAndTell, type CompactOutcome } from './compactRun';
import { newId, type ContextItem, type Conversation, type StoredMessage } from '../conversation/conversation';
import type { ConversationSummary } from '../store/conversationSummary';
import { OperationQueue } from './operationQueue';
import { addPending, addPrompt, addRecordedReply, hasPromptTitle, titleFrom } from '../conversation/promptAdd';
import { prepareEdit, prepareRegenerate } from '../conversation/versionEdits';
import { changeSetting } from '../conversation/conversationSettings';
import type { QueuedPrompt } from '../conversation/conversation';
import { PromptQueue } from './promptQueue';
import {
  deleteConversation,
  duplicateConversation,
  pinConversation,
  renameConversation,
  restoreConversation,
  type OrganiseContext,
} from './organise';
import { ReplyRun, type ReplyOverrides } from './replyRun';
import { isToolAccess, type ToolAccess } from '../tools/chatTool';

/**
 * The chat's state, apart from VS Code: the conversation shown (through its holder), the running reply, and every
 * operation on them: send, record, regenerate, edit, new, switch, delete, stop, and the prompt queue (`prompts`).
 *
 * Operations run one at a time, in the order asked (`serial`), so a switch cannot read a conversation a send is
 * still changing, and a prompt sent during a switch lands in the conversation switched to. An operation first stops
 * the running reply and waits until it has ended and been saved. A reply runs outside the queue once it has
 * started, so a later operation (or Stop) can stop it. Stop is not queued: it acts on the reply running now.
 */
export class ChatState {
  private readonly loaded: Promise<void>;
  private readonly operations: OperationQueue;
  private readonly reply: ReplyRun;
  private readonly organise: OrganiseContext;
  /** Prompts sent while a reply streamed, waiting their turn (see PromptQueue). */
  readonly prompts: PromptQueue;
  private disposed = false;
  /** The summary being asked for (Compact Conversation), aborted when the extension goes away. */
  private compacting: AbortController | undefined;
  private readonly subscription: { dispose(): void };

  constructor(private readonly options: ChatStateOptions) {
    const { holder, log, listener } = options;
    this.loaded = holder.init().catch((error: unknown) => log.error(`Chat: ${describeError(error)}`));
    this.operations = new OperationQueue(this.loaded);
    this.reply = new ReplyRun(options);
    this.organise = { holder, listener, halt: () => this.halt(), replying: () => this.reply.current !== undefined };
    this.prompts = new PromptQueue({
      ...this.organise,
      settings: options.settings,
      owner: options.owner ?? newId(),
      serial: (operation) => this.serial(operation),
      start: (prompt) => this.startQueued(prompt),
    });
    this.subscription = holder.onDidChangeExternally((change) => {
      this.onExternalChange(change).catch((error: unknown) =>
        log.warn(`Chat: could not show another window's change: ${describeError(error)}`),
      );
    });
  }

  /** The conversation shown. */
  get conversation(): Conversation {
    return this.options.holder.conversation;
  }

  /** Context chips for the next prompt. */
  get pending(): readonly ContextItem[] {
    return this.options.holder.pending;
  }

  /** The running reply, if any. */
  get runningReply(): { requestId: number; messageId: string } | undefined {
    return this.reply.current;
  }

  /** Settles once the conversation shown last has been loaded. */
  whenLoaded(): Promise<void> {
    return this.loaded;
  }

  /** The conversations, newest first. */
  list(): Promise<ConversationSummary[]> {
    return this.options.holder.list();
  }

  /**
   * Sends a prompt with the pending context (and `extra`); settles when its reply has ended. While a reply runs and
   * queueing is on, the prompt waits its turn in the queue instead (and this settles at once).
   */
  async send(text: string, extra: ContextItem[] = []): Promise<void> {
    const started = await this.serial(async () => {
      if (this.prompts.accepts()) {
        this.prompts.add(text, extra);
        return undefined;
      }
      await this.halt();
      return this.addPrompt(text, this.takePending(extra)) ? this.begin('append') : undefined;
    });
    await started?.reply;
  }

  /**
   * Adds a prompt with the pending context and a reply already received for it (an assistance command's reply
   * without code): shown and kept like any answer, without asking ALPHA (and paying) again, with what fitting its
   * request trimmed (`trimmed`) shown on it as on any reply.
   */
  record(text: string, replyText: string, trimmed: Pick<StoredMessage, 'notice' | 'trim'> = {}): Promise<void> {
    return this.serial(async () => {
      await this.halt();
      if (!this.addPrompt(text, this.takePending([]))) {
        return;
      }
      addRecordedReply(this.conversation, replyText, this.options.settings().model, trimmed);
      await this.options.holder.saveNow();
      await this.options.listener.conversationChanged();
    });
  }

  /**
   * Writes a reply again (Regenerate, Retry): `messageId`'s, else the last one (or the missing reply to the last
   * prompt). The old reply, and what followed it, stays as a branch; a last reply with no text (a failure, a stop
   * before the first word) is replaced. Settles when the new reply has ended.
   */
  async regenerate(messageId?: string): Promise<void> {
    const started = await this.serial(async () => {
      await this.halt();
      const at = prepareRegenerate(this.conversation, messageId);
      if (at === undefined) {
        return undefined;
      }
      return this.begin('redraw', at);
    });
    await started?.reply;
  }

  /**
   * Sends a prompt again as `text`, keeping its context: the edited prompt becomes a sibling of the old one, which
   * stays as a branch with everything that followed it.
   */
  async edit(messageId: string, text: string): Promise<void> {
    const started = await this.serial(async () => {
      await this.halt();
      if (!prepareEdit(this.conversation, messageId, text)) {
        return undefined;
      }
      return this.begin('redraw');
    });
    await started?.reply;
  }

  /**
   * Shows the sibling before (`step` −1) or after (+1) the message `messageId` on the path, with the branch below
   * it that was shown last; the conversation continues from there. False when there is none.
   */
  switchBranch(messageId: string, step: -1 | 1): Promise<boolean> {
    return this.serial(async () => {
      await this.halt();
      const conversation = this.conversation;
      const first = conversation.messages[0];
      const autoTitle = hasPromptTitle(conversation);
      if (!switchBranch(conversation, messageId, step)) {
        return false;
      }
      const shown = conversation.messages[0];
      if (autoTitle && shown !== first && shown) {
        // A title the first prompt gave follows the version of it shown; one the user gave stays.
        changeSetting(conversation, 'title', titleFrom(shown.content, shown.context ?? []));
      }
      await this.options.holder.saveNow();
      await this.options.listener.conversationChanged();
      return true;
    });
  }

  /** Starts an empty conversation (the running reply stops, the queue waits). */
  newConversation(): Promise<void> {
    return this.serial(async () => {
      this.prompts.pause();
      await this.halt();
      await this.options.holder.startNew();
      await this.options.listener.conversationChanged();
    });
  }

  /** Shows another conversation (the running reply stops, the queue waits); false when it could not be read (the list is redrawn). */
  switchTo(id: string): Promise<boolean> {
    return this.serial(async () => {
      this.prompts.pause();
      await this.halt();
      const ok = await this.options.holder.switchTo(id);
      await this.options.listener.conversationChanged();
      return ok;
    });
  }

  /** Deletes a conversation (see {@link deleteConversation}); returns it for Undo. */
  delete(id: string): Promise<Conversation | undefined> {
    return this.serial(() => deleteConversation(this.organise, id));
  }

  /** Brings a deleted conversation back (Undo; see {@link restoreConversation}). */
  restore(conversation: Conversation): Promise<void> {
    return this.serial(() => restoreConversation(this.organise, conversation));
  }

  /** Renames a conversation (blank titles are refused: false). */
  rename(id: string, title: string): Promise<boolean> {
    return this.serial(() => renameConversation(this.organise, id, title));
  }

  /** Pins a conversation to the top of the list, or unpins it. */
  setPinned(id: string, pinned: boolean): Promise<boolean> {
    return this.serial(() => pinConversation(this.organise, id, pinned));
  }

  /** Copies a conversation under a new id and shows the copy (see {@link duplicateConversation}). */
  duplicate(id: string): Promise<string | undefined> {
    return this.serial(() => duplicateConversation(this.organise, id));
  }

  /** The "Ground with AXO" toggle: remembered by the conversation shown from now on. */
  setGround(on: boolean): Promise<void> {
    return this.serial(async () => {
      changeSetting(this.conversation, 'groundWithAxo', on);
      this.options.holder.scheduleSave();
    });
  }

  /** What ALPHA may use in the conversation shown: remembered by it from now on (a level not known is ignored). */
  setToolAccess(access: ToolAccess): Promise<void> {
    return this.serial(async () => {
      if (isToolAccess(access)) {
        changeSetting(this.conversation, 'toolAccess', access);
        this.options.holder.scheduleSave();
      }
    });
  }

  /**
   * "Compact Conversation": ALPHA summarises the older turns of the path shown into one message, sent instead of
   * them from then on (see compaction.ts); the running reply stops first. The pages redraw with the marker.
   */
  compact(): Promise<CompactOutcome> {
    return this.serial(async () => {
      await this.halt();
      const controller = (this.compacting = new AbortController());
      return compactAndTell(this.options, controller.signal).finally(() => (this.compacting = undefined));
    });
  }

  /** Undo of a compaction: its turns are sent again as they are. False when there is none to undo. */
  undoCompaction(id: string): Promise<boolean> {
    return this.serial(() => undoAndTell(this.options, id));
  }

  /** Whether "Ground with AXO" is on for the conversation shown. */
  get groundWithAxo(): boolean {
    return this.conversation.groundWithAxo ?? this.options.settings().groundByDefault;
  }

  /** What ALPHA may use in the conversation shown: its own choice, else the setting's (see setToolAccess). */
  get toolAccess(): ToolAccess {
    return this.conversation.toolAccess ?? this.options.settings().toolAccess ?? 'none';
  }

  /**
   * Stops the running reply now (not queued: it acts on the reply running when it is asked) and waits until it
   * has ended and been saved. With a `requestId`, only that reply. The queue waits until it is resumed.
   */
  stop(requestId?: number): Promise<void> {
    if (requestId === undefined || requestId === this.reply.current?.requestId) {
      this.prompts.pause();
    }
    return this.reply.stop(requestId);
  }

  /** Adds context chips for the next prompt (the same label and content only once). */
  addContext(items: readonly ContextItem[]): void {
    addPending(this.options.holder.pending, items);
  }

  /** Drops a context chip. */
  removeContext(id: string): void {
    const holder = this.options.holder;
    holder.pending = holder.pending.filter((p) => p.id !== id);
  }

  /** The estimate of the next request, by part (see {@link nextRequestBudget}). */
  budget(): Budget {
    const sendable = sendablePath(this.conversation);
    return nextRequestBudget({
      messages: sendable.messages,
      summary: sendable.summary,
      pending: this.pending,
      instructions: this.options.instructions?.(),
      groundingTokens: this.groundWithAxo ? this.reply.groundingTokens : 0,
      toolsTokens: this.reply.toolsTokens(this.conversation, this.options.settings()),
      model: this.options.settings().model,
    });
  }

  /**
   * The extension is going away: the running reply is aborted, and what arrived of it is saved at once, marked
   * interrupted (it comes back so after a reload), with what failing saves have not written yet. A change whose save
   * has not landed is written at once too: a reply stopped just before a reload (the page told, the save under way)
   * would otherwise come back "interrupted", its queue running in a window that is gone.
   */
  dispose(): void {
    if (this.disposed) {
      return;
    }
    this.disposed = true;
    this.subscription.dispose();
    this.compacting?.abort();
    const wasReplying = this.reply.dispose();
    const queueStopped = this.prompts.onExit();
    const { holder } = this.options;
    if (wasReplying || queueStopped || holder.saveFailing || holder.unwritten) {
      try {
        holder.saveSync();
      } catch (error) {
        this.options.log.error(`Chat: could not save the conversation on exit: ${describeError(error)}`);
      }
    }
  }

  /** Runs `operation` once every operation asked for before it has settled (and the conversation is loaded). */
  private serial<T>(operation: () => Promise<T>): Promise<T> {
    return this.operations.run(operation);
  }

  /** Stops the running reply and waits until it has ended. */
  private halt(): Promise<void> {
    return this.reply.stop();
  }

  /** The pending context and `extra`, for a prompt about to be added; the pending context is empty afterwards. */
  private takePending(extra: readonly ContextItem[]): ContextItem[] {
    const context = [...this.pending, ...extra];
    if (context.length) {
      this.options.holder.pending = [];
    }
    return context;
  }

  /** Adds a prompt with `context` (kept whole: only a request is trimmed); false when there is nothing to add. */
  private addPrompt(text: string, context: readonly ContextItem[]): boolean {
    return addPrompt(this.conversation, text, context);
  }

  /** Adds a queued prompt, with what it was queued with, and starts its reply. */
  private startQueued(prompt: QueuedPrompt): { reply: Promise<void> } | undefined {
    if (!this.addPrompt(prompt.text, prompt.context ?? [])) {
      return undefined;
    }
    return this.begin('append', Date.now(), { model: prompt.model, groundWithAxo: prompt.groundWithAxo });
  }

  /** Starts the reply to the last prompt; once it has ended, the queue may send its next prompt. */
  private begin(
    mode: 'append' | 'redraw',
    createdAt = Date.now(),
    overrides?: ReplyOverrides,
  ): { reply: Promise<void> } {
    const conversation = this.conversation;
    const started = this.reply.begin(mode, createdAt, overrides);
    const messageId = this.reply.current?.messageId;
    started.reply.then(
      () => this.prompts.afterReply(conversation, messageId),
      () => undefined,
    );
    return started;
  }

  /** Another window changed the conversation shown or the list. */
  private async onExternalChange(change: ExternalChange): Promise<void> {
    // A page draws a streaming reply as the last message; mid-reply it keeps streaming and is redrawn at the end.
    if (change.conversation && !this.reply.deferRedraw()) {
      await this.options.listener.conversationChanged();
      return;
    }
    if (change.conversation) {
      // Mid-reply the page is not redrawn, but another window's queued prompts show at once.
      this.options.listener.queueChanged?.();
    }
    if (change.list) {
      await this.options.listener.listChanged();
    }
  }
}
