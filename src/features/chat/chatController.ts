import * as vscode from 'vscode';
import { estimateMessagesTokens, fitToContext } from '../../core/chat/contextBudget';
import { estimateTokens } from '../../core/tokenEstimate';
import {
  INTERRUPTED_NOTICE,
  newId,
  titleFor,
  type ContextItem,
  type StoredMessage,
} from '../../core/chat/conversation';
import { contextTokensOf } from '../../core/chat/modelLineup';
import { requestMessages } from '../../core/chat/promptMessages';
import { runReply, storedError } from '../../core/chat/replyRunner';
import { fitGroundedToContext } from '../../core/chat/groundedBudget';
import { articleOriginsOf, sourceTarget } from '../../core/chat/citations';
import { groundQuestion, type GroundingResult } from '../../core/chat/grounding';
import { ServiceError } from '../../core/errors';
import { AbortSlot, DisposableOwner } from '../../host/disposables';
import type { Services } from '../../host/services';
import type { BudgetView, ChatStateView, ConversationMatchView, HostToWebview } from '../../protocol/chatProtocol';
import type { ChatSession, ExternalChange } from './chatSession';
import { readDisplay } from '../../host/display';
import type { ChatSurface } from './chatSurface';
import { chipView, errorView, messageView, messageViews, modelViews, summaryView } from './chatViews';
import type { CodeActions } from './codeActions';

/** The running reply. */
interface Running {
  requestId: number;
  messageId: string;
  controller: AbortController;
  done: Promise<void>;
}

/**
 * The chat's host side, the source of truth for every chat page: it owns the conversation (through the session),
 * sends prompts, streams replies into the conversation and to every page, and draws a page from nothing whenever
 * one says it is ready. At most one reply runs; a new one, Stop, a switch or disposal aborts it.
 */
export class ChatController extends DisposableOwner {
  private readonly surfaces = new Set<ChatSurface>();
  /** Pages that have their state; only they get stream messages (others get the state first). */
  private readonly synced = new WeakSet<ChatSurface>();
  private readonly slot = this._register(new AbortSlot());
  private running: Running | undefined;
  private nextRequestId = 1;
  private readonly loaded: Promise<void>;
  private hasSelection = false;
  /** Another window changed the conversation while a reply streamed here: the pages are redrawn when it ends. */
  private redrawAfterReply = false;
  private readonly streamingEmitter = this._register(new vscode.EventEmitter<boolean>());
  /** Fires true when a reply starts streaming and false when it has ended (the status bar listens). */
  readonly onDidChangeStreaming = this.streamingEmitter.event;

  constructor(
    private readonly services: Services,
    private readonly session: ChatSession,
    private readonly actions: CodeActions,
  ) {
    super();
    this.loaded = session.init().catch((error: unknown) => services.log.error(`Chat: ${String(error)}`));
    this.hasSelection = actions.hasSelection();
    this._register({ dispose: () => this.saveOnExit() });
    this._register(session.onDidChangeExternally((change) => void this.onExternalChange(change)));
  }

  /** Another window changed the conversation shown or the list: every page gets it. */
  private async onExternalChange(change: ExternalChange): Promise<void> {
    if (change.conversation && this.running) {
      // A page draws a streaming reply as the last message; mid-reply it keeps streaming and is redrawn at the end.
      this.redrawAfterReply = true;
    } else if (change.conversation) {
      await this.redraw();
      return;
    }
    if (change.list) {
      this.broadcast({ type: 'conversations/list', conversations: (await this.session.list()).map(summaryView) });
    }
  }

  /** Whether a reply is being written. */
  get isStreaming(): boolean {
    return this.running !== undefined;
  }

  /** A page is ready: draw it from the current state. */
  async attach(surface: ChatSurface): Promise<void> {
    this.surfaces.add(surface);
    this.synced.delete(surface);
    await this.loaded;
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
    for (const surface of this.surfaces) {
      if (this.synced.has(surface)) {
        surface.post(message);
      }
    }
  }

  /** Sends a prompt with the pending context (and `extra`) and streams the reply. */
  async send(text: string, extra: ContextItem[] = []): Promise<void> {
    await this.loaded;
    await this.stop();
    if (this.addPrompt(text, extra)) {
      await this.respond('append');
    }
  }

