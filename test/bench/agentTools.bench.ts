import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { EncyclopediaStore } from '../../src/core/encyclopedia/encyclopediaStore';
import { silentLogger } from '../../src/core/logger';
import { AxoToolRunner } from '../../src/core/mcp/axoToolRunner';
import { startMcpHttpServer } from '../../src/core/mcp/mcpHttpServer';
import { HttpClient } from '../../src/core/net/http';
import { AxoClient } from '../../src/core/service/axoClient';
import { startFakeService } from '../fakeService/fakeService';
import { median, type BenchFigure } from './benchFigure';

const WARM_UP = 30;
const ROUNDS = 41;
const TARGET_RATIO = 1.2;

/**
 * A tool call against a bare `AxoClient` call, in one process against the in-process fake: the tool's path is what
 * `invoke()` of VS Code's tool runs (`AxoToolRunner.run`: input check, the encyclopedia store's lookup for tools,
 * the result text), with the cache's TTL at 0 so every call reaches the service as the bare call does. Beside it,
 * the same call through the MCP server of the extension host over loopback (the SDK's client, Streamable HTTP, the
 * token checked). Rounds alternate which goes first; figures are medians.
 */
export async function run(): Promise<BenchFigure[]> {
  const fake = await startFakeService({ tokenDelayMs: 0 });
  const http = new HttpClient(() => ({ timeoutMs: 10_000, proxy: { strictSSL: true, noProxy: [] } }), silentLogger);
  const ctx = {
    http,
    baseUrl: () => fake.url,
    keys: async (kind: 'chat' | 'encyclopedia') => (kind === 'encyclopedia' ? fake.axoKey : undefined),
    log: silentLogger,
  };
  const axo = new AxoClient(ctx);
  const store = new EncyclopediaStore({ client: axo, ttlMs: () => 0 });
  const runner = new AxoToolRunner({
    lookup: (request, signal) => store.lookupForTool(request, signal),
    model: () => 'axo',
    keyAdvice: 'the command “AXO: Set Encyclopedia API Key”',
  });
  const server = await startMcpHttpServer({ runner, version: 'bench', log: silentLogger });
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(server.url), {
      requestInit: { headers: { Authorization: `Bearer ${server.token}` } },
    }) as Transport,
  );
  // The machine's own loopback HTTP, for the MCP figure: a bare `fetch` POST to a server that answers `{}` at once.
  const trivial = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.end('{}'));
  });
  await new Promise<void>((resolve) => trivial.listen(0, '127.0.0.1', resolve));
  const trivialUrl = `http://127.0.0.1:${(trivial.address() as AddressInfo).port}/`;
  const plainFetch = async () => (await fetch(trivialUrl, { method: 'POST', body: '{}' })).text();
  const signal = new AbortController().signal;
  const time = async (work: () => Promise<unknown>): Promise<number> => {
    const started = performance.now();
    await work();
    return performance.now() - started;
  };
  const bare = () => axo.search('Turing machine');
  const tool = async () => {
    const outcome = await runner.run('axo_search', { query: 'Turing machine' }, signal);
    if (outcome.isError) {
      throw new Error(outcome.text);
    }
  };
  const mcp = () => client.callTool({ name: 'axo_search', arguments: { query: 'Turing machine' } });

  try {
    for (let i = 0; i < WARM_UP; i++) {
      await bare();
      await tool();
      await mcp();
      await plainFetch();
    }
    const ratios: number[] = [];
    const bareMs: number[] = [];
    const toolMs: number[] = [];
    const mcpMs: number[] = [];
    const fetchMs: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const order = i % 2 === 0 ? ([bare, tool] as const) : ([tool, bare] as const);
      const first = await time(order[0]);
      const second = await time(order[1]);
      const [b, t] = i % 2 === 0 ? [first, second] : [second, first];
      bareMs.push(b);
      toolMs.push(t);
      ratios.push(t / b);
      mcpMs.push(await time(mcp));
      fetchMs.push(await time(plainFetch));
    }
    const ratio = median(ratios);
    const ms = (values: number[]) => `${(median(values) * 1000).toFixed(0)} µs`;
    return [
      {
        name: 'agent tool call / bare AxoClient.search (median of round ratios)',
        value: `${ratio.toFixed(2)} (tool ${ms(toolMs)}, bare ${ms(bareMs)})`,
        target: `≤ ${TARGET_RATIO}`,
        pass: ratio <= TARGET_RATIO,
      },
      {
        name: 'MCP round trip over loopback (SDK client → in-host server → fake), median',
        value: `${ms(mcpMs)} (${(median(mcpMs) / median(bareMs)).toFixed(2)}× the bare call)`,
      },
      {
        name: "bare fetch POST to a trivial loopback server (this machine's loopback HTTP), median",
        value: ms(fetchMs),
      },
    ];
  } finally {
    await client.close();
    await server.close();
    await new Promise((resolve) => trivial.close(resolve));
    await http.dispose();
    await fake.close();
  }
}
