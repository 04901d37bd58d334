import type { ChatMessage } from '../../service/alphaClient';
import { ServiceError, isAbortError } from '../../service/errors';
import type { Citation } from '../../service/normalize';
import { encodeTools } from '../../toolCalls/toolEncoder';
import { RESULT_BUDGET } from '../../toolCalls/toolHistory';
import { runToolReply } from '../../toolCalls/toolReply';
import { fitRequest } from '../../toolCalls/toolRequest';
import type { StoredMessage } from '../conversation/conversation';
import { settle, storedError, type ReplyOutcome, type ReplySource } from '../runs/replyRunner';
import { TimingRecorder } from '../runs/replyTiming';
import type { ChatTool, ToolRunContext, ToolStep } from './chatTool';
import { RequestMeter } from './requestMeter';
import { runStep } from './stepRun';
import { ToolRound, type RoundCall } from './toolRound';

/** The most tool calls one reply runs when the settings do not say (`alphaAxo.chat.toolCallsPerReply`). */
export const DEFAULT_CALLS_PER_REPLY = 8;

/** The most tool calls one reply may run, whatever it is given (the setting's maximum). */
export const MAX_CALLS_PER_REPLY = 25;

/** How many steps a reply keeps past the calls it may run (refused ones); later calls stay in its text. */
export const MAX_REFUSED_STEPS = 10;

/** What a reply with tools tells while it is written. Each call comes after the reply changed. */
export interface ToolLoopListener {
  /** A piece of the reply's text (already appended to its content). */
  text(delta: string): void;
  /** A step was written (running, or refused at once). */
  stepStarted(step: ToolStep): void;
  /** A step ran, failed, was refused or stopped; `sources`: the reply's sources, when the step added to them. */
  stepChanged(step: ToolStep, sources?: readonly Citation[]): void;
}

/** What one reply of our chat with tools needs. */
export interface ToolLoopOptions {
  source: ReplySource;
  model: string;
  /** Stream token by token, or ask for each request's whole reply at once. */
  stream: boolean;
  /** The request as fitted for the reply; the tools message goes in after its leading system messages. */
  messages: ChatMessage[];
  /** The tools the conversation's access allows (none: use `runReply`). */
  tools: readonly ChatTool[];
  /** The most calls one reply may run (at most MAX_CALLS_PER_REPLY); then ALPHA is asked to answer with what it has. */
  maxCalls: number;
  /** The most tokens the first request may hold with the tools message: older turns go first (absent: no limit). */
  maxTokens?: number;
  /** The most characters of one result ALPHA is sent (and the step keeps). */
  resultBudget?: number;
  /** The reply, filled in place: `content`, `steps`, `sources`, `usage`, `requests`, `timing`, `status`, `error`. */
  reply: StoredMessage;
  /** Stop: aborts the request or the tool running, and nothing more is asked. */
  signal: AbortSignal;
  /** Asks the user a yes/no question for a tool (a secret-looking file). */
  confirm: ToolRunContext['confirm'];
  listener: ToolLoopListener;
  now?: () => number;
  clock?: () => number;
}

/**
 * Writes one reply of our chat with tools into `reply`: text goes in as it comes; each call ALPHA writes becomes a
 * step at the reply's length so far; after the request the calls run in order, each with its result recorded, and
 * ALPHA is asked again with the calls and their results added, until it answers without calling. At most `maxCalls`
 * calls run: later ones are refused, and ALPHA is told with the results to answer with what it has (nothing more is
 * asked after that). Stop ends it at any point, a running step as `stopped`; a failure keeps the text and steps so
 * far and records the error. Every request is billed: the reply adds up their tokens and counts them. Never throws.
 */
export async function runToolLoop(options: ToolLoopOptions): Promise<ReplyOutcome> {
  const { reply, signal } = options;
  const steps: ToolStep[] = [...(reply.steps ?? [])];
  const timing = new TimingRecorder((t) => (reply.timing = t), options.clock, (options.now ?? Date.now)());
  const meter = new RequestMeter();
  reply.status = 'streaming';
  try {
    await rounds(
      options,
      steps,
      meter.streamFrom(options.source, options.model, options.stream, () => timing.token()),
    );
    if (!signal.aborted && !reply.content && !steps.length) {
      throw new ServiceError('badResponse', 'The service sent an empty reply.', { keyKind: 'chat' });
    }
    return { status: settle(reply, signal.aborted ? 'stopped' : 'done') };
  } catch (error) {
    if (signal.aborted || isAbortError(error)) {
      return { status: settle(reply, 'stopped') };
    }
    const stored = storedError(error, (options.now ?? Date.now)());
    reply.status = 'error';
    reply.error = stored;
    return { status: 'error', error: stored };
  } finally {
    stopRunning(steps, options.listener);
    publish(reply, steps);
    timing.end();
    const usage = meter.usage();
    if (usage) {
      reply.usage = usage;
    }
    if (meter.requests) {
      reply.requests = meter.requests;
    }
  }
}

