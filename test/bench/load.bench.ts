import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { AlphaClient } from '../../src/core/service/alphaClient';
import { AxoClient } from '../../src/core/service/axoClient';
import type { KeyKind } from '../../src/core/service/errors';
import { HttpClient } from '../../src/core/net/http';
import { silentLogger } from '../../src/core/logger';
import { withDelayMonitor, type BenchFigure } from './benchFigure';

const P99_TARGET_MS = 100;

interface RunningFake {
  url: string;
  chatKey: string;
  axoKey: string;
  child: ChildProcess;
}

/** The fake service in its own process, so its work does not count against this process's event loop. */
async function startFakeProcess(): Promise<RunningFake> {
  const cli = join(__dirname, '..', 'fakeService', 'cli.js');
  const child = spawn(process.execPath, [cli, '--port', '0', '--token-delay-ms', '1'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const first = await new Promise<string>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the fake service exited (${code})`)));
    createInterface({ input: child.stdout! }).once('line', resolve);
  });
  return { ...(JSON.parse(first) as { url: string; chatKey: string; axoKey: string }), child };
}

function clients(fake: RunningFake) {
  const http = new HttpClient(() => ({ timeoutMs: 30_000, proxy: { strictSSL: true, noProxy: [] } }), silentLogger);
  const keys: Record<KeyKind, string> = { chat: fake.chatKey, encyclopedia: fake.axoKey };
  const ctx = { http, baseUrl: () => fake.url, keys: async (k: KeyKind) => keys[k], log: silentLogger };
  return { http, alpha: new AlphaClient(ctx, () => 30_000), axo: new AxoClient(ctx) };
}

async function stream(alpha: AlphaClient, prompt: string): Promise<number> {
  let length = 0;
  for await (const delta of alpha.stream({ model: 'alpha', messages: [{ role: 'user', content: prompt }] })) {
    length += delta.length;
  }
  return length;
}

/**
 * The extension's request path under load, against the fake service in another process on 127.0.0.1: 20 lookups and
 * 3 streamed chats at once, then one 5 MB streamed reply. The event loop's p99 delay during each is the figure
 * (target < 100 ms); an idle run of the same length in the same process is the baseline.
 */
export async function run(): Promise<BenchFigure[]> {
  const fake = await startFakeProcess();
  const { http, alpha, axo } = clients(fake);
  try {
    const topics = ['Alan Turing', 'Photosynthesis', 'TypeScript', 'AC/DC', 'Tom & Jerry', '東京', 'Café Zürich'];
    const mixed = await withDelayMonitor(() =>
      Promise.all([
        ...Array.from({ length: 20 }, (_, i) =>
          i % 2 ? axo.search(topics[i % topics.length]) : axo.article(topics[i % topics.length]),
        ),
        ...Array.from({ length: 3 }, (_, i) => stream(alpha, `#long:200000 chat ${i}`)),
      ]),
    );
    let got = 0;
    const big = await withDelayMonitor(async () => {
      got = await stream(alpha, '#long:5000000');
    });
    if (got !== 5_000_000) {
      throw new Error(`the 5 MB reply arrived as ${got} characters`);
    }
    const idle = await withDelayMonitor(() => new Promise((resolve) => setTimeout(resolve, Math.min(2000, big.ms))));
    const line = (name: string, r: { p99: number; max: number; ms: number }): BenchFigure => ({
      name: `${name}: event-loop delay p99 (max ${r.max.toFixed(1)} ms, ${(r.ms / 1000).toFixed(2)} s)`,
      value: `${r.p99.toFixed(1)} ms (${(r.p99 / Math.max(idle.p99, 0.001)).toFixed(1)}× idle)`,
      target: `< ${P99_TARGET_MS} ms`,
      pass: r.p99 < P99_TARGET_MS,
    });
    return [
      { name: 'idle baseline: event-loop delay p99', value: `${idle.p99.toFixed(1)} ms` },
      line('20 lookups + 3 streamed chats (200,000 characters each) at once', mixed),
      line('one 5 MB streamed reply', big),
    ];
  } finally {
    await http.dispose();
    fake.child.kill('SIGTERM');
  }
}
