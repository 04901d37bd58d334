import * as l10n from '@vscode/l10n';
import type { ChatMessage } from '../service/alphaClient';
import { describeError, type ServiceError } from '../service/errors';
import type { Logger } from '../logger';
import { estimateTokens } from '../service/tokenEstimate';
import { fitAttachments } from './attachments';
import { leavePath, newVersionTime, switchBranch } from './branches';
import { estimateMessagesTokens, fitToContext } from './contextBudget';
import {
  INTERRUPTED_NOTICE,
  newId,
  titleFor,
  type ContextItem,
  type Conversation,
  type StoredMessage,
} from './conversation';
import type { ConversationSummary } from './store/conversationStore';
import { fitGroundedToContext } from './groundedBudget';
import type { GroundingResult } from './grounding';
import { contextTokensOf } from './modelLineup';
import { requestMessages } from './promptMessages';
import { runReply, storedError, type ReplySource } from './replyRunner';

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
}

/** What the chat tells its pages. Each call comes after the state changed; an awaited one is awaited in order. */
export interface ChatStateListener {
  /** A prompt and its reply were added; the reply streams next (deltas follow only once this has settled). */
  replyStarted(requestId: number, user: StoredMessage, reply: StoredMessage): Promise<void>;
  replyDelta(requestId: number, text: string): void;
  /** The running reply got a notice (the grounding's note, a trim of the context). */
  replyNotice(requestId: number, notice: string): void;
  /** The reply ended: done, stopped or failed (its `status` and `error` say which). */
  replyEnded(requestId: number, reply: StoredMessage): void;
  /** The conversation shown changed as a whole (a switch, an edit, a merge): draw it again, with the list. */
  conversationChanged(): Promise<void>;
  /** Only the list of conversations changed. */
  listChanged(): Promise<void>;
  /** A reply started (true) or ended (false). */
  streamingChanged(streaming: boolean): void;
}

/** What the chat state is built on. */
export interface ChatStateOptions {
  holder: ConversationHolder;
  source: ReplySource;
  settings: () => ReplySettings;
  /** Asks AXO for a grounded reply's sources (absent: grounding is unavailable and stays off). */
  ground?: (prompt: string, signal: AbortSignal) => Promise<GroundingResult>;
  listener: ChatStateListener;
  log: Logger;
}

/** The longest title a rename keeps. */
export const MAX_TITLE_LENGTH = 200;

/** The reply being written: the one representation of "a reply is running". */
interface Running {
  requestId: number;
  messageId: string;
  controller: AbortController;
  /** Settles once the reply has ended, been told and been saved; never rejects. */
  done: Promise<void>;
}

/** The estimate of the next request. */
export interface Budget {
  usedTokens: number;
  limitTokens: number;
}

/**
 * The chat's state, apart from VS Code: the conversation shown (through its holder), the running reply, and every
 * operation on them: send, record, regenerate, edit, new, switch, delete, stop.
 *
 * Operations run one at a time, in the order asked (`serial`), so a switch cannot read a conversation a send is
 * still changing, and a prompt sent during a switch lands in the conversation switched to. An operation first stops
 * the running reply and waits until it has ended and been saved. A reply runs outside the queue once it has
 * started, so a later operation (or Stop) can stop it. Stop is not queued: it acts on the reply running now.
 */
export class ChatState {
  private running: Running | undefined;
  private nextRequestId = 1;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly loaded: Promise<void>;
  /** Another window changed the conversation while a reply streamed here, or the reply got sources: redraw at its end. */
  private redrawAfterReply = false;
  private disposed = false;
  /** What fitting the last prompt's attachments trimmed, for its reply's notice. */
  private trimNotice: string | undefined;
  private readonly subscription: { dispose(): void };

  constructor(private readonly options: ChatStateOptions) {
    const { holder, log } = options;
    this.loaded = holder.init().catch((error: unknown) => log.error(`Chat: ${describeError(error)}`));
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
    const running = this.running;
    return running && { requestId: running.requestId, messageId: running.messageId };
  }

