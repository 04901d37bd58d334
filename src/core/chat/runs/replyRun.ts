import { INTERRUPTED_NOTICE, newId, type Conversation, type StoredMessage } from '../conversation/conversation';
import type { ChatStateOptions, ReplySettings } from './chatStateTypes';
import type { GroundingResult } from '../request/grounding';
import type { Citation } from '../../service/normalize';
import { requestFor, type BuiltRequest } from '../request/requestBuilder';
import { sendablePath } from '../conversation/compaction';
import { runReply, storedError } from './replyRunner';
import { chatToolsMessage, DEFAULT_CALLS_PER_REPLY, runToolLoop } from '../tools/toolLoop';
import { toolsMessageTokens } from '../request/requestBudget';
import type { ChatTool, ToolStep } from '../tools/chatTool';

/** The reply being written: the one representation of "a reply is running". */
interface Running {
  requestId: number;
  messageId: string;
  controller: AbortController;
  /** Settles once the reply has ended, been told and been saved; never rejects. */
  done: Promise<void>;
}

/** What a reply is written with instead of the current settings: a queued prompt's model and grounding. */
export interface ReplyOverrides {
  model?: string;
  groundWithAxo?: boolean;
}

/**
 * The chat's one running reply: starting it (the request fitted to the context, grounded when asked), writing it,
 * telling the pages, saving, and stopping it. A reply runs outside the chat's operation queue once it has started,
 * so a later operation (or Stop) can stop it.
 */
export class ReplyRun {
  private running: Running | undefined;
  private nextRequestId = 1;
  /** Another window changed the conversation while a reply streamed here, or the reply got sources: redraw at its end. */
  private redrawAfterReply = false;
  private disposed = false;
  /** The tokens of the grounding the last grounded request sent (the gauge's estimate of the next one's). */
  groundingTokens = 0;
  /** The tools message's estimate for the tools last asked about (by their names). */
  private toolsEstimate = { key: '', tokens: 0 };

  constructor(private readonly options: ChatStateOptions) {}

  /** The running reply, if any. */
  get current(): { requestId: number; messageId: string } | undefined {
    const running = this.running;
    return running && { requestId: running.requestId, messageId: running.messageId };
  }

  /**
   * Adds the reply to the conversation (its last message is a prompt) and starts writing it, with what fitting its
   * request to the context trimmed kept and shown with it (see requestBuilder.ts), and `overrides` (a queued
   * prompt's model and grounding) over the settings. The reply is running when this returns;
   * `reply` settles when it has ended (it rejects when the pages could not be told, after the reply was ended).
   * Wrapped in an object: an operation that returned the promise itself would hold the queue until the reply
   * ended, and the next operation, which stops it, would wait for it forever.
   */
  begin(mode: 'append' | 'redraw', createdAt = Date.now(), overrides: ReplyOverrides = {}): { reply: Promise<void> } {
    const conversation = this.options.holder.conversation;
    const current = this.options.settings();
    const settings = overrides.model ? { ...current, model: overrides.model } : current;
    const grounded =
      this.options.ground !== undefined &&
      (overrides.groundWithAxo ?? conversation.groundWithAxo ?? settings.groundByDefault);
    const sendable = sendablePath(conversation);
    const fit = requestFor(sendable.messages, settings.model, {
      instructions: this.options.instructions?.(),
      summary: sendable.summary,
    });
    // A grounded request is fitted again once AXO has answered: its trims are told then, once.
    const trimmed = grounded ? {} : { notice: fit.notice, trim: fit.trim };
    const reply: StoredMessage = {
      id: newId(),
      role: 'assistant',
      content: '',
      createdAt,
      status: 'streaming',
      model: settings.model,
      ...(trimmed.notice ? { notice: trimmed.notice } : {}),
      ...(trimmed.trim ? { trim: trimmed.trim } : {}),
    };
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
    // The lookup starts before the pages are told and the request is built, so it runs while they are prepared.
    const lookup = grounded ? this.options.ground?.(user.content, running.controller.signal) : undefined;
    const turn = { running, conversation, user, reply };
    const written = this.respond(turn, mode, lookup, fit, settings).finally(() => {
      // Also when the reply could not start (the pages could not be told): nothing may stay "replying".
      this.end(running);
      finish();
    });
    return { reply: written };
  }

  /** Stops the running reply (with a `requestId`, only that one) and waits until it has ended and been saved. */
  async stop(requestId?: number): Promise<void> {
    const running = this.running;
    if (!running || (requestId !== undefined && running.requestId !== requestId)) {
      return;
    }
    running.controller.abort();
    await running.done;
  }

  /** Another window changed the conversation shown: true when a reply runs (the pages redraw at its end). */
  deferRedraw(): boolean {
    if (!this.running) {
      return false;
    }
    this.redrawAfterReply = true;
    return true;
  }

