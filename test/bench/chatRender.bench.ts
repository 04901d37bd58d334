import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import { chromium, type Page } from 'playwright-core';
import { newConversation, newId, type Conversation } from '../../src/core/chat/conversation/conversation';
import type { MessageView } from '../../src/protocol/chatProtocol';
import { ConversationStore } from '../../src/core/chat/store/conversationStore';
import { silentLogger } from '../../src/core/logger';
import { chatReply, longReply } from '../fakeService/chatContent';
import { chromiumPath } from '../e2e/harness/browser';
import { median, percentile, type BenchFigure } from './benchFigure';

const REPLY_CHARS = 100_000;
const DELTAS = 5_000;
const CONVERSATIONS = 50;
const MESSAGES = 200;

interface SwitchTimes {
  visibleMs: number;
  allMs: number;
  articles: number;
}

interface RenderRun {
  totalMs: number;
  perDeltaMs: number[];
  codeBlocks: number;
}

/** The bench page's script: the chat's real renderer and a naive one, bundled for the browser. */
async function pageScript(): Promise<string> {
  const result = await esbuild.build({
    entryPoints: [path.join(__dirname, '..', '..', '..', 'test', 'bench', 'page', 'renderBenchPage.ts')],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'chrome114',
    minify: true,
    logLevel: 'silent',
  });
  return result.outputFiles[0].text;
}

/** `text` cut into `n` consecutive pieces of (nearly) equal length. */
function split(text: string, n: number): string[] {
  const size = Math.ceil(text.length / n);
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += size) {
    pieces.push(text.slice(i, i + size));
  }
  return pieces;
}

function mean(values: number[]): number {
  return values.reduce((a, b) => a + b, 0) / values.length;
}

/** The cost of a delta in the last tenth of the reply against the first tenth. */
function growth(perDelta: number[]): number {
  const tenth = Math.floor(perDelta.length / 10);
  return mean(perDelta.slice(-tenth)) / mean(perDelta.slice(0, tenth));
}

async function renderFigures(page: Page): Promise<BenchFigure[]> {
  const reply = longReply(REPLY_CHARS);
  const deltas = split(reply, DELTAS);
  // Warm the JIT on both paths with a shorter reply first.
  const warm = split(longReply(10_000), 500);
  await page.evaluate((d) => {
    const bench = (
      globalThis as unknown as { renderBench: { incremental(d: string[]): void; naive(d: string[]): void } }
    ).renderBench;
    bench.incremental(d);
    bench.naive(d);
  }, warm);
  const run = (which: 'incremental' | 'naive') =>
    page.evaluate(
      ([w, d]) =>
        (globalThis as unknown as { renderBench: Record<string, (d: string[]) => RenderRun> }).renderBench[w](d),
      [which, deltas] as const,
    );
  const ours = await run('incremental');
  const naive = await run('naive');
  const ratio = ours.totalMs / naive.totalMs;
  const ourGrowth = growth(ours.perDeltaMs);
  const agree = ours.codeBlocks === naive.codeBlocks && ours.codeBlocks > 0;
  return [
    {
      name: `stream render: ${REPLY_CHARS.toLocaleString('en')} chars in ${deltas.length.toLocaleString('en')} deltas, main-thread time ours / naive re-render`,
      value: `${ratio.toFixed(3)} (${ours.totalMs.toFixed(0)} ms vs ${naive.totalMs.toFixed(0)} ms; one frame per delta)`,
      target: '≤ 0.1',
      pass: ratio <= 0.1 && agree,
    },
    {
      name: 'stream render: cost per delta, last tenth / first tenth (ours)',
      value: `${ourGrowth.toFixed(2)} (naive: ${growth(naive.perDeltaMs).toFixed(1)}; ours p99 ${percentile(ours.perDeltaMs, 99).toFixed(2)} ms)`,
      target: '≤ 2',
      pass: ourGrowth <= 2,
    },
    {
      name: 'stream render: both renderers show the same code blocks',
      value: `${ours.codeBlocks} vs ${naive.codeBlocks}`,
      pass: agree,
    },
  ];
}