  /** Settles once the conversation shown last has been loaded. */
  whenLoaded(): Promise<void> {
    return this.loaded;
  }

  /** The conversations, newest first. */
  list(): Promise<ConversationSummary[]> {
    return this.options.holder.list();
  }

  /** Sends a prompt with the pending context (and `extra`); settles when its reply has ended. */
  async send(text: string, extra: ContextItem[] = []): Promise<void> {
    const started = await this.serial(async () => {
      await this.halt();
      return this.addPrompt(text, extra) ? this.begin('append') : undefined;
    });
    await started?.reply;
  }

  /**
   * Adds a prompt with the pending context and a reply already received for it (an assistance command's reply
   * without code): shown and kept like any answer, without asking ALPHA (and paying) again.
   */
  record(text: string, replyText: string): Promise<void> {
    return this.serial(async () => {
      await this.halt();
      if (!this.addPrompt(text, [])) {
        return;
      }
      this.trimNotice = undefined;
      const conversation = this.conversation;
      conversation.messages.push({
        id: newId(),
        role: 'assistant',
        content: replyText,
        createdAt: Date.now(),
        status: 'done',
        model: this.options.settings().model,
      });
      conversation.updatedAt = Date.now();
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
      const conversation = this.conversation;
      const messages = conversation.messages;
      const index =
        messageId === undefined
          ? messages.at(-1)?.role === 'assistant'
            ? messages.length - 1
            : messages.length
          : messages.findIndex((m) => m.id === messageId && m.role === 'assistant');
      if (index < 1 || messages[index - 1].role !== 'user') {
        return undefined;
      }
      const old = messages[index];
      const at = newVersionTime(conversation, index);
      if (old && index === messages.length - 1 && !old.content.trim()) {
        messages.pop();
      } else {
        leavePath(conversation, index);
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
      const conversation = this.conversation;
      const messages = conversation.messages;
      const index = messages.findIndex((m) => m.id === messageId && m.role === 'user');
      if (index < 0 || (!text.trim() && !messages[index].context?.length)) {
        return undefined;
      }
      const edited: StoredMessage = {
        ...messages[index],
        id: newId(),
        content: text,
        createdAt: newVersionTime(conversation, index),
      };
      // A title the first prompt gave follows its new version; one the user gave stays.
      const autoTitle = index === 0 && hasPromptTitle(conversation);
      leavePath(conversation, index);
      messages.push(edited);
      if (autoTitle) {
        conversation.title = titleFrom(text, edited.context ?? []);
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
        conversation.title = titleFrom(shown.content, shown.context ?? []);
      }
      await this.options.holder.saveNow();
      await this.options.listener.conversationChanged();
      return true;
    });
  }

  /** Starts an empty conversation (the running reply stops). */
  newConversation(): Promise<void> {
    return this.serial(async () => {
      await this.halt();
      await this.options.holder.startNew();
      await this.options.listener.conversationChanged();
    });
  }

  /** Shows another conversation (the running reply stops); false when it could not be read (the list is redrawn). */
  switchTo(id: string): Promise<boolean> {
    return this.serial(async () => {
      await this.halt();
      const ok = await this.options.holder.switchTo(id);
      await this.options.listener.conversationChanged();
      return ok;
    });
  }

  /**
   * Deletes a conversation; deleting the one shown stops its reply and shows a new one. Returns what was deleted,
   * for Undo ({@link restore}); undefined when it could not be read (it is deleted all the same).
   */
  delete(id: string): Promise<Conversation | undefined> {
    return this.serial(async () => {
      if (id === this.conversation.id) {
        await this.halt();
      }
      const removed = await this.options.holder.read(id);
      const copy = removed && structuredClone(removed);
      await this.options.holder.delete(id);
      await this.options.listener.conversationChanged();
      return copy;
    });
  }

