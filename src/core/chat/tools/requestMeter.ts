import type { ChatMessage, UsageListener } from '../../service/alphaClient';
import { estimateTokens } from '../../service/tokenEstimate';
import type { ReplyUsage, TokenUsage } from '../../service/usage';
import type { ReplyStream } from '../../toolCalls/toolReply';
import { estimateMessagesTokens } from '../request/contextBudget';
import type { ReplySource } from '../runs/replyRunner';

/** One request of a reply: what the service reported, else what was sent and what arrived (for the estimate). */
interface Metered {
  messages: readonly ChatMessage[];
  pieces: string[];
  reported?: TokenUsage;
}

/**
 * Counts the requests a reply with tools makes (each tool round trip, and the retry of a call that could not be
 * read, is another billed request) and adds up their tokens: the service's report where it sent one, else the
 * estimate of the request and of what arrived, as a reply without tools keeps its usage (replyRunner.ts). A request
 * that got no text and no report counts for nothing: nothing was written, nothing billed.
 */
export class RequestMeter {
  private readonly metered: Metered[] = [];

  /**
   * The stream the tool reply reads, through `source`: token by token (`stream`), or the whole reply at once.
   * `onText` hears every piece as it arrives (the reply's timing).
   */
  streamFrom(source: ReplySource, model: string, stream: boolean, onText: () => void): ReplyStream {
    const meter = this.metered;
    return async function* (messages: ChatMessage[], signal: AbortSignal): AsyncGenerator<string, void, undefined> {
      const request: Metered = { messages, pieces: [] };
      meter.push(request);
      const onUsage: UsageListener = (usage) => (request.reported = usage);
      const body = { model, messages };
      if (!stream) {
        const text = await source.complete(body, signal, onUsage);
        if (text && !signal.aborted) {
          request.pieces.push(text);
          onText();
          yield text;
        }
        return;
      }
      for await (const delta of source.stream(body, signal, onUsage)) {
        if (signal.aborted) {
          return;
        }
        if (delta) {
          request.pieces.push(delta);
          onText();
          yield delta;
        }
      }
    };
  }

  /** The requests that were billed: those that got text or a usage report. */
  get requests(): number {
    return this.metered.filter(billed).length;
  }

  /** The reply's tokens over all its requests; `reported` only when the service reported every one. Undefined: none. */
  usage(): ReplyUsage | undefined {
    const counted = this.metered.filter(billed);
    if (!counted.length) {
      return undefined;
    }
    let input = 0;
    let output = 0;
    for (const request of counted) {
      const usage = request.reported ?? {
        input: estimateMessagesTokens(request.messages),
        output: estimateTokens(request.pieces.join('')),
      };
      input += usage.input;
      output += usage.output;
    }
    return counted.every((r) => r.reported) ? { input, output, reported: true } : { input, output };
  }
}

function billed(request: Metered): boolean {
  return request.reported !== undefined || request.pieces.length > 0;
}
