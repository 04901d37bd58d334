import type { ChatMessage } from './chatContent';

/** Where the fake's stream must cut a reply: pieces of a reply joined by it are streamed one event each. */
export const PIECE_BREAK = '\u0000';

/** The marker line of a call, as the tools message teaches it. */
const MARKER = '```tool_call\n';

/** The scripted agent's modes, named by `#agent:MODE` in the prompt. */
export const AGENT_MODES = ['call', 'two', 'split', 'fix', 'broken'] as const;

/** Whether a request carries the extension's tools message (a system message teaching the `tool_call` form). */
export function hasToolsMessage(messages: readonly ChatMessage[]): boolean {
  return messages.some(
    (m) => m.role === 'system' && m.content.startsWith('You can call tools') && m.content.includes(MARKER),
  );
}

/** The tools the tools message lists (compact form: `name(`…; full form: `{"name":"…"`). */
export function listedTools(messages: readonly ChatMessage[]): string[] {
  const message = messages.find((m) => m.role === 'system' && m.content.startsWith('You can call tools'));
  const text = message?.content ?? '';
  const compact = [...text.matchAll(/^([A-Za-z_][\w-]*)\(/gm)].map((m) => m[1]);
  const full = [...text.matchAll(/^\{"name":"([^"]+)"/gm)].map((m) => m[1]);
  return [...compact, ...full];
}

/** The directive `#args:B64` that gives the scripted call's arguments (base64url of their JSON). */
export function argsDirective(args: unknown): string {
  return `#args:${Buffer.from(JSON.stringify(args), 'utf8').toString('base64url')}`;
}

/**
 * The scripted agent: when a request carries the tools message, it answers like a model that follows it. The last
 * prompt (the last user message that is neither a tool result nor the extension's retry request) names a mode with
 * `#agent:MODE`, the tool with `#tool:NAME` (default `create_file` when listed, else the first tool listed) and the
 * arguments with `#args:B64` (default `{}`). Each directive may start with `%` instead of `#`: VS Code's own chat
 * takes `#name` for one of its references and rewrites it.
 * - `call`: a sentence, then the call; `two`: two calls in one reply;
 * - `split`: one call for every position of the marker line, each streamed cut at that position;
 * - `fix`: a call with broken JSON, then, asked again, the right call; `broken`: broken JSON both times.
 * When the last message is a tool result, it answers with text that quotes the result. Undefined otherwise.
 */
export function agentReply(messages: readonly ChatMessage[]): string | undefined {
  if (!hasToolsMessage(messages)) {
    return undefined;
  }
  const last = messages.at(-1);
  if (last?.role === 'user' && last.content.startsWith('Result of ')) {
    return resultReply(last.content);
  }
  const prompt = [...messages]
    .reverse()
    .find((m) => m.role === 'user' && !m.content.startsWith('Result of ') && !isRetry(m.content));
  const mode = /[#%]agent:(\w+)/.exec(prompt?.content ?? '')?.[1];
  if (!mode || !prompt) {
    return undefined;
  }
  const tools = listedTools(messages);
  const name =
    /[#%]tool:([\w-]+)/.exec(prompt.content)?.[1] ?? (tools.includes('create_file') ? 'create_file' : tools[0]);
  const b64 = /[#%]args:([A-Za-z0-9_-]+)/.exec(prompt.content)?.[1];
  const args: unknown = b64 ? JSON.parse(Buffer.from(b64, 'base64url').toString('utf8')) : {};
  const call = `${MARKER}${JSON.stringify({ name, arguments: args })}\n\`\`\`\n`;
  const broken = `${MARKER}{"name": "${name}", "arguments": {oops}}\n\`\`\`\n`;
  const retried = last?.role === 'user' && isRetry(last.content);
  switch (mode) {
    case 'call':
      return `I will call ${name}.\n\n${call}`;
    case 'two':
      return `Two calls:\n\n${call}${call}`;
    case 'split':
      return splitReply(call);
    case 'fix':
      return retried ? call : `Calling ${name}.\n\n${broken}`;
    case 'broken':
      return retried ? broken : `Calling ${name}.\n\n${broken}`;
    default:
      return `Unknown agent mode ${mode}; the modes are ${AGENT_MODES.join(', ')}.`;
  }
}

function isRetry(content: string): boolean {
  return content.startsWith('Your last tool call could not be read');
}

/** One copy of the call per position of its marker line, each cut there (pieces joined by `PIECE_BREAK`). */
function splitReply(call: string): string {
  const pieces: string[] = [];
  for (let at = 1; at < MARKER.length; at++) {
    pieces.push(`Cut at ${at}:\n${call.slice(0, at)}`, call.slice(at));
  }
  return pieces.join(PIECE_BREAK);
}

/** Text that quotes a tool result: its heading and the first lines of its body. */
function resultReply(content: string): string {
  const [heading, ...rest] = content.split('\n');
  const body = rest.slice(1, -1).join('\n').slice(0, 400);
  const named = /^Result of (\S+)/.exec(heading)?.[1] ?? 'the tool';
  return `The ${named} tool answered:\n\n${body
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n')}\n\nDone.`;
}
