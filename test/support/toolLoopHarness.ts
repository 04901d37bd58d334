/* A service and tools for the tool loop's tests: scripted replies per request, tools that record their calls. */
import type { ChatRequest, UsageListener } from '../../src/core/service/alphaClient';
import type { TokenUsage } from '../../src/core/service/usage';
import type { ReplySource } from '../../src/core/chat/runs/replyRunner';
import type { ChatTool, ToolResult, ToolRunContext } from '../../src/core/chat/tools/chatTool';

/** A call block as ALPHA writes it. */
export function callBlock(name: string, args: unknown): string {
  return `\`\`\`tool_call\n${JSON.stringify({ name, arguments: args })}\n\`\`\`\n`;
}

/** What a scripted request does: its reply, and what happens after which piece. */
export interface ScriptedReply {
  text: string;
  /** Characters per piece (default 7). */
  piece?: number;
  /** After this many pieces: wait for the abort (`hold`), or throw `fail`. */
  at?: number;
  hold?: boolean;
  fail?: Error;
  /** The usage the service reports for it. */
  report?: TokenUsage;
}

/**
 * A service that answers each request with the next scripted reply, a few characters a piece, and records the
 * requests. A request past the script answers with an empty reply.
 */
export class ScriptedService implements ReplySource {
  readonly requests: ChatRequest[] = [];
  /** Called when a request waits for the abort (the test can stop it then). */
  onHold: () => void = () => undefined;

  constructor(private readonly script: ScriptedReply[]) {}

  async *stream(request: ChatRequest, signal?: AbortSignal, onUsage?: UsageListener): AsyncGenerator<string> {
    this.requests.push(request);
    const reply = this.script[this.requests.length - 1] ?? { text: '' };
    if (reply.report) {
      onUsage?.(reply.report);
    }
    const size = reply.piece ?? 7;
    let count = 0;
    for (let i = 0; i <= reply.text.length; i += size) {
      if (count === reply.at) {
        if (reply.fail) {
          throw reply.fail;
        }
        if (reply.hold) {
          this.onHold();
          await aborted(signal);
        }
      }
      if (signal?.aborted || i >= reply.text.length) {
        return;
      }
      count++;
      yield reply.text.slice(i, i + size);
      await Promise.resolve();
    }
  }

  complete(request: ChatRequest, _signal?: AbortSignal, onUsage?: UsageListener): Promise<string> {
    this.requests.push(request);
    const reply = this.script[this.requests.length - 1] ?? { text: '' };
    if (reply.report) {
      onUsage?.(reply.report);
    }
    return Promise.resolve(reply.text);
  }
}

/** Settles when `signal` aborts (at once when it has). */
export function aborted(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (!signal || signal.aborted) {
      resolve();
      return;
    }
    signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

/** A tool whose run the test writes; it records every input it ran with. */
export class FakeTool implements ChatTool {
  readonly runs: Record<string, unknown>[] = [];
  readonly spec;

  constructor(
    name: string,
    private readonly answer: (input: Record<string, unknown>, context: ToolRunContext) => Promise<ToolResult>,
    readonly kind: ChatTool['kind'] = 'read',
  ) {
    this.spec = {
      name,
      description: `The ${name} tool.`,
      inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    };
  }

  title(input: Record<string, unknown>): string {
    return `Read \`${String(input.path)}\``;
  }

  run(input: Record<string, unknown>, context: ToolRunContext): Promise<ToolResult> {
    this.runs.push(input);
    return this.answer(input, context);
  }
}

/** A read tool that answers with the file's name and `text`. */
export function readTool(text = 'hello'): FakeTool {
  return new FakeTool('read_file', (input) =>
    Promise.resolve({ status: 'done', text: `${String(input.path)}: ${text}` }),
  );
}