/** The requests of the reply, one round each, until ALPHA answers without calling, the cap's answer, or Stop. */
async function rounds(
  options: ToolLoopOptions,
  steps: ToolStep[],
  stream: ReturnType<RequestMeter['streamFrom']>,
): Promise<void> {
  const { reply, signal, listener } = options;
  const maxCalls = Math.max(0, Math.min(MAX_CALLS_PER_REPLY, Math.floor(options.maxCalls) || 0));
  const specs = options.tools.map((t) => t.spec);
  const tools = new Map(options.tools.map((t) => [t.spec.name, t]));
  const budget = options.resultBudget ?? RESULT_BUDGET;
  const toolsMessage = chatToolsMessage(options.tools);
  let messages = fitRequest(options.messages, toolsMessage, options.maxTokens ?? Infinity).messages;
  const sources = new SourceList(reply);
  let ran = 0;
  let last = false;
  while (!signal.aborted) {
    const room = { left: last ? 0 : maxCalls - ran, max: maxCalls, steps: maxCalls + MAX_REFUSED_STEPS };
    const round = new ToolRound(reply, steps, tools, room, {
      text: (delta) => listener.text(delta),
      stepStarted: (step) => {
        publish(reply, steps);
        listener.stepStarted(step);
      },
    });
    await runToolReply(stream, messages, specs, round.sink, signal);
    if (signal.aborted || last || !round.calls.length) {
      return;
    }
    for (const call of round.calls) {
      if (call.runs && !signal.aborted) {
        ran++;
        await runCall(call, options, budget);
        publish(reply, steps);
        listener.stepChanged(call.step, sources.add(call.step.sources));
      }
    }
    if (signal.aborted) {
      return;
    }
    last = ran >= maxCalls;
    messages = [...messages, ...round.nextMessages(budget, last)];
  }
}

/** Runs one call and keeps the whole result for ALPHA (the step keeps it cut to the budget). */
async function runCall(call: RoundCall, options: ToolLoopOptions, budget: number): Promise<void> {
  const tool = call.tool as ChatTool;
  call.sent = await runStep(tool, call.step, { signal: options.signal, confirm: options.confirm }, budget);
}

/** Steps still running when the reply ends (stopped, failed or torn down) end as `stopped`, told once each. */
function stopRunning(steps: readonly ToolStep[], listener: ToolLoopListener): void {
  for (const step of steps) {
    if (step.status === 'running') {
      step.status = 'stopped';
      listener.stepChanged(step);
    }
  }
}

/**
 * The reply's steps as a new array: a save re-encodes a message only when one of its fields is another value (see
 * conversationEncoder.ts), and a reply keeps at most `maxCalls + MAX_REFUSED_STEPS` steps, so this stays cheap.
 */
function publish(reply: StoredMessage, steps: readonly ToolStep[]): void {
  if (steps.length || reply.steps) {
    reply.steps = [...steps];
  }
}

/** The reply's numbered sources, to which each step's sources are added once (by URL, else by title). */
class SourceList {
  private readonly seen = new Set<string>();

  constructor(private readonly reply: StoredMessage) {
    for (const source of reply.sources ?? []) {
      this.seen.add(sourceKey(source));
    }
  }

  /** Adds the new ones; returns the reply's sources when any was added. */
  add(sources: readonly Citation[] | undefined): readonly Citation[] | undefined {
    const fresh = (sources ?? []).filter((s) => {
      const key = sourceKey(s);
      const known = this.seen.has(key);
      this.seen.add(key);
      return !known;
    });
    if (!fresh.length) {
      return undefined;
    }
    this.reply.sources = [...(this.reply.sources ?? []), ...fresh];
    return this.reply.sources;
  }
}

/** The key by which a step's sources join the reply's (by URL, else by title); the pages number them by it too. */
export function sourceKey(source: Citation): string {
  return source.url ? `url:${source.url}` : `title:${source.title.trim().toLowerCase()}`;
}

/** The tools message a reply with these tools carries in each of its requests. */
export function chatToolsMessage(tools: readonly ChatTool[]): string {
  return encodeTools(tools.map((t) => t.spec));
}
