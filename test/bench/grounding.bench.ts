import { performance } from 'node:perf_hooks';
import { AlphaClient, type ChatMessage } from '../../src/core/service/alphaClient';
import { AxoClient } from '../../src/core/service/axoClient';
import { fitGroundedToContext } from '../../src/core/chat/request/groundedBudget';
import { groundQuestion } from '../../src/core/chat/request/grounding';
import { EncyclopediaStore } from '../../src/core/encyclopedia/encyclopediaStore';
import { fitToContext } from '../../src/core/chat/request/contextBudget';
import { HttpClient } from '../../src/core/net/http';
import type { Logger } from '../../src/core/logger';
import { startFakeService } from '../fakeService/fakeService';
import { median, type BenchFigure } from './benchFigure';

const AXO_LATENCY_MS = 50;
const ROUNDS = 21;
/** The lookup itself plus at most 10 %. */
const TARGET_EXTRA_MS = AXO_LATENCY_MS * 1.1;

const quiet: Logger = { trace: () => {}, debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

/**
 * Time to the first token of a chat reply with grounding off, and on (the AXO lookup against a fake whose
 * encyclopedia answers after a fixed 50 ms and, at the same time, the cached facts of the article the question names,
 * then the grounded request), measured in the same process against the same fake. The extra time is the median with
 * grounding minus the median without.
 */
export async function run(): Promise<BenchFigure[]> {
  const fake = await startFakeService({ tokenDelayMs: 0, axoLatencyMs: AXO_LATENCY_MS });
  const http = new HttpClient(() => ({ timeoutMs: 10_000, proxy: { strictSSL: true, noProxy: [] } }), quiet);
  const keys = { chat: fake.chatKey, encyclopedia: fake.axoKey };
  const ctx = { http, baseUrl: () => fake.url, keys: async (k: 'chat' | 'encyclopedia') => keys[k], log: quiet };
  const alpha = new AlphaClient(ctx, () => 10_000);
  const axo = new AxoClient(ctx);
  // The article the question names is in the encyclopedia's cache (looked up once, before the rounds).
  const store = new EncyclopediaStore({ client: axo, ttlMs: () => 3_600_000 });
  await store.lookup({ kind: 'article', title: 'Alan Turing' });
  const prompt = 'Who was Alan Turing?';
  const history: ChatMessage[] = [{ role: 'user', content: prompt }];

  const firstToken = async (grounded: boolean): Promise<number> => {
    const started = performance.now();
    const controller = new AbortController();
    const lookup = grounded ? groundQuestion(axo, store, prompt, 'axo', controller.signal) : undefined;
    const result = await lookup;
    if (grounded && !(result?.kind === 'grounded' && result.facts.length > 0)) {
      throw new Error('the grounded request has no cached facts: the bench would not measure what it says');
    }
    const fit =
      result?.kind === 'grounded' ? fitGroundedToContext(history, result, 'alpha') : fitToContext(history, 'alpha');
    for await (const delta of alpha.stream({ model: 'alpha', messages: fit.messages }, controller.signal)) {
      if (delta) {
        break;
      }
    }
    const elapsed = performance.now() - started;
    controller.abort();
    return elapsed;
  };

  try {
    for (let i = 0; i < 3; i++) {
      await firstToken(false);
      await firstToken(true);
    }
    const off: number[] = [];
    const on: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      off.push(await firstToken(false));
      on.push(await firstToken(true));
    }
    const extra = median(on) - median(off);
    return [
      { name: 'time to first token, grounding off (median)', value: `${median(off).toFixed(1)} ms` },
      {
        name: `time to first token, grounding on (median; fake AXO latency ${AXO_LATENCY_MS} ms)`,
        value: `${median(on).toFixed(1)} ms`,
      },
      {
        name: 'extra time to first token with grounding',
        value: `${extra.toFixed(1)} ms`,
        target: `≤ ${TARGET_EXTRA_MS.toFixed(0)} ms`,
        pass: extra <= TARGET_EXTRA_MS,
      },
    ];
  } finally {
    store.dispose();
    await http.dispose();
    await fake.close();
  }
}