/** A conversation of `MESSAGES` messages: prompts and the fake service's Markdown replies with code. */
function bigConversation(index: number): Conversation {
  const conversation = newConversation(Date.now() - index * 60_000);
  conversation.title = `Conversation ${index + 1}`;
  const history: { role: 'user' | 'assistant'; content: string }[] = [];
  for (let i = 0; i < MESSAGES / 2; i++) {
    const prompt = `Question ${i + 1} of conversation ${index + 1}: how do I greet someone?`;
    history.push({ role: 'user', content: prompt });
    const content = chatReply(history);
    history.push({ role: 'assistant', content });
  }
  conversation.messages = history.map((m, i) => ({
    id: newId(),
    role: m.role,
    content: m.content,
    createdAt: conversation.createdAt + i,
    ...(m.role === 'assistant' ? { status: 'done' as const } : {}),
  }));
  return conversation;
}

async function switchFigures(page: Page): Promise<BenchFigure[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'alpha-axo-bench-'));
  try {
    const writer = new ConversationStore(dir, silentLogger);
    const ids: string[] = [];
    for (let i = 0; i < CONVERSATIONS; i++) {
      const conversation = bigConversation(i);
      await writer.save(conversation);
      ids.push(conversation.id);
    }
    await writer.idle();
    // A new store, as after a reload: the list is read from disk once, then each switch loads one file.
    const store = new ConversationStore(dir, silentLogger);
    const listStart = performance.now();
    const listed = await store.list();
    const listMs = performance.now() - listStart;
    const visible: number[] = [];
    const complete: number[] = [];
    let articles = 0;
    // One untimed switch first: the page has drawn a conversation before the user switches.
    for (const [n, id] of [ids[0], ...ids].entries()) {
      const start = performance.now();
      const conversation = await store.load(id);
      const loadMs = performance.now() - start;
      const views: MessageView[] = (conversation?.messages ?? []).map((m) => ({
        id: m.id,
        role: m.role,
        content: m.content,
        createdAt: m.createdAt,
        status: m.status,
      }));
      const times = await page.evaluate(
        (m) =>
          (
            globalThis as unknown as {
              renderBench: { drawConversation(m: MessageView[]): Promise<SwitchTimes> };
            }
          ).renderBench.drawConversation(m),
        views,
      );
      if (n === 0) {
        continue;
      }
      visible.push(loadMs + times.visibleMs);
      complete.push(loadMs + times.allMs);
      articles = times.articles;
    }
    const worst = Math.max(...visible);
    return [
      {
        name: `conversations: list ${listed.length} of ${MESSAGES} messages after a reload`,
        value: `${listMs.toFixed(1)} ms`,
        target: '< 200 ms',
        pass: listMs < 200 && listed.length === CONVERSATIONS,
      },
      {
        name: `conversations: switch to one of ${MESSAGES} messages, load from disk + draw the newest (highlighted)`,
        value: `median ${median(visible).toFixed(1)} ms, p95 ${percentile(visible, 95).toFixed(1)} ms, worst ${worst.toFixed(1)} ms`,
        target: 'p95 < 200 ms',
        pass: percentile(visible, 95) < 200,
      },
      {
        name: `conversations: all ${articles} messages drawn (the older ones while idle)`,
        value: `median ${median(complete).toFixed(1)} ms, worst ${Math.max(...complete).toFixed(1)} ms`,
        pass: articles === MESSAGES,
      },
    ];
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The chat renderer in headless Chromium: streaming against a naive re-render, and switching conversations. */
export async function run(): Promise<BenchFigure[]> {
  const script = await pageScript();
  const browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: ['--no-sandbox'] });
  try {
    const page = await browser.newPage({ viewport: { width: 400, height: 800 } });
    await page.setContent('<!DOCTYPE html><html><body></body></html>');
    await page.addScriptTag({ content: script });
    return [...(await renderFigures(page)), ...(await switchFigures(page))];
  } finally {
    await browser.close();
  }
}
