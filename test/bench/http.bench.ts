import { Agent, request } from 'undici';
import type * as vscode from 'vscode';
import { AlphaClient } from '../../src/core/service/alphaClient';
import { AxoClient } from '../../src/core/service/axoClient';
import type { KeyKind } from '../../src/core/service/errors';
import { HttpClient, type HttpSettings } from '../../src/core/net/http';
import { silentLogger } from '../../src/core/logger';
import { SecretStore } from '../../src/host/secretStore';
import { startFakeService, type FakeService } from '../fakeService/fakeService';
import { median, type BenchFigure } from './benchFigure';

const REQUESTS = 20;
/** Pairs sent first so both paths run JIT-compiled code, as they do after a few minutes of use. */
const WARM_UP = 50;
const TARGET = 1.5;

/**
 * A pause between requests: undici hands a finished socket back to its pool one event-loop turn after the
 * response, so each measured request starts on an idle, warm connection (as a user's next request does).
 */
const pause = () => new Promise<void>((resolve) => setTimeout(resolve, 2));

/** Milliseconds from calling `send` to the fake seeing the request's headers, after `send`'s response is read. */
async function timeToArrival(fake: FakeService, send: () => Promise<unknown>): Promise<number> {
  const before = fake.requests.length;
  const start = performance.now();
  await send();
  const record = fake.requests[before];
  if (!record || record.status !== 200) {
    throw new Error(`the bench request failed: ${JSON.stringify(record)}`);
  }
  await pause();
  return record.arrivedAt - start;
}

interface Pair {
  ours: () => Promise<unknown>;
  bare: () => Promise<unknown>;
}

/** Alternates ours and bare after a warm-up, `REQUESTS` of each; returns both medians in ms. */
async function measure(fake: FakeService, pair: Pair): Promise<{ ours: number; bare: number }> {
  for (let i = 0; i < WARM_UP; i++) {
    await timeToArrival(fake, pair.ours);
    await timeToArrival(fake, pair.bare);
  }
  const ours: number[] = [];
  const bare: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    ours.push(await timeToArrival(fake, pair.ours));
    bare.push(await timeToArrival(fake, pair.bare));
  }
  return { ours: median(ours), bare: median(bare) };
}

/** A SecretStorage in memory that answers asynchronously, as VS Code's does. */
function memorySecretStorage(): vscode.SecretStorage {
  const values = new Map<string, string>();
  const storage = {
    get: async (key: string) => values.get(key),
    store: async (key: string, value: string) => void values.set(key, value),
    delete: async (key: string) => void values.delete(key),
    onDidChange: () => ({ dispose: () => undefined }),
  };
  return storage as unknown as vscode.SecretStorage;
}

function pairs(fake: FakeService, alpha: AlphaClient, axo: AxoClient, agent: Agent): Record<string, Pair> {
  const messages = [{ role: 'user' as const, content: 'Say hello in five words.' }];
  return {
    'encyclopedia search': {
      ours: () => axo.search('Ada Lovelace'),
      bare: async () => {
        const res = await request(`${fake.url}/v1/axo/search?q=Ada+Lovelace`, {
          dispatcher: agent,
          headers: { accept: 'application/json', authorization: `Bearer ${fake.axoKey}` },
        });
        return res.body.json();
      },
    },
    'chat reply (streamed)': {
      ours: async () => {
        let text = '';
        for await (const delta of alpha.stream({ model: 'alpha', messages })) {
          text += delta;
        }
        return text;
      },
      bare: async () => {
        const res = await request(`${fake.url}/v1/alpha`, {
          method: 'POST',
          dispatcher: agent,
          headers: {
            accept: 'text/event-stream',
            authorization: `Bearer ${fake.chatKey}`,
            'content-type': 'application/json',
          },
          body: JSON.stringify({ model: 'alpha', messages, stream: true }),
        });
        return res.body.text();
      },
    },
  };
}

/** The extension's own overhead per request (client call → the fake sees it), against bare undici (target ≤ 1.5×). */
export async function run(): Promise<BenchFigure[]> {
  const fake = await startFakeService({ tokenDelayMs: 0 });
  const settings = (): HttpSettings => ({ timeoutMs: 30_000, proxy: { strictSSL: true, noProxy: [] } });
  const http = new HttpClient(settings, silentLogger);
  // The keys come through the extension's own store, over a SecretStorage kept in memory.
  const secrets = new SecretStore(memorySecretStorage(), { env: {} });
  await secrets.set('chat', fake.chatKey);
  await secrets.set('encyclopedia', fake.axoKey);
  const ctx = { http, baseUrl: () => fake.url, keys: (k: KeyKind) => secrets.get(k), log: silentLogger };
  const alpha = new AlphaClient(ctx, () => 30_000);
  const axo = new AxoClient(ctx);
  const agent = new Agent();
  const figures: BenchFigure[] = [];
  try {
    for (const [name, pair] of Object.entries(pairs(fake, alpha, axo, agent))) {
      const { ours, bare } = await measure(fake, pair);
      const ratio = ours / bare;
      figures.push(
        { name: `${name}: call → request at the fake, ours`, value: `${(ours * 1000).toFixed(0)} µs` },
        { name: `${name}: the same request, bare undici`, value: `${(bare * 1000).toFixed(0)} µs` },
        {
          name: `${name}: overhead ratio (ours / bare), median of ${REQUESTS} on a warm connection`,
          value: ratio.toFixed(2),
          target: `≤ ${TARGET}`,
          pass: ratio <= TARGET,
        },
      );
    }
    const sent = fake.requests.length;
    // One keep-alive socket for our client, one for the bare agent: none per request.
    figures.push({ name: `sockets the fake accepted for all ${sent} requests`, value: `${fake.connections}` });
  } finally {
    secrets.dispose();
    await agent.close();
    await http.dispose();
    await fake.close();
  }
  return figures;
}
