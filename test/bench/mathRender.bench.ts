import { chromium, type Page } from 'playwright-core';
import type { HostToWebview, MessageView, WebviewToHost } from '../../src/protocol/chatProtocol';
import { seededRandom } from '../fakeService/chunking';
import { chromiumPath } from '../e2e/harness/browser';
import { openChatPage, postToPage, stateMessage } from '../support/chatPage';
import type { BenchFigure } from './benchFigure';

const FORMULAS = 200;
/** Deltas of 4 to 64 characters, 8 of them every 16 ms (about 17 KB/s: a fast model, some ten times a usual one). */
const DELTA_MIN = 4;
const DELTA_MAX = 64;
const DELTAS_PER_TICK = 8;
const TICK_MS = 16;
const LONG_TASK_LIMIT_MS = 100;

interface PageWindow {
  __probe: { longTasks: { start: number; duration: number }[] };
  __posted: WebviewToHost[];
  __deltas?: string[];
  postMessage(message: unknown, targetOrigin: string): void;
}
declare const window: PageWindow;
declare const document: { querySelectorAll(selector: string): { length: number } };

const PROBE_SCRIPT = `
window.__probe = { longTasks: [] };
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) window.__probe.longTasks.push({ start: e.startTime, duration: e.duration });
}).observe({ type: 'longtask', buffered: true });
`;

/**
 * A reply of FORMULAS formulas, every one different (nothing is drawn from the page's cache of formulas): inline
 * formulas in prose, a display formula (`$$` block) every fifth, sums, fractions, roots, matrices and integrals.
 */
export function mathReplyOf(formulas: number): string {
  const parts: string[] = [];
  for (let i = 0; i < formulas; i++) {
    if (i % 5 === 4) {
      parts.push(
        `\n$$\n\\int_0^{${i}} \\frac{x^{${i % 7}}}{\\sqrt{1+x^2}}\\,dx + \\left( \\sum_{k=1}^{${i}} \\frac{1}{k^2} \\right) ` +
          `\\begin{pmatrix} a_{${i}} & b \\\\ c & d \\end{pmatrix}\n$$\n`,
      );
    } else {
      parts.push(`Step ${i}: with $x_{${i}} = \\frac{-b \\pm \\sqrt{b^2-4ac}}{2a}$ it costs $5 more, so`);
    }
  }
  return parts.join('\n');
}

function deltasOf(text: string): string[] {
  const random = seededRandom(31);
  const out: string[] = [];
  for (let i = 0; i < text.length;) {
    const end = Math.min(text.length, i + DELTA_MIN + Math.floor(random() * (DELTA_MAX - DELTA_MIN + 1)));
    out.push(text.slice(i, end));
    i = end;
  }
  return out;
}

const now = (page: Page) => page.evaluate(() => performance.now());

async function longTasksSince(page: Page, from: number): Promise<number[]> {
  const tasks = await page.evaluate(() => window.__probe.longTasks);
  return tasks.filter((t) => t.start >= from).map((t) => t.duration);
}

function figure(name: string, tasks: number[], ms: number): BenchFigure {
  const longest = Math.max(0, ...tasks);
  const over = tasks.filter((t) => t > LONG_TASK_LIMIT_MS).length;
  return {
    name: `webview math: ${name}: longest task (${tasks.length} over 50 ms; ${(ms / 1000).toFixed(2)} s)`,
    value: `${longest.toFixed(0)} ms, ${over} over ${LONG_TASK_LIMIT_MS} ms`,
    target: `none over ${LONG_TASK_LIMIT_MS} ms`,
    pass: over === 0,
  };
}

/**
 * The built chat page in headless Chromium: a reply of 200 formulas streamed as chat/delta messages on a clock, then
 * the same reply loaded from history. The browser's long tasks during each are the figures.
 */
export async function run(): Promise<BenchFigure[]> {
  const reply = mathReplyOf(FORMULAS);
  const deltas = deltasOf(reply);
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  try {
    const page = await openChatPage(browser, PROBE_SCRIPT);
    await page.waitForFunction(() => window.__posted.some((m) => m.type === 'webview/ready'));
    const user: MessageView = { id: 'u', role: 'user', content: 'Derive it', createdAt: 1 };
    await postToPage(page, stateMessage('math', [user]));
    await page.waitForTimeout(300);

    let from = await now(page);
    const started: HostToWebview = {
      type: 'chat/started',
      requestId: 1,
      user,
      conversations: [],
      budget: { usedTokens: 0, limitTokens: 200_000 },
      reply: { id: 'a', role: 'assistant', content: '', createdAt: 2, status: 'streaming' },
    } as unknown as HostToWebview;
    await postToPage(page, started);
    await page.evaluate((d) => (window.__deltas = d), deltas);
    await page.evaluate(
      ([perTick, tick]) =>
        new Promise<void>((resolve) => {
          const all = window.__deltas ?? [];
          let i = 0;
          const timer = setInterval(() => {
            for (let n = 0; n < perTick && i < all.length; n++, i++) {
              window.postMessage({ type: 'chat/delta', requestId: 1, text: all[i] }, '*');
            }
            if (i >= all.length) {
              clearInterval(timer);
              window.postMessage({ type: 'chat/done', requestId: 1, status: 'done' }, '*');
              resolve();
            }
          }, tick);
        }),
      [DELTAS_PER_TICK, TICK_MS] as const,
    );
    await page.waitForFunction(
      (n) => document.querySelectorAll('main.log article:not(.discarded) math').length >= n,
      FORMULAS,
      {
        timeout: 60_000,
      },
    );
    await page.waitForTimeout(300);
    const streamedMs = (await now(page)) - from;
    const streamed = figure(`${FORMULAS} formulas streamed`, await longTasksSince(page, from), streamedMs);

    from = await now(page);
    const loaded: MessageView = { id: 'a', role: 'assistant', content: reply, createdAt: 2, status: 'done' };
    await postToPage(page, stateMessage('math-again', [user, loaded]));
    await page.waitForFunction(
      (n) => document.querySelectorAll('main.log article:not(.discarded) math').length >= n,
      FORMULAS,
      {
        timeout: 60_000,
      },
    );
    await page.waitForTimeout(300);
    const loadedMs = (await now(page)) - from;
    return [streamed, figure(`${FORMULAS} formulas loaded from history`, await longTasksSince(page, from), loadedMs)];
  } finally {
    await browser.close();
  }
}
