import type { ReplySettings } from './chatStateTypes';
import type { OrganiseContext } from './organise';
import {
  newId,
  type ContextItem,
  type Conversation,
  type QueuedPrompt,
  type QueuePart,
} from '../conversation/conversation';
import {
  adoptWaiting,
  claimPrompt,
  MAX_QUEUED,
  ownPart,
  queueEntries,
  type QueueEntry,
} from '../conversation/queuedPrompts';

/** What the queue asks of the chat state it belongs to. */
export interface QueueHost extends OrganiseContext {
  settings: () => ReplySettings;
  /** This window's id (see QueuePart.owner). */
  owner: string;
  /** Runs an operation in the chat's operation queue. */
  serial<T>(operation: () => Promise<T>): Promise<T>;
  /** Adds a queued prompt to the conversation shown and starts its reply (undefined: nothing to send). */
  start(prompt: QueuedPrompt): { reply: Promise<void> } | undefined;
}

/**
 * The prompt queue of the conversation shown, as this window runs it: a prompt sent while a reply streams waits
 * here with its context, grounding and model, and goes when the reply before it has ended well. Stop, a failed
 * reply, a switch and a reload leave the queue waiting until the user resumes it: nothing billed is sent unasked.
 * Every change happens in the chat's operation queue, except `pause` (Stop acts at once, as Stop does).
 */
export class PromptQueue {
  constructor(private readonly host: QueueHost) {}

  /** The queued prompts of the conversation shown, in order, as this window sees them. */
  entries(): QueueEntry[] {
    return queueEntries(this.host.holder.conversation, this.host.owner);
  }

  /** Whether a prompt sent now waits its turn: queueing is on, and a reply is running (or this window's queue is). */
  accepts(): boolean {
    if (this.host.settings().queuePrompts !== true) {
      return false;
    }
    const part = this.part();
    return this.host.replying() || (part?.running === true && part.prompts.length > 0);
  }

  /**
   * Queues a prompt with the pending context chips (they go with it, not with the next prompt) and `extra`, the
   * conversation's grounding and the model chosen now; false when there is nothing to send or the queue is full
   * (then the chips stay pending).
   */
  add(text: string, extra: readonly ContextItem[] = []): boolean {
    const { holder } = this.host;
    const conversation = holder.conversation;
    const context = [...holder.pending, ...extra];
    if ((!text.trim() && context.length === 0) || this.entries().length >= MAX_QUEUED) {
      return false;
    }
    holder.pending = [];
    const settings = this.host.settings();
    const part = ownPart(conversation, this.host.owner);
    part.prompts.push({
      id: newId(),
      text,
      ...(context.length ? { context: [...context] } : {}),
      groundWithAxo: conversation.groundWithAxo ?? settings.groundByDefault,
      model: settings.model,
      queuedAt: Date.now(),
    });
    part.running = true;
    this.changed(part);
    return true;
  }

  /** Changes a queued prompt's text; false when it is not one this window may change (or the text is empty). */
  edit(id: string, text: string): Promise<boolean> {
    return this.host.serial(async () => {
      const found = claimPrompt(this.host.holder.conversation, this.host.owner, id);
      if (!found || (!text.trim() && !found.prompt.context?.length)) {
        return false;
      }
      found.prompt.text = text;
      this.changed(found.part);
      return true;
    });
  }

  /** Takes a prompt out of the queue; false when it is not one this window may change. */
  remove(id: string): Promise<boolean> {
    return this.host.serial(async () => {
      const found = claimPrompt(this.host.holder.conversation, this.host.owner, id);
      if (!found) {
        return false;
      }
      this.drop(found.part, found.prompt);
      this.changed(found.part);
      return true;
    });
  }

  /** "Send now": stops the running reply and sends this prompt; the rest keep their turn. Settles when it ended. */
  async sendNow(id: string): Promise<void> {
    const started = await this.host.serial(async () => {
      const found = claimPrompt(this.host.holder.conversation, this.host.owner, id);
      if (!found) {
        return undefined;
      }
      this.drop(found.part, found.prompt);
      this.changed(found.part);
      await this.host.halt();
      return this.host.start(found.prompt);
    });
    await started?.reply;
  }

  /** Runs the waiting queue (this window's, and any another window left waiting); settles when its first reply ended. */
  async resume(): Promise<void> {
    const started = await this.host.serial(async () => {
      const part = adoptWaiting(this.host.holder.conversation, this.host.owner);
      part.running = part.prompts.length > 0;
      this.changed(part);
      return this.host.replying() ? undefined : this.takeNext();
    });
    await started?.reply;
  }

  /** Stop: the queue waits (not queued: it acts on the queue as it is now). */
  pause(): void {
    const part = this.part();
    if (part?.running) {
      part.running = false;
      this.changed(part);
    }
  }

  /** The extension is going away: this window's queue waits from now on; true when that changed it (save it now). */
  onExit(): boolean {
    const part = this.part();
    if (!part?.running) {
      return false;
    }
    part.running = false;
    part.changedAt = Date.now();
    return true;
  }

  /**
   * A reply in `conversation` ended: when it was done and this window's queue runs, the next prompt goes; when it
   * failed, the queue waits (the user sees why, and resumes). A stopped reply changes nothing (Stop paused already;
   * an edit or "Send now" that stopped it starts another reply, and the queue goes on after that one).
   */
  afterReply(conversation: Conversation, messageId: string | undefined): void {
    const part = this.part();
    if (conversation !== this.host.holder.conversation || !part?.running || !part.prompts.length) {
      return;
    }
    const status = conversation.messages.find((m) => m.id === messageId)?.status;
    if (status === 'error') {
      part.running = false;
      this.changed(part);
    } else if (status === 'done') {
      void this.host
        .serial(async () => (this.host.replying() ? undefined : this.takeNext()))
        .then((started) => started?.reply)
        .catch(() => undefined);
    }
  }

  /** Starts this window's next queued prompt, if its queue runs (called in the operation queue, with no reply). */
  private takeNext(): { reply: Promise<void> } | undefined {
    const part = this.part();
    const prompt = part?.running ? part.prompts[0] : undefined;
    if (!part || !prompt) {
      return undefined;
    }
    this.drop(part, prompt);
    this.changed(part);
    return this.host.start(prompt);
  }

  /** Takes `prompt` out of `part`; an emptied part no longer runs. */
  private drop(part: QueuePart, prompt: QueuedPrompt): void {
    part.prompts = part.prompts.filter((p) => p !== prompt);
    if (part.prompts.length === 0) {
      part.running = false;
    }
  }

  private part(): QueuePart | undefined {
    return this.host.holder.conversation.queue?.find((p) => p.owner === this.host.owner);
  }

  private changed(part: QueuePart): void {
    part.changedAt = Date.now();
    this.host.holder.scheduleSave();
    this.host.listener.queueChanged?.();
  }
}
