import type { ChatMessage } from '../../service/alphaClient';
import { formatCall } from '../../toolCalls/callForm';
import { encodeHistory, type HistoryPart } from '../../toolCalls/toolHistory';
import type { ToolReplySink } from '../../toolCalls/toolReply';
import type { ToolCall } from '../../toolCalls/toolSpec';
import { newId, type StoredMessage } from '../conversation/conversation';
import type { ChatTool, ToolStep } from './chatTool';

/** A call ALPHA wrote in this round: its step, the id ALPHA is told, and whether it may run. */
export interface RoundCall {
  step: ToolStep;
  /** The id the call's result names (`call_3`: the reply's third call). */
  callId: string;
  tool: ChatTool | undefined;
  /** False when the call was refused as it was written (over the cap); it is not run. */
  runs: boolean;
  /** What goes back to ALPHA, whole (the encoder cuts it to the budget and says so); the step keeps the cut text. */
  sent?: string;
}

/** What a round tells as it is written: the reply's text (already appended) and each step as it is written. */
export interface RoundHooks {
  text(delta: string): void;
  stepStarted(step: ToolStep): void;
}

/**
 * One request of a reply with tools and what ALPHA wrote in it: the text goes into the reply as it comes, each call
 * becomes a step at the reply's length so far (running, or refused at once when the reply may run no more calls).
 * The calls run after the round, in order (the tools message tells ALPHA to stop after its calls); then
 * {@link ToolRound.nextMessages} gives what the next request adds: the round as ALPHA wrote it and the results.
 */
export class ToolRound {
  readonly calls: RoundCall[] = [];
  private readonly parts: HistoryPart[] = [];
  private text: string[] = [];
  private running = 0;

  constructor(
    private readonly reply: StoredMessage,
    /** The reply's steps so far; this round's are added to it. */
    private readonly steps: ToolStep[],
    private readonly tools: ReadonlyMap<string, ChatTool>,
    /**
     * How many more calls may run in this reply, the most a reply may run (for the refusal's sentence), and the most
     * steps a reply keeps: calls past it stay in the text as ALPHA wrote them, so a reply of thousands of calls
     * costs no more than its text.
     */
    private readonly room: { left: number; max: number; steps: number },
    private readonly hooks: RoundHooks,
  ) {}

  /** What the tool reply reports into. */
  readonly sink: ToolReplySink = {
    text: (delta) => this.addText(delta),
    call: (call) => this.addCall(call),
  };

  /**
   * The messages the next request adds: the round as ALPHA wrote it (its calls in the call form), then one message
   * with every call's result, each headed with the call it answers and cut to `budget` characters; with `last`, that
   * message also tells ALPHA it may call no more tools and should answer with what it has.
   */
  nextMessages(budget: number, last: boolean): ChatMessage[] {
    this.flushText();
    const results: HistoryPart[] = this.calls.map((c) => ({
      kind: 'result',
      callId: c.callId,
      items: [{ kind: 'text', text: c.sent ?? c.step.result ?? '' }],
    }));
    const messages = encodeHistory(
      [
        { role: 'assistant', parts: this.parts },
        { role: 'user', parts: results },
      ],
      budget,
    );
    const tail = messages.at(-1);
    if (last && tail?.role === 'user') {
      tail.content += `\n\n${capNote(this.room.max)}`;
    }
    return messages;
  }

  private addText(delta: string): void {
    this.reply.content += delta;
    this.text.push(delta);
    this.hooks.text(delta);
  }

  private addCall(call: ToolCall): void {
    if (this.steps.length >= this.room.steps) {
      this.addText(`${formatCall(call.name, call.input)}\n`);
      return;
    }
    this.flushText();
    const tool = this.tools.get(call.name);
    const ordinal = this.steps.length + 1;
    const callId = `call_${ordinal}`;
    this.parts.push({ kind: 'call', callId, name: call.name, input: call.input });
    const runs = tool !== undefined && this.running < this.room.left;
    this.running += runs ? 1 : 0;
    const step: ToolStep = {
      id: newId(),
      tool: call.name,
      input: call.input,
      title: titleOf(tool, call),
      status: runs ? 'running' : 'refused',
      offset: this.reply.content.length,
    };
    if (!runs) {
      step.result = tool ? overCap(this.room.max) : `There is no tool named ${call.name} in this conversation.`;
    }
    this.steps.push(step);
    this.calls.push({ step, callId, tool, runs });
    this.hooks.stepStarted(step);
  }

  private flushText(): void {
    if (this.text.length) {
      this.parts.push({ kind: 'text', text: this.text.join('') });
      this.text = [];
    }
  }
}

/** The step's title from its tool; a tool whose title fails is named as ALPHA called it. */
function titleOf(tool: ChatTool | undefined, call: ToolCall): string {
  try {
    const title = tool?.title(call.input);
    if (typeof title === 'string' && title.trim()) {
      return title;
    }
  } catch {
    // The name below says enough; the step's result will say how the call went.
  }
  return `\`${call.name}\``;
}

/** A call over the cap, as ALPHA and the step are told. */
export function overCap(max: number): string {
  return `Not run: this reply has already made the ${max} tool ${max === 1 ? 'call' : 'calls'} it may make.`;
}

/** What ALPHA is told with the results once the reply has made all the calls it may. */
export function capNote(max: number): string {
  return (
    `You have made the ${max} tool ${max === 1 ? 'call' : 'calls'} this reply may make: call no more tools, ` +
    'and answer now with what you have.'
  );
}