  /**
   * Brings a deleted conversation back (Undo). When the deleted one was shown and nothing was written since (the
   * new conversation it left is still empty), it is shown again.
   */
  restore(conversation: Conversation): Promise<void> {
    return this.serial(async () => {
      const holder = this.options.holder;
      await holder.add(structuredClone(conversation));
      if (this.conversation.messages.length === 0 && !this.running) {
        await holder.switchTo(conversation.id);
        await this.options.listener.conversationChanged();
      } else {
        await this.options.listener.listChanged();
      }
    });
  }

  /** Renames a conversation (blank titles are refused: false); the one shown is redrawn with its new title. */
  rename(id: string, title: string): Promise<boolean> {
    return this.serial(async () => {
      const clean = titleFor(title, MAX_TITLE_LENGTH);
      if (!clean) {
        return false;
      }
      const ok = await this.options.holder.update(id, (c) => {
        c.title = clean;
      });
      await (id === this.conversation.id
        ? this.options.listener.conversationChanged()
        : this.options.listener.listChanged());
      return ok;
    });
  }

  /** Pins a conversation to the top of the list, or unpins it. */
  setPinned(id: string, pinned: boolean): Promise<boolean> {
    return this.serial(async () => {
      const ok = await this.options.holder.update(id, (c) => {
        if (pinned) {
          c.pinned = true;
        } else {
          delete c.pinned;
        }
      });
      await this.options.listener.listChanged();
      return ok;
    });
  }

  /**
   * Copies a conversation under a new id ("… (copy)", not pinned, in the workspace of the original) and shows the
   * copy; the one shown stops its reply first, so the copy holds a finished history. Returns the copy's id.
   */
  duplicate(id: string): Promise<string | undefined> {
    return this.serial(async () => {
      await this.halt();
      const holder = this.options.holder;
      const original = await holder.read(id);
      if (!original) {
        return undefined;
      }
      const now = Date.now();
      const copy: Conversation = {
        ...structuredClone(original),
        id: newId(),
        title: l10n.t('{0} (copy)', original.title || l10n.t('New conversation')),
        createdAt: now,
        updatedAt: now,
      };
      delete copy.pinned;
      await holder.add(copy);
      await holder.switchTo(copy.id);
      await this.options.listener.conversationChanged();
      return copy.id;
    });
  }

  /** The "Ground with AXO" toggle: remembered by the conversation shown from now on. */
  setGround(on: boolean): Promise<void> {
    return this.serial(async () => {
      this.conversation.groundWithAxo = on;
      this.options.holder.scheduleSave();
    });
  }

  /** Whether "Ground with AXO" is on for the conversation shown. */
  get groundWithAxo(): boolean {
    return this.conversation.groundWithAxo ?? this.options.settings().groundByDefault;
  }

  /**
   * Stops the running reply now (not queued: it acts on the reply running when it is asked) and waits until it
   * has ended and been saved. With a `requestId`, only that reply.
   */
  async stop(requestId?: number): Promise<void> {
    const running = this.running;
    if (!running || (requestId !== undefined && running.requestId !== requestId)) {
      return;
    }
    running.controller.abort();
    await running.done;
  }

  /** Adds context chips for the next prompt (the same label and content only once). */
  addContext(items: readonly ContextItem[]): void {
    const pending = this.options.holder.pending;
    for (const item of items) {
      if (!pending.some((p) => p.label === item.label && p.content === item.content)) {
        pending.push(item);
      }
    }
  }

  /** Drops a context chip. */
  removeContext(id: string): void {
    const holder = this.options.holder;
    holder.pending = holder.pending.filter((p) => p.id !== id);
  }

  /** The estimate of the next request: the conversation so far plus the pending context. */
  budget(): Budget {
    const history = estimateMessagesTokens(requestMessages(this.conversation.messages));
    const pending = this.pending.reduce((sum, c) => sum + estimateTokens(c.content) + 8, 0);
    return { usedTokens: history + pending, limitTokens: contextTokensOf(this.options.settings().model) };
  }

