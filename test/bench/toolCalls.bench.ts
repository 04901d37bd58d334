import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { AlphaClient, type ChatMessage } from '../../src/core/service/alphaClient';
import { HttpClient } from '../../src/core/net/http';
import { silentLogger } from '../../src/core/logger';
import { runToolReply } from '../../src/core/toolCalls/toolReply';
import { readContentDeltas } from '../../src/core/service/sse';
import { estimateTokens } from '../../src/core/service/tokenEstimate';
import { CallParser } from '../../src/core/toolCalls/callParser';
import { encodeTools } from '../../src/core/toolCalls/toolEncoder';
import { toolsMessageTokens } from '../../src/core/chat/request/requestBudget';
import { axoChatSpecs } from '../../src/core/chat/tools/axoChatTools';
import { allows, type ToolAccess, type ToolKind } from '../../src/core/chat/tools/chatTool';
import { WORKSPACE_TOOL_SPECS } from '../../src/core/chat/tools/workspaceToolSpecs';
import type { ToolSpec } from '../../src/core/toolCalls/toolSpec';
import { AGENT_MODE_TOOLS } from '../support/agentModeTools';
import { median, type BenchFigure } from './benchFigure';
import { codeStream } from './sse.bench';

const ROUNDS = 9;
const TARGET = 0.95;

async function* source(chunks: Uint8Array[]): AsyncGenerator<Uint8Array> {
  for (const chunk of chunks) {
    yield chunk;
  }
}

/** The provider's path without tools: bytes → content deltas. Returns characters of content. */
async function withoutParser(chunks: Uint8Array[]): Promise<number> {
  let length = 0;
  for await (const delta of readContentDeltas(source(chunks))) {
    length += delta.length;
  }
  return length;
}

/** The same with every delta through the call parser, as a reply with tools goes. */
async function withParser(chunks: Uint8Array[]): Promise<number> {
  const parser = new CallParser(AGENT_MODE_TOOLS);
  let length = 0;
  const count = (events: ReturnType<CallParser['feed']>): void => {
    for (const event of events) {
      length += event.type === 'text' ? event.text.length : 0;
    }
  };
  for await (const delta of readContentDeltas(source(chunks))) {
    count(parser.feed(delta));
  }
  count(parser.end());
  return length;
}

async function timed(work: () => Promise<number>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

/** What VS Code's `LanguageModelTextPart` is to the provider: a part made for each piece it reports. */
class TextPart {
  constructor(readonly value: string) {}
}

/** A local server that answers every request with `chunks`, an event stream, as fast as the socket takes them. */
async function serve(chunks: Uint8Array[]): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const chunk of chunks) {
        res.write(chunk);
      }
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/**
 * The language-model provider's two paths for one reply, from the socket to the parts it reports: without tools
 * each delta becomes a part (`alphaModelProvider.ts`); with tools the reply goes through `runToolReply`, whose
 * parser takes the calls out. VS Code's own cost of a reported part (its copy to the window) is not in either.
 */
function providerPaths(url: string): { plain: () => Promise<number>; tools: () => Promise<number> } {
  const http = new HttpClient(() => ({ timeoutMs: 60_000, proxy: { strictSSL: true, noProxy: [] } }), silentLogger);
  const alpha = new AlphaClient(
    { http, baseUrl: () => url, keys: async () => 'bench-key', log: silentLogger },
    () => 60_000,
  );
  const messages: ChatMessage[] = [{ role: 'user', content: 'Show me the parser.' }];
  const stream = (sent: ChatMessage[], signal: AbortSignal): AsyncIterable<string> =>
    alpha.stream({ model: 'alpha', messages: sent }, signal);
  return {
    plain: async () => {
      const parts: TextPart[] = [];
      for await (const delta of stream(messages, new AbortController().signal)) {
        parts.push(new TextPart(delta));
      }
      return parts.length;
    },
    tools: async () => {
      const parts: TextPart[] = [];
      const sink = { text: (text: string) => parts.push(new TextPart(text)), call: () => undefined };
      await runToolReply(stream, messages, AGENT_MODE_TOOLS, sink, new AbortController().signal);
      return parts.length;
    },
  };
}

/** The medians of `a` and `b`, run alternately `ROUNDS` times after one warm-up each. */
async function alternate(a: () => Promise<number>, b: () => Promise<number>): Promise<[number, number]> {
  const times: [number[], number[]] = [[], []];
  await a();
  await b();
  for (let i = 0; i < ROUNDS; i++) {
    times[0].push(await timed(a));
    times[1].push(await timed(b));
  }
  return [median(times[0]), median(times[1])];
}

/**
 * A plain reply with code (about 10 MB of events, `codeStream`, no call): through the provider with and without
 * tools, from a local socket to the parts it reports; then the same bytes through the reader alone, with and
 * without the parser, the parser's own share. Also the tools message's estimated tokens for VS Code's 40 Agent-mode
 * tools in both forms.
 */
export async function run(): Promise<BenchFigure[]> {
  const { chunks } = codeStream('standard');
  const { server, url } = await serve(chunks);
  let provider: [number, number];
  try {
    const paths = providerPaths(url);
    provider = await alternate(paths.plain, paths.tools);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
  const reader = await alternate(
    () => withoutParser(chunks),
    () => withParser(chunks),
  );
  const ratio = provider[0] / provider[1];
  const readerRatio = reader[0] / reader[1];
  const compact = estimateTokens(encodeTools(AGENT_MODE_TOOLS, 'compact'));
  const full = estimateTokens(encodeTools(AGENT_MODE_TOOLS, 'full'));
  return [
    {
      name: 'a plain reply through the provider with tools (throughput vs the provider without them)',
      value: `${ratio.toFixed(2)}× (${provider[1].toFixed(0)} ms vs ${provider[0].toFixed(0)} ms for 10 MB)`,
      target: `≥ ${TARGET}×`,
      pass: ratio >= TARGET,
    },
    {
      name: 'the same bytes through the reader alone, with the parser vs without (the parser’s own share)',
      value: `${readerRatio.toFixed(2)}× (${reader[1].toFixed(0)} ms vs ${reader[0].toFixed(0)} ms)`,
    },
    {
      name: 'our chat’s tools message by what ALPHA may use (the gauge’s “ALPHA’s tools”)',
      value: (['axo', 'read', 'edit'] as const).map((level) => `${level} ≈${chatToolsTokens(level)}`).join(', '),
    },
    {
      name: `tools message, ${AGENT_MODE_TOOLS.length} Agent-mode tools`,
      value: `compact ${compact.toLocaleString('en')} tokens, full ${full.toLocaleString('en')} (${(compact / full).toFixed(2)}×)`,
      target: '< 0.5× of full',
      pass: compact < full / 2,
    },
  ];
}

/** The estimate of our chat's tools message at `access` in a trusted workspace (the toolbox's tools, in its order). */
function chatToolsTokens(access: ToolAccess): string {
  const w = WORKSPACE_TOOL_SPECS;
  const tools: [ToolKind, ToolSpec][] = [
    ...axoChatSpecs().map((spec): [ToolKind, ToolSpec] => ['axo', spec]),
    ...[w.read_file, w.find_files, w.search_text, w.get_problems].map((spec): [ToolKind, ToolSpec] => ['read', spec]),
    ['edit', w.propose_edit],
  ];
  const specs = tools.filter(([kind]) => allows(access, kind)).map(([, spec]) => spec);
  return toolsMessageTokens(encodeTools(specs)).toLocaleString('en');
}