  /**
   * Adds a prompt with the pending context and a reply that was already received for it (an assistance command's
   * reply without code): shown and kept like any answer, without asking ALPHA (and paying) again.
   */
  async record(text: string, reply: string): Promise<void> {
    await this.loaded;
    await this.stop();
    if (!this.addPrompt(text, [])) {
      return;
    }
    const conversation = this.session.conversation;
    const model = this.services.settings.chatModel;
    conversation.messages.push({
      id: newId(),
      role: 'assistant',
      content: reply,
      createdAt: Date.now(),
      status: 'done',
      model,
    });
    conversation.updatedAt = Date.now();
    await this.session.saveNow();
    await this.redraw();
  }

  /** Adds a prompt with the pending context (and `extra`) to the conversation; false when there is nothing to add. */
  private addPrompt(text: string, extra: ContextItem[]): boolean {
    const context = [...this.session.pending, ...extra];
    if (!text.trim() && context.length === 0) {
      return false;
    }
    this.session.pending = [];
    const conversation = this.session.conversation;
    const user: StoredMessage = { id: newId(), role: 'user', content: text, createdAt: Date.now() };
    if (context.length) {
      user.context = context;
    }
    conversation.messages.push(user);
    if (!conversation.title) {
      conversation.title = titleFrom(text, context);
    }
    return true;
  }

  /** Writes the last reply again (Regenerate, Retry). */
  async regenerate(): Promise<void> {
    await this.loaded;
    await this.stop();
    const messages = this.session.conversation.messages;
    if (messages.at(-1)?.role === 'assistant') {
      messages.pop();
    }
    if (messages.at(-1)?.role !== 'user') {
      return;
    }
    await this.respond('redraw');
  }

  /** Replaces a prompt (and everything after it) with `text`, keeping its context, and sends it again. */
  async edit(messageId: string, text: string): Promise<void> {
    await this.loaded;
    await this.stop();
    const messages = this.session.conversation.messages;
    const index = messages.findIndex((m) => m.id === messageId && m.role === 'user');
    if (index < 0 || (!text.trim() && !messages[index].context?.length)) {
      return;
    }
    const edited: StoredMessage = { ...messages[index], id: newId(), content: text, createdAt: Date.now() };
    messages.splice(index, messages.length - index, edited);
    if (index === 0) {
      this.session.conversation.title = titleFrom(text, edited.context ?? []);
    }
    await this.respond('redraw');
  }

  /** Aborts the running reply (if any) and waits until it has ended and been saved. */
  async stop(requestId?: number): Promise<void> {
    const running = this.running;
    if (!running || (requestId !== undefined && running.requestId !== requestId)) {
      return;
    }
    running.controller.abort();
    await running.done;
  }

  /** Adds context chips for the next prompt (the same label and content only once). */
  addContext(items: ContextItem[]): void {
    const pending = this.session.pending;
    for (const item of items) {
      if (!pending.some((p) => p.label === item.label && p.content === item.content)) {
        pending.push(item);
      }
    }
    this.postChips();
  }

  /** Drops a context chip. */
  removeContext(id: string): void {
    this.session.pending = this.session.pending.filter((p) => p.id !== id);
    this.postChips();
  }

  /** Starts an empty conversation (the running reply stops). */
  async newConversation(): Promise<void> {
    await this.loaded;
    await this.stop();
    await this.session.startNew();
    await this.redraw();
  }

  /** Shows another conversation (the running reply stops). */
  async switchTo(id: string): Promise<void> {
    await this.loaded;
    await this.stop();
    if (!(await this.session.switchTo(id))) {
      void vscode.window.showWarningMessage(
        vscode.l10n.t('That conversation could not be opened: it was deleted or is damaged.'),
      );
    }
    await this.redraw();
  }

  /** The conversations whose title or messages match `query`, as the list shows them. */
  async search(query: string): Promise<ConversationMatchView[]> {
    await this.loaded;
    return (await this.session.search(query)).map(({ id, snippet }) => ({ id, snippet }));
  }

