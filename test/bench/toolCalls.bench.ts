import { performance } from 'node:perf_hooks';
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
import { syntheticStream } from './sse.bench';

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

/**
 * A plain reply (10 MB of prose and code blocks, no call) read as the provider reads it, with and without the call
 * parser, alternating, the median of each; and the tools message's estimated tokens for VS Code's 40 Agent-mode
 * tools in both forms.
 */
export async function run(): Promise<BenchFigure[]> {
  const { chunks } = syntheticStream('standard');
  const plain: number[] = [];
  const parsed: number[] = [];
  await withoutParser(chunks);
  await withParser(chunks);
  for (let i = 0; i < ROUNDS; i++) {
    plain.push(await timed(() => withoutParser(chunks)));
    parsed.push(await timed(() => withParser(chunks)));
  }
  const ratio = median(plain) / median(parsed);
  const compact = estimateTokens(encodeTools(AGENT_MODE_TOOLS, 'compact'));
  const full = estimateTokens(encodeTools(AGENT_MODE_TOOLS, 'full'));
  return [
    {
      name: 'plain reply through the call parser (throughput vs the provider without it)',
      value: `${ratio.toFixed(2)}× (${median(parsed).toFixed(0)} ms vs ${median(plain).toFixed(0)} ms for 10 MB)`,
      target: `≥ ${TARGET}×`,
      pass: ratio >= TARGET,
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