  /**
   * The extension is going away: the running reply is aborted, and what arrived of it is saved at once, marked
   * interrupted (it comes back so after a reload), with what failing saves have not written yet.
   */
  dispose(): void {
    if (this.disposed) {
      return;
    }
    this.disposed = true;
    this.subscription.dispose();
    const running = this.running;
    if (running) {
      const reply = this.conversation.messages.find((m) => m.id === running.messageId);
      if (reply?.status === 'streaming') {
        reply.status = 'interrupted';
        reply.notice = INTERRUPTED_NOTICE;
      }
      running.controller.abort();
    }
    if (running || this.options.holder.saveFailing) {
      try {
        this.options.holder.saveSync();
      } catch (error) {
        this.options.log.error(`Chat: could not save the conversation on exit: ${describeError(error)}`);
      }
    }
  }

  /** Runs `operation` once every operation asked for before it has settled (and the conversation is loaded). */
  private serial<T>(operation: () => Promise<T>): Promise<T> {
    const result = this.queue.then(async () => {
      await this.loaded;
      return operation();
    });
    this.queue = result.catch(() => undefined);
    return result;
  }

  /** Stops the running reply and waits until it has ended. */
  private async halt(): Promise<void> {
    const running = this.running;
    if (running) {
      running.controller.abort();
      await running.done;
    }
  }

  /** Adds a prompt with the pending context (and `extra`); false when there is nothing to add. */
  private addPrompt(text: string, extra: readonly ContextItem[]): boolean {
    const holder = this.options.holder;
    const context = [...holder.pending, ...extra];
    if (!text.trim() && context.length === 0) {
      return false;
    }
    holder.pending = [];
    const conversation = holder.conversation;
    const user: StoredMessage = { id: newId(), role: 'user', content: text, createdAt: Date.now() };
    if (context.length) {
      // Attachments the context has no room for are trimmed, and the reply says which (never dropped silently).
      const limit = contextTokensOf(this.options.settings().model);
      const used = estimateMessagesTokens(requestMessages(conversation.messages)) + estimateTokens(text) + 16;
      const fit = fitAttachments(context, limit - Math.min(8192, limit / 8) - used);
      user.context = fit.items;
      this.trimNotice = fit.notice;
    }
    conversation.messages.push(user);
    if (!conversation.title) {
      conversation.title = titleFrom(text, context);
    }
    return true;
  }

  /**
   * Adds the reply to the conversation (its last message is a prompt) and starts writing it. The reply is running
   * when this returns; `reply` settles when it has ended (it rejects when the pages could not be told, after the
   * reply was ended). Wrapped in an object: an operation that returned the promise itself would hold the queue
   * until the reply ended, and the next operation, which stops it, would wait for it forever.
   */
  private begin(mode: 'append' | 'redraw', createdAt = Date.now()): { reply: Promise<void> } {
    const conversation = this.conversation;
    const settings = this.options.settings();
    const fit = fitToContext(requestMessages(conversation.messages), settings.model);
    const reply: StoredMessage = {
      id: newId(),
      role: 'assistant',
      content: '',
      createdAt,
      status: 'streaming',
      model: settings.model,
      notice: [this.trimNotice, fit.notice].filter(Boolean).join(' ') || undefined,
    };
    this.trimNotice = undefined;
    const user = conversation.messages.at(-1) as StoredMessage;
    conversation.messages.push(reply);
    conversation.updatedAt = Date.now();
    let finish: () => void = () => undefined;
    const running: Running = {
      requestId: this.nextRequestId++,
      messageId: reply.id,
      controller: new AbortController(),
      done: new Promise<void>((resolve) => (finish = resolve)),
    };
    this.running = running;
    this.options.listener.streamingChanged(true);
    const grounded = this.options.ground && (conversation.groundWithAxo ?? settings.groundByDefault);
    // The lookup starts before the pages are told and the request is built, so it runs while they are prepared.
    const lookup = grounded ? this.options.ground?.(user.content, running.controller.signal) : undefined;
    const written = this.respond(running, conversation, user, reply, mode, lookup, fit, settings).finally(() => {
      // Also when the reply could not start (the pages could not be told): nothing may stay "replying".
      this.end(running);
      finish();
    });
    return { reply: written };
  }

