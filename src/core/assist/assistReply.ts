import type { TrimRecord } from '../chat/conversation/conversation';
import { buildRequest } from '../chat/request/requestBuilder';
import type { ChatRequest } from '../service/alphaClient';

/** Where an assistance command's reply comes from (the ALPHA client, or a fake in tests). */
export interface AssistReplySource {
  complete(request: ChatRequest, signal?: AbortSignal): Promise<string>;
  stream(request: ChatRequest, signal?: AbortSignal): AsyncIterable<string>;
}

/** How an assistance command asks. */
export interface AssistAsk {
  model: string;
  /** Stream the reply (else one piece). */
  stream: boolean;
  /** The repository's instructions: the request's first message, as in the chat. */
  instructions?: { message: string };
}

/** Called with the reply so far after each delta; returning a promise makes the stream wait for it. */
export type ReplyListener = (replySoFar: string) => void | Promise<void>;

/** An assistance command's reply. */
export interface AssistReply {
  text: string;
  /** What fitting the request to the model's context trimmed, in a sentence or a few (absent: nothing was). */
  notice?: string;
  /** The same as a record, kept with a reply shown in the chat. */
  trim?: TrimRecord;
}

/**
 * Sends one prompt to ALPHA after the repository's instructions (left out when they do not fit beside the prompt,
 * fitted by the chat's own builder) and collects the whole reply; `onDelta` sees it grow.
 */
export async function collectAssistReply(
  source: AssistReplySource,
  ask: AssistAsk,
  prompt: string,
  signal: AbortSignal,
  onDelta?: ReplyListener,
): Promise<AssistReply> {
  const { model } = ask;
  const built = buildRequest({ model, earlier: [], prompt: { content: prompt }, instructions: ask.instructions });
  const request = { model, messages: built.error ? [{ role: 'user' as const, content: prompt }] : built.messages };
  // What was trimmed goes with the reply, so each command can say it where it shows the answer (as the chat does).
  const trimmed = built.notice && built.trim ? { notice: built.notice, trim: built.trim } : {};
  if (!ask.stream) {
    const text = await source.complete(request, signal);
    await onDelta?.(text);
    return { text, ...trimmed };
  }
  let text = '';
  for await (const delta of source.stream(request, signal)) {
    text += delta;
    await onDelta?.(text);
    if (signal.aborted) {
      break;
    }
  }
  return { text, ...trimmed };
}