  /** Deletes a conversation after the user confirms. */
  async delete(id: string): Promise<void> {
    await this.loaded;
    const title = (await this.session.list()).find((s) => s.id === id)?.title ?? vscode.l10n.t('this conversation');
    const remove = vscode.l10n.t('Delete');
    const choice = await vscode.window.showWarningMessage(
      vscode.l10n.t('Delete the conversation “{0}”? This cannot be undone.', title),
      { modal: true },
      remove,
    );
    if (choice !== remove) {
      return;
    }
    if (id === this.session.conversation.id) {
      await this.stop();
    }
    await this.session.delete(id);
    await this.redraw();
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

  /** Writes a reply for the conversation as it stands (its last message is a prompt). */
  private async respond(mode: 'append' | 'redraw'): Promise<void> {
    const conversation = this.session.conversation;
    const model = this.services.settings.chatModel;
    const fit = fitToContext(requestMessages(conversation.messages), model);
    const grounded = conversation.groundWithAxo ?? this.services.settings.chatGroundWithAxo;
    const reply: StoredMessage = {
      id: newId(),
      role: 'assistant',
      content: '',
      createdAt: Date.now(),
      status: 'streaming',
      model,
      notice: fit.notice,
    };
    conversation.messages.push(reply);
    conversation.updatedAt = Date.now();
    const requestId = this.nextRequestId++;
    const controller = this.slot.next();
    let finish: () => void = () => undefined;
    const done = new Promise<void>((resolve) => (finish = resolve));
    const running: Running = { requestId, messageId: reply.id, controller, done };
    this.running = running;
    this.streamingEmitter.fire(true);
    // The lookup starts before the page is told and the request is built, so it runs while they are prepared.
    const prompt = conversation.messages.at(-2)?.content ?? '';
    const grounding = grounded
      ? groundQuestion(
          this.services.axo,
          this.services.encyclopedia,
          prompt,
          this.services.settings.encyclopediaModel,
          controller.signal,
        )
      : undefined;
    try {
      if (mode === 'append') {
        const conversations = (await this.session.list()).map(summaryView);
        this.broadcast({
          type: 'chat/started',
          requestId,
          user: messageView(conversation.messages.at(-2) as StoredMessage, this.services.settings.baseUrl),
          reply: messageView(reply),
          budget: this.budget(),
          conversations,
        });
      } else {
        await this.redraw();
      }
      const request = grounding ? await this.groundedRequest(grounding, reply, model) : fit;
      if (grounding && reply.notice) {
        this.broadcast({ type: 'chat/notice', requestId, notice: reply.notice });
      }
      await this.stream(running, reply, request.error, request.messages, model);
    } finally {
      // Also when the reply could not start (listing or drawing failed): the status bar must not stay "replying".
      this.endRunning(running);
      finish();
    }
  }

  /**
   * The request with AXO's grounding in the last prompt, fitted to the context; the reply keeps the sources and
   * says every trim, or why it was answered without sources. The page redraws after the reply to show them.
   */
  private async groundedRequest(
    lookup: Promise<GroundingResult>,
    reply: StoredMessage,
    model: string,
  ): Promise<{ error: ServiceError | undefined; messages: ReturnType<typeof requestMessages> }> {
    const result = await lookup;
    const stored = this.session.conversation.messages.filter((m) => m !== reply);
    const history = requestMessages(stored);
    const last = stored.at(-1);
    const fit =
      result.kind === 'grounded'
        ? fitGroundedToContext(history, result, model, last?.role === 'user' ? last : undefined)
        : fitToContext(history, model);
    const notes = [result.kind === 'cancelled' ? undefined : result.note, fit.notice].filter(Boolean);
    reply.notice = notes.length ? notes.join(' ') : undefined;
    if (result.kind === 'grounded' && result.sources.length) {
      reply.sources = [...result.sources];
    }
    this.redrawAfterReply = true;
    return fit;
  }

  /** The reply is no longer running: its abort controller goes back, and the status bar hears it (once). */
  private endRunning(running: Running): void {
    this.slot.release(running.controller);
    if (this.running !== running) {
      return;
    }
    this.running = undefined;
    if (!this.isDisposed) {
      this.streamingEmitter.fire(false);
    }
  }

  private async stream(
    running: Running,
    reply: StoredMessage,
    tooLarge: ServiceError | undefined,
    messages: ReturnType<typeof requestMessages>,
    model: string,
  ): Promise<void> {
    const { requestId, controller } = running;
    const { settings, alpha } = this.services;
    this.session.scheduleSave();
    if (tooLarge) {
      reply.status = 'error';
      reply.error = storedError(tooLarge, Date.now());
    } else {
      await runReply({
        source: alpha,
        request: { model, messages },
        stream: settings.chatStream,
        reply,
        signal: controller.signal,
        onDelta: (text) => {
          this.broadcast({ type: 'chat/delta', requestId, text });
          this.session.scheduleSave();
        },
      });
    }
    this.endRunning(running);
    if (this.isDisposed) {
      return;
    }
    if (reply.status === 'error' && reply.error) {
      this.services.log.warn(`Chat: the reply failed: ${reply.error.message}`);
      this.broadcast({ type: 'chat/error', requestId, error: errorView(reply.error) });
    } else {
      this.broadcast({ type: 'chat/done', requestId, status: reply.status === 'stopped' ? 'stopped' : 'done' });
    }
    await this.session.saveNow();
    if (this.redrawAfterReply && !this.running) {
      this.redrawAfterReply = false;
      await this.redraw();
      return;
    }
    this.broadcast({ type: 'conversations/list', conversations: (await this.session.list()).map(summaryView) });
  }

  private postChips(): void {
    this.broadcast({ type: 'context/chips', chips: this.session.pending.map(chipView), budget: this.budget() });
  }

  /** The estimate of the next request: the conversation so far plus the pending context. */
  private budget(): BudgetView {
    const history = estimateMessagesTokens(requestMessages(this.session.conversation.messages));
    const pending = this.session.pending.reduce((sum, c) => sum + estimateTokens(c.content) + 8, 0);
    return { usedTokens: history + pending, limitTokens: contextTokensOf(this.services.settings.chatModel) };
  }

  private async state(): Promise<ChatStateView> {
    const conversations = (await this.session.list()).map(summaryView);
    // Everything below is read in one go, after the last await: the state matches the stream messages that follow.
    const conversation = this.session.conversation;
    const model = this.services.settings.chatModel;
    const running = this.running;
    return {
      conversationId: conversation.id,
      title: conversation.title,
      messages: messageViews(conversation, this.services.settings.baseUrl),
      conversations,
      models: modelViews(model),
      model,
      pendingContext: this.session.pending.map(chipView),
      streaming: running ? { requestId: running.requestId, messageId: running.messageId } : undefined,
      budget: this.budget(),
      hasSelection: this.hasSelection,
      groundWithAxo: conversation.groundWithAxo ?? this.services.settings.chatGroundWithAxo,
    };
  }

  /** The "Ground with AXO" toggle: remembered by this conversation from now on. */
  async setGround(on: boolean): Promise<void> {
    await this.loaded;
    this.session.conversation.groundWithAxo = on;
    this.session.scheduleSave();
  }

  /** Opens source `index` of a reply: an AXO article in the Encyclopedia view, a web page through the host. */
  async openSource(messageId: string, index: number): Promise<void> {
    await this.loaded;
    const message = this.session.conversation.messages.find((m) => m.id === messageId);
    const citation = message?.sources?.[index];
    if (!citation) {
      return;
    }
    const target = sourceTarget(citation, articleOriginsOf(message?.sources ?? [], this.services.settings.baseUrl));
    if (target.kind === 'article') {
      await vscode.commands.executeCommand('axo.article', { title: target.title });
    } else if (target.kind === 'web') {
      await vscode.env.openExternal(vscode.Uri.parse(target.url, true));
    }
  }

  /**
   * The extension is going away: keep what arrived of a reply (it comes back marked interrupted) and what failing
   * saves have not written yet.
   */
  private saveOnExit(): void {
    const running = this.running;
    if (running) {
      const reply = this.session.conversation.messages.find((m) => m.id === running.messageId);
      if (reply?.status === 'streaming') {
        reply.status = 'interrupted';
        reply.notice = INTERRUPTED_NOTICE;
      }
      running.controller.abort();
    }
    // Also when saves were failing: the last chance to keep what the retries have not written yet.
    if (running || this.session.saveFailing) {
      this.session.saveSync();
    }
  }
}

/** The title of a conversation: its first prompt, or the label of its first context. */
function titleFrom(text: string, context: ContextItem[]): string {
  const line = text.trim() ? text : context[0] ? vscode.l10n.t('About {0}', context[0].label) : '';
  return titleFor(line);
}