  /**
   * The extension is going away: the running reply is aborted and what arrived of it is marked interrupted (it
   * comes back so after a reload). Returns whether a reply was running (its conversation must be saved now).
   */
  dispose(): boolean {
    this.disposed = true;
    const running = this.running;
    if (!running) {
      return false;
    }
    const reply = this.options.holder.conversation.messages.find((m) => m.id === running.messageId);
    if (reply?.status === 'streaming') {
      reply.status = 'interrupted';
      reply.notice = INTERRUPTED_NOTICE;
    }
    if (reply?.steps?.some((step) => step.status === 'running')) {
      // Nothing resumes after a reload: a step cut short comes back stopped.
      for (const step of reply.steps) {
        step.status = step.status === 'running' ? 'stopped' : step.status;
      }
      reply.steps = [...reply.steps];
    }
    running.controller.abort();
    return true;
  }

  private async respond(
    turn: { running: Running; conversation: Conversation; user: StoredMessage; reply: StoredMessage },
    mode: 'append' | 'redraw',
    lookup: Promise<GroundingResult> | undefined,
    fit: BuiltRequest,
    settings: ReplySettings,
  ): Promise<void> {
    const { listener, holder, log } = this.options;
    const { running, conversation, user, reply } = turn;
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
    const onDelta = (text: string) => {
      listener.replyDelta(requestId, text);
      holder.scheduleSave();
    };
    const tools = this.toolsFor(conversation, settings);
    if (request.error) {
      reply.status = 'error';
      reply.error = storedError(request.error, Date.now());
    } else if (tools.length) {
      await runToolLoop({
        source: this.options.source,
        model: settings.model,
        stream: settings.stream,
        // Not fitted again: the request was fitted with its trims told; the tools message rides in the reply's reserve.
        messages: request.messages,
        tools,
        maxCalls: settings.toolCallsPerReply ?? DEFAULT_CALLS_PER_REPLY,
        reply,
        signal: running.controller.signal,
        confirm: this.options.confirm ?? (() => Promise.resolve(false)),
        listener: {
          text: onDelta,
          stepStarted: (step) => this.tellStep(requestId, step),
          stepChanged: (step, sources) => this.tellStep(requestId, step, sources),
        },
      });
    } else {
      await runReply({
        source: this.options.source,
        request: { model: settings.model, messages: request.messages },
        stream: settings.stream,
        reply,
        signal: running.controller.signal,
        onDelta,
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
  ): Promise<BuiltRequest> {
    const result = await lookup;
    const sendable = sendablePath(
      conversation,
      conversation.messages.filter((m) => m !== reply),
    );
    const fit = requestFor(sendable.messages, model, {
      instructions: this.options.instructions?.(),
      summary: sendable.summary,
      grounding: result.kind === 'grounded' ? result : undefined,
    });
    this.groundingTokens = fit.parts.grounding;
    const notes = [result.kind === 'cancelled' ? undefined : result.note, fit.notice].filter(Boolean);
    reply.notice = notes.length ? notes.join(' ') : undefined;
    if (fit.trim) {
      reply.trim = fit.trim;
    }
    if (result.kind === 'grounded' && result.sources.length) {
      reply.sources = [...result.sources];
    }
    this.redrawAfterReply = true;
    return fit;
  }

  /** The estimate of the tools message a reply in `conversation` would carry now (0: it may use no tool). */
  toolsTokens(conversation: Conversation, settings: ReplySettings): number {
    const tools = this.toolsFor(conversation, settings);
    const key = tools.map((t) => t.spec.name).join(' ');
    if (key !== this.toolsEstimate.key) {
      this.toolsEstimate = { key, tokens: tools.length ? toolsMessageTokens(chatToolsMessage(tools)) : 0 };
    }
    return this.toolsEstimate.tokens;
  }

  /**
   * The tools a reply may call: those the toolbox offers at the conversation's access (else the setting's), when
   * tool calling is on; none otherwise, and the reply is written exactly as without tools.
   */
  private toolsFor(conversation: Conversation, settings: ReplySettings): readonly ChatTool[] {
    const access = conversation.toolAccess ?? settings.toolAccess ?? 'none';
    if (!settings.toolCalling || access === 'none' || !this.options.toolbox) {
      return [];
    }
    return this.options.toolbox.tools(access);
  }

  /** Tells the pages a step as it stands now (a copy: the reply goes on changing it), and saves soon. */
  private tellStep(requestId: number, step: ToolStep, sources?: readonly Citation[]): void {
    if (this.disposed) {
      return;
    }
    this.options.listener.replyStep?.(requestId, { ...step }, sources);
    this.options.holder.scheduleSave();
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
}
