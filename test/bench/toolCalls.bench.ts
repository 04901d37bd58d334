import { performance } from 'node:perf_hooks';
import { readContentDeltas } from '../../src/core/service/sse';
import { estimateTokens } from '../../src/core/service/tokenEstimate';
import { CallParser } from '../../src/core/toolCalls/callParser';
import { encodeTools } from '../../src/core/toolCalls/toolEncoder';
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
      name: `tools message, ${AGENT_MODE_TOOLS.length} Agent-mode tools`,
      value: `compact ${compact.toLocaleString('en')} tokens, full ${full.toLocaleString('en')} (${(compact / full).toFixed(2)}×)`,
      target: '< 0.5× of full',
      pass: compact < full / 2,
    },
  ];
}
