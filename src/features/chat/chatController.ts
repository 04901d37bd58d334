import * as vscode from 'vscode';
import { ChatState } from '../../core/chat/runs/chatState';
import type { PromptQueue } from '../../core/chat/runs/promptQueue';
import type { ContextItem, Conversation } from '../../core/chat/conversation/conversation';
import type { AssistReply } from '../../core/assist/assistReply';
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
  ToolAccessView,
} from '../../protocol/chatProtocol';
import { confirmTool, openStepReview, type ChatToolsHost } from './chatTools';
import type { ConnectedPages } from './connectedPages';
import type { ChatSession } from './chatSession';
import { readDisplay } from '../../host/display';
import {
  budgetView,
  chipView,
  endedMessages,
  pageData,
  startedMessage,
  stepMessage,
  queueView,
  summaryView,
  type ArticlePlaces,
  type GaugeSource,
} from './pageData';
import type { CodeActions } from './codeActions';
import { compactWithProgress } from './compactCommand';
import { deleteWithUndo, duplicateShowing, renameAsking, togglePinned } from './organiseCommands';
import { HeldOlderMessages } from './olderMessages';

/** The workspace-state key of the list's filter ("This workspace" or "All"), remembered per window. */
const SCOPE_KEY = 'alphaAxo.chat.historyScope';

/**
 * The chat's commands and what they show. Every command (from a page, through ChatRouter, or from the command
 * palette) runs as an operation of {@link ChatState} (src/core/chat), which serialises them and holds the running
 * reply; this class asks the user where VS Code has to (a delete's confirmation, a conversation that could not be
 * opened), and turns what the state tells into the messages the connected pages get (drawn by pageData.ts).
 * The conversation itself is held and saved by {@link ChatSession}.
 */
export class ChatController extends DisposableOwner {
  private readonly chat: ChatState;
  private readonly older = new HeldOlderMessages();
  private hasSelection = false;
  private readonly streamingEmitter = this._register(new vscode.EventEmitter<boolean>());
  /** Fires true when a reply starts streaming and false when it has ended (the status bar listens). */
  readonly onDidChangeStreaming = this.streamingEmitter.event;

  constructor(
    private readonly services: Services,
    private readonly session: ChatSession,
    private readonly actions: CodeActions,
    /** Where what the commands show goes: every page connected. */
    private readonly pages: ConnectedPages,
    /** This window's workspace (see `Conversation.workspace`); undefined in a window without one. */
    private readonly workspace?: string,
    /** ALPHA's tools in this chat (absent: none, and no control is shown). */
    private readonly tools?: ChatToolsHost,
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
        toolCalling: settings.chatToolCalling,
        toolAccess: settings.chatToolAccess,
        toolCallsPerReply: settings.chatToolCallsPerReply,
      }),
      toolbox: tools?.toolbox,
      confirm: confirmTool,
      ground: (prompt, signal) =>
        groundQuestion(services.axo, services.encyclopedia, prompt, settings.encyclopediaModel, signal),
      instructions: () => services.instructions.current,
      listener: {
        replyStarted: async (requestId, user, reply) => {
          const summaries = await this.session.list();
          this.broadcast(startedMessage(requestId, user, reply, { ...this.gauge(), summaries, ...this.places() }));
        },
        replyDelta: pages.delta,
        replyNotice: (requestId, notice) => this.broadcast({ type: 'chat/notice', requestId, notice }),
        replyStep: (requestId, step, added) => {
          const reply = this.chat.conversation.messages.find((m) => m.id === this.chat.runningReply?.messageId);
          this.broadcast(
            stepMessage(requestId, step, reply?.sources ?? added, added !== undefined, this.articlePlaces()),
          );
        },
        replyEnded: (requestId, reply) => {
          this.broadcast(...endedMessages(requestId, reply, { ...this.gauge(), prices: settings.chatPrices }));
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
    // Registered last, so disposed first: the running reply is saved (marked interrupted) while all else stands.
    this._register(this.chat);
  }

  /** Whether a reply is being written. */
  get isStreaming(): boolean {
    return this.chat.runningReply !== undefined;
  }

  /** What a page that has just connected is drawn with: the whole state, and how the editor displays text. */
  async drawPage(): Promise<HostToWebview[]> {
    await this.chat.whenLoaded();
    const state = await this.state();
    return [
      { type: 'chat/state', state },
      { type: 'ui/display', display: readDisplay() },
    ];
  }

  /** Sends messages, in order, to every page connected. */
  private broadcast(...messages: HostToWebview[]): void {
    this.pages.broadcast(...messages);
  }

  /** Sends a prompt with the pending context (and `extra`) and streams the reply; settles when it has ended. */
  send(text: string, extra: ContextItem[] = []): Promise<void> {
    return this.chat.send(text, extra);
  }

  /** Adds a prompt and a reply already received for it (an assistance command's reply without code). */
  record(text: string, reply: AssistReply): Promise<void> {
    return this.chat.record(text, reply.text, reply);
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

  /** The tools control: what ALPHA may use in the conversation shown, remembered by it from now on. */
  async setToolAccess(access: ToolAccessView): Promise<void> {
    await this.chat.setToolAccess(access);
    // The tools message is a part of the next request: the gauge follows the control.
    this.broadcast({ type: 'budget/changed', budget: this.budget() });
  }

  /** Opens the review of a step's proposed edit again. */
  async openReview(messageId: string, stepId: string): Promise<void> {
    await this.chat.whenLoaded();
    if (this.tools) {
      await openStepReview(this.chat.conversation, messageId, stepId, this.tools);
    }
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
    return (await this.session.list()).map((s) => summaryView(s, this.workspace));
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

  /** What the gauge is drawn from, read now. */
  private gauge(): GaugeSource {
    return { budget: this.chat.budget(), instructions: this.services.instructions.current };
  }

  /** Where the list's and the sources' links lead: this window's workspace, the encyclopedia's articles. */
  private places(): { workspace?: string; articles: ArticlePlaces } {
    return { workspace: this.workspace, articles: this.articlePlaces() };
  }

  /** Opens instructions file `index` of those sent now (the index a page names is checked against them). */
  async openInstructions(index: number): Promise<void> {
    const file = this.services.instructions.current?.files[index];
    if (file) {
      await vscode.window.showTextDocument(vscode.Uri.parse(file.uri, true), { preview: true });
    }
  }

  private async state(): Promise<ChatStateView> {
    const summaries = await this.session.list();
    // Everything below is read in one go, after the last await: the state matches the stream messages that follow
    // (the deltas held until now go to the pages drawn before, before the state: see ConnectedPages).
    const { settings, instructions } = this.services;
    return pageData({
      conversation: this.chat.conversation,
      summaries,
      workspace: this.workspace,
      model: settings.chatModel,
      pending: this.chat.pending,
      streaming: this.chat.runningReply,
      budget: this.chat.budget(),
      instructions: instructions.current,
      hasSelection: this.hasSelection,
      groundWithAxo: this.chat.groundWithAxo,
      toolAccess: this.tools && settings.chatToolCalling ? this.chat.toolAccess : undefined,
      historyScope: this.historyScope,
      queue: this.queue(),
      articles: this.articlePlaces(),
      prices: settings.chatPrices,
      holdOlder: (count, views) => this.older.hold(count, views),
    });
  }

  /** The messages before those of state `key` (its `older`); undefined once they are no longer held. */
  olderMessages(key: number): ChatStateView['messages'] | undefined {
    return this.older.take(key);
  }
}