  private async respond(
    running: Running,
    conversation: Conversation,
    user: StoredMessage,
    reply: StoredMessage,
    mode: 'append' | 'redraw',
    lookup: Promise<GroundingResult> | undefined,
    fit: { error?: ServiceError; messages: ChatMessage[] },
    settings: ReplySettings,
  ): Promise<void> {
    const { listener, holder, log } = this.options;
    const { requestId } = running;
    if (mode === 'append') {
      await listener.replyStarted(requestId, user, reply);
    } else {
      await listener.conversationChanged();
    }
    const request = lookup ? await this.groundedRequest(lookup, conversation, reply, settings.model) : fit;
    if (lookup && reply.notice) {
      listener.replyNotice(requestId, reply.notice);
    }
    holder.scheduleSave();
    if (request.error) {
      reply.status = 'error';
      reply.error = storedError(request.error, Date.now());
    } else {
      await runReply({
        source: this.options.source,
        request: { model: settings.model, messages: request.messages },
        stream: settings.stream,
        reply,
        signal: running.controller.signal,
        onDelta: (text) => {
          listener.replyDelta(requestId, text);
          holder.scheduleSave();
        },
      });
    }
    this.end(running);
    if (this.disposed) {
      return;
    }
    if (reply.status === 'error' && reply.error) {
      log.warn(`Chat: the reply failed: ${reply.error.message}`);
    }
    listener.replyEnded(requestId, reply);
    await holder.saveNow();
    if (this.redrawAfterReply && !this.running) {
      this.redrawAfterReply = false;
      await listener.conversationChanged();
      return;
    }
    await listener.listChanged();
  }

  /**
   * The request with AXO's grounding in the last prompt, fitted to the context; the reply keeps the sources and
   * says every trim, or why it was answered without sources. The pages redraw after the reply to show them.
   */
  private async groundedRequest(
    lookup: Promise<GroundingResult>,
    conversation: Conversation,
    reply: StoredMessage,
    model: string,
  ): Promise<{ error?: ServiceError; messages: ChatMessage[] }> {
    const result = await lookup;
    const stored = conversation.messages.filter((m) => m !== reply);
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

  /** The reply is no longer running: told once. */
  private end(running: Running): void {
    if (this.running !== running) {
      return;
    }
    this.running = undefined;
    if (!this.disposed) {
      this.options.listener.streamingChanged(false);
    }
  }

  /** Another window changed the conversation shown or the list. */
  private async onExternalChange(change: ExternalChange): Promise<void> {
    if (change.conversation && this.running) {
      // A page draws a streaming reply as the last message; mid-reply it keeps streaming and is redrawn at the end.
      this.redrawAfterReply = true;
    } else if (change.conversation) {
      await this.options.listener.conversationChanged();
      return;
    }
    if (change.list) {
      await this.options.listener.listChanged();
    }
  }
}

/** Whether the title is the one the first prompt gave (not one the user gave): it then follows that prompt's version. */
function hasPromptTitle(conversation: Conversation): boolean {
  const first = conversation.messages[0];
  return first !== undefined && conversation.title === titleFrom(first.content, first.context ?? []);
}

/** The title of a conversation: its first prompt, or the label of its first context. */
export function titleFrom(text: string, context: readonly ContextItem[]): string {
  const line = text.trim() ? text : context[0] ? l10n.t('About {0}', context[0].label) : '';
  return titleFor(line);
}
