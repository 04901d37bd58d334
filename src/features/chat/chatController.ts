import * as vscode from 'vscode';
import { DeltaBatcher } from '../../core/chat/runs/deltaBatcher';
import { ChatState } from '../../core/chat/runs/chatState';
import { replySpeed } from '../../core/chat/runs/replyTiming';
import type { PromptQueue } from '../../core/chat/runs/promptQueue';
import type { ContextItem, Conversation } from '../../core/chat/conversation/conversation';
import { sourceTargets } from '../../core/chat/request/citations';
import { groundQuestion } from '../../core/chat/request/grounding';
import { DisposableOwner } from '../../host/disposables';
import type { Services } from '../../host/services';
import type {
  BudgetView,
  ChatStateView,
  ConversationMatchView,
  ConversationSummaryView,
  HistoryScope,
  HostToWebview,
  QueueView,
} from '../../protocol/chatProtocol';
import type { ChatSession } from './chatSession';
import { readDisplay } from '../../host/display';
import type { ChatSurface } from './chatSurface';
import {
  budgetView,
  chipView,
  compactionView,
  errorView,
  messageView,
  messageViews,
  modelViews,
  otherVersionsUsage,
  summariesUsage,
  queueView,
  summaryView,
  usageView,
  type ArticlePlaces,
} from './chatViews';
import type { CodeActions } from './codeActions';
import { compactWithProgress } from './compactCommand';
import { deleteWithUndo, duplicateShowing, renameAsking, togglePinned } from './organiseCommands';

/** How long a reply's deltas are held to go to the pages together, at most. */
const DELTA_INTERVAL_MS = 32;

/** The workspace-state key of the list's filter ("This workspace" or "All"), remembered per window. */
const SCOPE_KEY = 'alphaAxo.chat.historyScope';

/**
 * The chat's adapter to VS Code: the pages (side view, editor tabs) and the dialogs. The conversation and the running
 * reply live in {@link ChatState} (src/core/chat), which serialises every operation; this class turns what the
 * state tells into messages for every page, draws a page from nothing whenever one says it is ready, and asks the
 * user where VS Code has to (a delete's confirmation, a conversation that could not be opened).
 */
export class ChatController extends DisposableOwner {
  private readonly surfaces = new Set<ChatSurface>();
  /** Pages that have their state; only they get stream messages (others get the state first). */
  private readonly synced = new WeakSet<ChatSurface>();
  private readonly chat: ChatState;
  private hasSelection = false;
  private readonly streamingEmitter = this._register(new vscode.EventEmitter<boolean>());
  /** A reply's deltas, joined to at most one message a frame or two (see DeltaBatcher). */
  private readonly deltas = new DeltaBatcher(
    (requestId, text) => this.broadcast({ type: 'chat/delta', requestId, text }),
    DELTA_INTERVAL_MS,
  );
  /** Fires true when a reply starts streaming and false when it has ended (the status bar listens). */
  readonly onDidChangeStreaming = this.streamingEmitter.event;

  constructor(
    private readonly services: Services,
    private readonly session: ChatSession,
    private readonly actions: CodeActions,
    /** This window's workspace (see `Conversation.workspace`); undefined in a window without one. */
    private readonly workspace?: string,
  ) {
    super();
    const { settings } = services;
    this.chat = new ChatState({
      holder: session,
      source: services.alpha,
      log: services.log,
      settings: () => ({
        model: settings.chatModel,
        stream: settings.chatStream,
        groundByDefault: settings.chatGroundWithAxo,
        queuePrompts: settings.chatQueuePrompts,
      }),
      ground: (prompt, signal) =>
        groundQuestion(services.axo, services.encyclopedia, prompt, settings.encyclopediaModel, signal),
      instructions: () => services.instructions.current,
      listener: {
        replyStarted: async (requestId, user, reply) => {
          const conversations = await this.summaries();
          this.broadcast({
            type: 'chat/started',
            requestId,
            user: messageView(user, this.articlePlaces()),
            reply: messageView(reply),
            budget: this.budget(),
            conversations,
          });
        },
        replyDelta: (requestId, text) => this.deltas.add(requestId, text),
        replyNotice: (requestId, notice) => this.broadcast({ type: 'chat/notice', requestId, notice }),
        replyEnded: (requestId, reply) => {
          const usage = usageView(reply.usage, settings.chatPrices);
          const speed = replySpeed(reply.timing, reply.usage);
          this.broadcast(
            reply.status === 'error' && reply.error
              ? { type: 'chat/error', requestId, error: errorView(reply.error), usage, speed }
              : { type: 'chat/done', requestId, status: reply.status === 'stopped' ? 'stopped' : 'done', usage, speed },
          );
          // The reply now counts in the next request: the gauge follows.
          this.broadcast({ type: 'budget/changed', budget: this.budget() });
        },
        conversationChanged: () => this.redraw(),
        listChanged: async () => this.broadcast({ type: 'conversations/list', conversations: await this.summaries() }),
        queueChanged: () => this.postQueue(),
        streamingChanged: (streaming) => {
          if (!this.isDisposed) {
            this.streamingEmitter.fire(streaming);
          }
        },
      },
    });
    this.hasSelection = actions.hasSelection();
    this._register(
      services.instructions.onDidChange(() => this.broadcast({ type: 'budget/changed', budget: this.budget() })),
    );
    this._register(this.deltas);
    // Registered last, so disposed first: the running reply is saved (marked interrupted) while all else stands.
    this._register(this.chat);
  }

