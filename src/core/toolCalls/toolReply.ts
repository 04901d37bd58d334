import * as l10n from '@vscode/l10n';
import type { ChatMessage } from '../service/alphaClient';
import { CALL_INFO } from './callForm';
import { CallParser } from './callParser';
import type { CallProblem, ToolCall, ToolSpec } from './toolSpec';

/** Streams one reply's text for the given messages; stops quietly when `signal` aborts. */
export type ReplyStream = (messages: ChatMessage[], signal: AbortSignal) => AsyncIterable<string>;

/** What a reply with tools reports, in the order it was written. */
export interface ToolReplySink {
  text(text: string): void;
  call(call: ToolCall): void;
}

/** How a reply with tools went. */
export interface ToolReplyOutcome {
  /** A call could not be read and ALPHA was asked once more. */
  retried: boolean;
  /** What was wrong with a call the retry did not mend (its text was shown as written). */
  failed?: CallProblem;
}

/**
 * Runs one reply with tools: text goes to the sink as it comes, each call once it is whole and checked. When a call
 * cannot be read, the reply is stopped there and ALPHA is asked once more, within the same response, with what it
 * wrote and what was wrong; if that reply's call fails too, its text is shown as written with one sentence saying
 * the call could not be read. `signal` ends everything at any point, a held call included (nothing more is told).
 */
export async function runToolReply(
  stream: ReplyStream,
  messages: ChatMessage[],
  tools: readonly ToolSpec[],
  sink: ToolReplySink,
  signal: AbortSignal,
): Promise<ToolReplyOutcome> {
  const first = await attempt(stream, messages, tools, sink, signal, false);
  if (!first.problem || signal.aborted) {
    return { retried: false };
  }
  const retry: ChatMessage[] = [
    ...messages,
    { role: 'assistant', content: first.written + shownCall(first.raw) },
    { role: 'user', content: retryPrompt(first.problem) },
  ];
  const second = await attempt(stream, retry, tools, sink, signal, true);
  return { retried: true, failed: second.problem };
}

interface Attempt {
  written: string;
  problem?: CallProblem;
  raw: string;
}

async function attempt(
  stream: ReplyStream,
  messages: ChatMessage[],
  tools: readonly ToolSpec[],
  sink: ToolReplySink,
  signal: AbortSignal,
  last: boolean,
): Promise<Attempt> {
  const controller = new AbortController();
  const stop = (): void => controller.abort();
  signal.addEventListener('abort', stop, { once: true });
  const parser = new CallParser(tools);
  const result: Attempt = { written: '', raw: '' };
  // On the last try a failed call is shown as written and the reply goes on; before it, the reply stops there.
  const tell = (events: ReturnType<CallParser['feed']>): boolean => {
    for (const event of events) {
      if (signal.aborted) {
        return false;
      }
      if (event.type === 'text') {
        result.written += event.text;
        sink.text(event.text);
      } else if (event.type === 'call') {
        result.written += `${shownCall(event.raw)}\n`;
        sink.call(event.call);
      } else if (last) {
        result.problem ??= event.problem;
        sink.text(`${shownCall(event.raw)}\n\n${couldNotRead(event.problem)}\n\n`);
      } else {
        result.problem = event.problem;
        result.raw = event.raw;
        return false;
      }
    }
    return true;
  };
  try {
    for await (const delta of stream(messages, controller.signal)) {
      if (signal.aborted || !tell(parser.feed(delta))) {
        return result;
      }
    }
    if (!signal.aborted) {
      tell(parser.end());
    }
    return result;
  } finally {
    signal.removeEventListener('abort', stop);
    controller.abort();
  }
}

/** A call's text as written, in its block again (what a model reads back, or a user sees of a failed one). */
function shownCall(raw: string): string {
  return `\`\`\`${CALL_INFO}\n${raw.trim()}\n\`\`\``;
}

/** What ALPHA is told when its call could not be read (written for the model, so in English). */
export function retryPrompt(problem: CallProblem): string {
  return (
    `Your last tool call could not be read: ${problem.detail} ` +
    `Write that call again, correctly, as one ${CALL_INFO} block, and continue from there. ` +
    'Do not repeat the text before it.'
  );
}

/** The one sentence a user sees under a call that could not be read even on the second try. */
export function couldNotRead(problem: CallProblem): string {
  return l10n.t('The tool call above could not be read, so it was not run: {0}', problem.detail);
}
