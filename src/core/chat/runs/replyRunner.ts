import type { ChatRequest, UsageListener } from '../../service/alphaClient';
import { estimateTokens } from '../../service/tokenEstimate';
import type { TokenUsage } from '../../service/usage';
import { estimateMessagesTokens } from '../request/contextBudget';
import { ServiceError, describeError, isAbortError } from '../../service/errors';
import type { StoredError, StoredMessage } from '../conversation/conversation';
import { TimingRecorder } from './replyTiming';

/** What a reply is written by: the ALPHA client, or a fake in tests. */
export interface ReplySource {
  stream(request: ChatRequest, signal?: AbortSignal, onUsage?: UsageListener): AsyncGenerator<string, void, undefined>;
  complete(request: ChatRequest, signal?: AbortSignal, onUsage?: UsageListener): Promise<string>;
}

/** How a reply ended. */
export type ReplyOutcome = { status: 'done' | 'stopped' } | { status: 'error'; error: StoredError };

/** What running a reply needs. */
export interface RunReplyOptions {
  source: ReplySource;
  request: ChatRequest;
  /** Stream token by token (`alphaAxo.chat.stream`), or ask for the whole reply at once. */
  stream: boolean;
  /** The reply message, filled in place: `content` grows, `status` and `error` are set at the end. */
  reply: StoredMessage;
  signal: AbortSignal;
  /** Called with each piece as it arrives (already appended to `reply.content`). */
  onDelta(text: string): void;
  now?: () => number;
  /** A monotonic clock in milliseconds, that the reply's timing spans are measured on (performance.now by default). */
  clock?: () => number;
}

/**
 * Writes one reply into `reply`. An abort (Stop, a new prompt, a closed window) ends it quietly as `stopped`,
 * keeping what arrived; a failure keeps what arrived too and records the error (a cut stream's error says
 * "The reply was cut off"). The reply keeps its timing: sent now, its first piece of text, its end. Never throws.
 */
export async function runReply(options: RunReplyOptions): Promise<ReplyOutcome> {
  let reported: TokenUsage | undefined;
  const { reply } = options;
  const timing = new TimingRecorder((t) => (reply.timing = t), options.clock, (options.now ?? Date.now)());
  const onDelta = (text: string) => {
    timing.token();
    options.onDelta(text);
  };
  try {
    return await writeReply({ ...options, onDelta }, (usage) => (reported = usage));
  } finally {
    timing.end();
    keepUsage(options, reported);
  }
}

/**
 * Keeps the reply's token usage with it: the service's report when it sent one, else the estimate of the request
 * and of what arrived (none for a reply that got no text and no report: nothing was written, nothing billed).
 */
function keepUsage(options: RunReplyOptions, reported: TokenUsage | undefined): void {
  const { reply, request } = options;
  if (reported) {
    reply.usage = { ...reported, reported: true };
  } else if (reply.content) {
    reply.usage = { input: estimateMessagesTokens(request.messages), output: estimateTokens(reply.content) };
  }
}

async function writeReply(options: RunReplyOptions, onUsage: UsageListener): Promise<ReplyOutcome> {
  const { source, request, reply, signal, onDelta } = options;
  const now = options.now ?? Date.now;
  reply.status = 'streaming';
  try {
    if (options.stream) {
      for await (const delta of source.stream(request, signal, onUsage)) {
        if (signal.aborted) {
          break;
        }
        if (delta) {
          reply.content += delta;
          onDelta(delta);
        }
      }
    } else {
      const text = await source.complete(request, signal, onUsage);
      if (!signal.aborted && text) {
        reply.content += text;
        onDelta(text);
      }
    }
    if (!signal.aborted && !reply.content) {
      throw new ServiceError('badResponse', 'The service sent an empty reply.', { keyKind: 'chat' });
    }
    return { status: settle(reply, signal.aborted ? 'stopped' : 'done') };
  } catch (error) {
    if (signal.aborted || isAbortError(error)) {
      return { status: settle(reply, 'stopped') };
    }
    const stored = storedError(error, now());
    reply.status = 'error';
    reply.error = stored;
    return { status: 'error', error: stored };
  }
}

/**
 * Ends a reply that is still `streaming` with `status`. A reply whose status was settled elsewhere while the stream
 * wound down (marked `interrupted` because the window is closing) keeps it; the outcome then says `stopped`.
 */
export function settle(reply: StoredMessage, status: 'done' | 'stopped'): 'done' | 'stopped' {
  if (reply.status === 'streaming') {
    reply.status = status;
    return status;
  }
  return 'stopped';
}

/** An error as kept with a reply: the ServiceError's plain data, or a readable sentence for anything else. */
export function storedError(error: unknown, at: number): StoredError {
  if (error instanceof ServiceError) {
    return { ...error.toInfo(), at };
  }
  return { kind: 'badResponse', message: describeError(error), action: 'retry', at };
}