  /** Whether a reply is being written. */
  get isStreaming(): boolean {
    return this.chat.runningReply !== undefined;
  }

  /** A page is ready: draw it from the current state. */
  async attach(surface: ChatSurface): Promise<void> {
    this.surfaces.add(surface);
    this.synced.delete(surface);
    await this.chat.whenLoaded();
    const state = await this.state();
    if (this.surfaces.has(surface)) {
      surface.post({ type: 'chat/state', state });
      surface.post({ type: 'ui/display', display: readDisplay() });
      this.synced.add(surface);
    }
  }

  /** A page is gone. */
  detach(surface: ChatSurface): void {
    this.surfaces.delete(surface);
  }

  /** Sends a message to every page that has its state. */
  broadcast(message: HostToWebview): void {
    if (message.type !== 'chat/delta') {
      this.deltas.flush();
    }
    for (const surface of this.surfaces) {
      if (this.synced.has(surface)) {
        surface.post(message);
      }
    }
  }

  /** Sends a prompt with the pending context (and `extra`) and streams the reply; settles when it has ended. */
  send(text: string, extra: ContextItem[] = []): Promise<void> {
    return this.chat.send(text, extra);
  }

  /** Adds a prompt and a reply already received for it (an assistance command's reply without code). */
  record(text: string, reply: string): Promise<void> {
    return this.chat.record(text, reply);
  }

  /** Writes a reply again (`messageId`'s, else the last: Regenerate, Retry); the old one stays as a branch. */
  regenerate(messageId?: string): Promise<void> {
    return this.chat.regenerate(messageId);
  }

  /** Shows the sibling before (−1) or after (1) a message on the path shown, and the branch below it. */
  switchBranch(messageId: string, step: -1 | 1): Promise<boolean> {
    return this.chat.switchBranch(messageId, step);
  }

  /** Sends a prompt again as `text`, keeping its context; the old prompt and what followed stay as a branch. */
  edit(messageId: string, text: string): Promise<void> {
    return this.chat.edit(messageId, text);
  }

  /** Stops the running reply (only `requestId`'s, when given) and waits until it has ended and been saved. */
  stop(requestId?: number): Promise<void> {
    return this.chat.stop(requestId);
  }

  /** The prompt queue of the conversation shown (edit, remove, "Send now", resume). */
  get prompts(): PromptQueue {
    return this.chat.prompts;
  }

  /** Tells every page the queue (and the chips, which a queued prompt took along). */
  postQueue(): void {
    this.broadcast({ type: 'queue/changed', queue: this.queue() });
    this.postChips();
  }

  /** Adds context chips for the next prompt (the same label and content only once). */
  addContext(items: ContextItem[]): void {
    this.chat.addContext(items);
    this.postChips();
  }

  /** Drops a context chip. */
  removeContext(id: string): void {
    this.chat.removeContext(id);
    this.postChips();
  }

  /** Starts an empty conversation (the running reply stops). */
  newConversation(): Promise<void> {
    return this.chat.newConversation();
  }

  /** Shows another conversation (the running reply stops). */
  async switchTo(id: string): Promise<void> {
    if (!(await this.chat.switchTo(id))) {
      void vscode.window.showWarningMessage(
        vscode.l10n.t('That conversation could not be opened: it was deleted or is damaged.'),
      );
    }
  }

  /** The conversations whose title or messages match `query`, as the list shows them. */
  async search(query: string): Promise<ConversationMatchView[]> {
    await this.chat.whenLoaded();
    return (await this.session.search(query)).map(({ id, snippet }) => ({ id, snippet }));
  }

  /** Deletes a conversation (the one shown when no id is given), with Undo for a while (see organiseCommands.ts). */
  delete(id?: string): Promise<void> {
    return deleteWithUndo(this.chat, id);
  }

  /** Renames a conversation (the one shown when no id is given); without a title, asks for one. */
  rename(id?: string, title?: string): Promise<void> {
    return renameAsking(this.chat, id, title);
  }

  /** Pins or unpins a conversation (the one shown, toggled, when no id is given). */
  setPinned(id?: string, pinned?: boolean): Promise<void> {
    return togglePinned(this.chat, id, pinned);
  }

  /** Adds an imported conversation (under its own new id) and shows it (the running reply stops). */
  async importConversation(conversation: Conversation): Promise<void> {
    await this.chat.restore(conversation);
    await this.chat.switchTo(conversation.id);
  }

  /** Copies a conversation (the one shown when no id is given) and shows the copy. */
  duplicate(id?: string): Promise<void> {
    return duplicateShowing(this.chat, id);
  }

  /** The list's filter in this window: this workspace's conversations, or all (none without a workspace). */
  get historyScope(): HistoryScope | undefined {
    if (!this.workspace) {
      return undefined;
    }
    return this.services.context.workspaceState.get<HistoryScope>(SCOPE_KEY) === 'all' ? 'all' : 'workspace';
  }

  /** Remembers the list's filter for this window and tells every page. */
  async setHistoryScope(scope: HistoryScope): Promise<void> {
    if (!this.workspace) {
      return;
    }
    await this.services.context.workspaceState.update(SCOPE_KEY, scope);
    this.broadcast({ type: 'history/scope', scope });
  }

  /** The model setting changed. */
  onModelChanged(): void {
    this.broadcast({ type: 'model/changed', model: this.services.settings.chatModel, budget: this.budget() });
  }

  /** The active editor or its selection changed. */
  onSelectionChanged(): void {
    const has = this.actions.hasSelection();
    if (has !== this.hasSelection) {
      this.hasSelection = has;
      this.broadcast({ type: 'editor/selection', hasSelection: has });
    }
  }

  /** Sends the whole state to every page (after a switch, new, edit or delete). */
  async redraw(): Promise<void> {
    const state = await this.state();
    this.broadcast({ type: 'chat/state', state });
  }

  /** The "Ground with AXO" toggle: remembered by this conversation from now on. */
  setGround(on: boolean): Promise<void> {
    return this.chat.setGround(on);
  }

  /** "Compact Conversation": ALPHA summarises the older turns, sent instead of them from then on (Undo offered). */
  async compact(): Promise<void> {
    await this.chat.whenLoaded();
    await compactWithProgress(this.chat);
  }

  /** Undo of a compaction: its turns are sent again. */
  async undoCompaction(id: string): Promise<void> {
    await this.chat.undoCompaction(id);
  }

  /** Opens source `index` of a reply: an AXO article in the Encyclopedia view, a web page through the host. */
  async openSource(messageId: string, index: number): Promise<void> {
    await this.chat.whenLoaded();
    const message = this.chat.conversation.messages.find((m) => m.id === messageId);
    const citation = message?.sources?.[index];
    if (!citation) {
      return;
    }
    // The persisted cache is read once (a grounded reply has read it already): its article URLs decide too.
    await this.services.encyclopedia.ensureLoaded();
    const target = sourceTargets(message?.sources ?? [], this.services.settings.baseUrl, this.articlePlaces().known)[
      index
    ];
    if (target?.kind === 'article') {
      await vscode.commands.executeCommand('axo.article', { title: target.title });
    } else if (target?.kind === 'web') {
      await vscode.env.openExternal(vscode.Uri.parse(target.url, true));
    }
  }

  /** Where the encyclopedia's articles are, for the Sources lists. */
  private articlePlaces(): ArticlePlaces {
    return { baseUrl: this.services.settings.baseUrl, known: this.services.encyclopedia.articleUrls };
  }

  /** The conversations as the list shows them. */
  private async summaries(): Promise<ConversationSummaryView[]> {
    return (await this.chat.list()).map((s) => summaryView(s, this.workspace));
  }

  private postChips(): void {
    this.broadcast({ type: 'context/chips', chips: this.chat.pending.map(chipView), budget: this.budget() });
  }

  private queue(): QueueView {
    return queueView(this.chat.prompts.entries(), this.services.settings.chatQueuePrompts);
  }

  private budget(): BudgetView {
    return budgetView(this.chat.budget(), this.services.instructions.current);
  }

  /** Opens instructions file `index` of those sent now (the index a page names is checked against them). */
  async openInstructions(index: number): Promise<void> {
    const file = this.services.instructions.current?.files[index];
    if (file) {
      await vscode.window.showTextDocument(vscode.Uri.parse(file.uri, true), { preview: true });
    }
  }

  private async state(): Promise<ChatStateView> {
    const conversations = await this.summaries();
    // Everything below is read in one go, after the last await: the state matches the stream messages that follow
    // (the deltas held until now go to the pages that have their state; this one's state holds their text).
    this.deltas.flush();
    const conversation = this.chat.conversation;
    const model = this.services.settings.chatModel;
    return {
      conversationId: conversation.id,
      title: conversation.title,
      messages: messageViews(conversation, this.articlePlaces(), this.services.settings.chatPrices),
      conversations,
      models: modelViews(model),
      model,
      pendingContext: this.chat.pending.map(chipView),
      streaming: this.chat.runningReply,
      budget: this.budget(),
      hasSelection: this.hasSelection,
      groundWithAxo: this.chat.groundWithAxo,
      historyScope: this.historyScope,
      otherVersions: otherVersionsUsage(conversation, this.services.settings.chatPrices),
      summaries: summariesUsage(conversation, this.services.settings.chatPrices),
      queue: this.queue(),
      ...compactionView(conversation),
    };
  }
}
