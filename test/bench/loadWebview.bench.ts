import { chromium, type Page } from 'playwright-core';
import type { ChatStateView, HostToWebview, MessageView, WebviewToHost } from '../../src/protocol/chatProtocol';
import { chatReply, longReply } from '../fakeService/chatContent';
import { seededRandom } from '../fakeService/chunking';
import { chromiumPath } from '../e2e/harness/browser';
import { openChatPage, postToPage } from '../support/chatPage';
import { median, type BenchFigure } from './benchFigure';

const MESSAGES = 500;
const CONVERSATIONS = 5;
const SWITCHES = 6;
const STREAM_CHARS = 5_000_000;
/** Deltas of 4 to 256 characters: one to sixty-odd tokens, what one network read carries to the host. */
const DELTA_MIN = 4;
const DELTA_MAX = 256;
/** The host posts this many deltas every 16 ms (about 160 KB/s, far faster than a model writes), on a clock. */
const DELTAS_PER_TICK = 20;
const TICK_MS = 16;
const IDLE_MS = 2000;
const LONG_TASK_LIMIT_MS = 200;
/** Screens scrolled down the 5 MB reply from its start. */
const READ_SCREENS = 100;

/** What the page keeps for the bench: every long task the browser reports. */
interface PageProbe {
  longTasks: { start: number; duration: number }[];
}

/** The little of the page's globals the bench's page functions use (they run in the browser, not here). */
interface PageWindow {
  __probe: PageProbe;
  /** What the page posted to the host (the API stand-in of openChatPage). */
  __posted: WebviewToHost[];
  __next?: unknown;
  __deltas?: string[];
  /** Types a prompt and presses Enter while a reply streams (QUEUE_PROMPT_SCRIPT). */
  __queuePrompt?: () => void;
  postMessage(message: unknown, targetOrigin: string): void;
}
declare const window: PageWindow;
declare const document: {
  querySelector(selector: string): { textContent: string | null } | null;
  querySelectorAll(selector: string): { length: number };
};

/** The long-task observer, before the chat's script runs. */
const PROBE_SCRIPT = `
window.__probe = { longTasks: [] };
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) window.__probe.longTasks.push({ start: e.startTime, duration: e.duration });
}).observe({ type: 'longtask', buffered: true });
`;

/** A conversation of MESSAGES messages: prompts and the fake service's Markdown replies, short or long, with code. */
function conversationState(index: number, conversations: ChatStateView['conversations']): ChatStateView {
  const history: { role: string; content: string }[] = [];
  const messages: MessageView[] = [];
  const start = Date.UTC(2025, 0, 1) + index * 86_400_000;
  for (let turn = 0; turn < MESSAGES / 2; turn++) {
    const prompt = `Question ${turn + 1} in conversation ${index + 1}: how would I write a greeting function?`;
    history.push({ role: 'user', content: prompt });
    const reply = (index + turn) % 3 === 0 ? longReply(1200 + ((index * 131 + turn * 17) % 2400)) : chatReply(history);
    history.push({ role: 'assistant', content: reply });
    messages.push({ id: `c${index}-u${turn}`, role: 'user', content: prompt, createdAt: start + turn * 2 });
    messages.push({
      id: `c${index}-a${turn}`,
      role: 'assistant',
      content: reply,
      createdAt: start + turn * 2 + 1,
      status: 'done',
      model: 'alpha',
    });
  }
  return {
    conversationId: `conversation-${index}`,
    title: `Conversation ${index + 1}`,
    messages,
    conversations,
    models: [
      {
        id: 'alpha',
        label: 'ALPHA',
        status: 'available',
        selectable: true,
        context: '200K',
        latency: '1.2s',
        capability: 'Text, vision, coding, knowledge, tools',
      },
    ],
    model: 'alpha',
    pendingContext: [],
    budget: {
      usedTokens: 150_000,
      limitTokens: 200_000,
      parts: { conversation: 150_000, attachments: 0, instructions: 0, grounding: 0, tools: 0 },
    },
    hasSelection: false,
    groundWithAxo: false,
  };
}

/** `text` cut into deltas of DELTA_MIN..DELTA_MAX characters, never inside a surrogate pair. */
function deltasOf(text: string): string[] {
  const random = seededRandom(11);
  const out: string[] = [];
  for (let i = 0; i < text.length;) {
    let end = Math.min(text.length, i + DELTA_MIN + Math.floor(random() * (DELTA_MAX - DELTA_MIN + 1)));
    if (end < text.length && /[\uD800-\uDBFF]/.test(text[end - 1])) {
      end++;
    }
    out.push(text.slice(i, end));
    i = end;
  }
  return out;
}

/** A host message to the page, typed as the protocol has it. */
function post(page: Page, message: HostToWebview): Promise<void> {
  return postToPage(page, message);
}

/** A long task: when it started, in ms after its phase began, and how long it took. */
interface LongTask {
  at: number;
  duration: number;
}

/** The long tasks the page reported between two of its clock readings. */
async function longTasksBetween(page: Page, from: number, to: number): Promise<LongTask[]> {
  const tasks = await page.evaluate(() => window.__probe.longTasks);
  return tasks
    .filter((t) => t.start >= from && t.start < to)
    .map((t) => ({ at: t.start - from, duration: t.duration }));
}

const now = (page: Page) => page.evaluate(() => performance.now());

/**
 * Waits until the log shows conversation `index` drawn to its first message (older ones are drawn while idle) and
 * `count` messages in all; returns the page's time then.
 */
async function drawn(page: Page, count: number, index: number): Promise<number> {
  await page.waitForFunction(
    ([n, first]) =>
      document.querySelector(`main.log article[data-id="${first}"]`) !== null &&
      document.querySelectorAll('main.log article:not(.discarded)').length === n,
    [count, `c${index}-u0`] as const,
    { timeout: 60_000, polling: 50 },
  );
  return now(page);
}

/** Lets trailing work end (a frame, idle callbacks) so its long tasks fall inside the phase. */
const settle = (page: Page) => page.waitForTimeout(300);

interface Phase {
  name: string;
  tasks: LongTask[];
  ms: number;
  detail?: string;
}

/**
 * The built chat page (dist/webview/chat.js + chat.css) in headless Chromium with a stand-in for VS Code's webview
 * API, driven by real protocol messages: the state of a conversation of 500 messages, a 5 MB reply streamed as
 * chat/delta messages, and switches between conversations of 500 messages. The browser's long tasks (PerformanceObserver
 * 'longtask') during each are the figure (target: none over 200 ms); the same page idle is the baseline, and the
 * page's own JSON round trip of one state is the unit the longest task is measured in.
 */
export async function run(): Promise<BenchFigure[]> {
  const summaries = Array.from({ length: CONVERSATIONS }, (_, i) => ({
    id: `conversation-${i}`,
    title: `Conversation ${i + 1}`,
    updatedAt: Date.UTC(2025, 0, 1) + i * 86_400_000,
    messageCount: MESSAGES,
    pinned: i === 0,
    here: i % 2 === 0,
  }));
  const states = summaries.map((_, i) => conversationState(i, summaries));
  const reply = longReply(STREAM_CHARS);
  const deltas = deltasOf(reply);

  const browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  try {
    const page = await openChatPage(browser, PROBE_SCRIPT);
    await page.waitForFunction(() => window.__posted.some((m) => m.type === 'webview/ready'));
    const phases: Phase[] = [];

    // Baseline: the page with an empty conversation, idle.
    await post(page, { type: 'chat/state', state: { ...states[0], messages: [], conversationId: 'empty' } });
    await settle(page);
    let from = await now(page);
    await page.waitForTimeout(IDLE_MS);
    let to = await now(page);
    const idle: Phase = { name: 'idle', tasks: await longTasksBetween(page, from, to), ms: to - from };

    // The unit: the page's own JSON round trip of one 500-message state.
    const unitMs = await page.evaluate((s) => {
      const times: number[] = [];
      for (let i = 0; i < 5; i++) {
        const t = performance.now();
        JSON.parse(JSON.stringify(s));
        times.push(performance.now() - t);
      }
      return times.sort((a, b) => a - b)[2];
    }, states[0]);

    // The state of a conversation of 500 messages.
    await page.evaluate((s) => (window.__next = s), states[0]);
    from = await now(page);
    await page.evaluate(() => window.postMessage({ type: 'chat/state', state: window.__next }, '*'));
    to = await drawn(page, MESSAGES, 0);
    await settle(page);
    phases.push({
      name: `show a conversation of ${MESSAGES} messages (chat/state)`,
      tasks: await longTasksBetween(page, from, await now(page)),
      ms: to - from,
      detail: 'all drawn in',
    });

    // Switching between conversations of 500 messages, each drawn to the end before the next.
    const switchMs: number[] = [];
    from = await now(page);
    for (let n = 0; n < SWITCHES; n++) {
      const state = states[(n + 1) % states.length];
      await page.evaluate((s) => (window.__next = s), state);
      const start = await now(page);
      await page.evaluate(() => window.postMessage({ type: 'chat/state', state: window.__next }, '*'));
      switchMs.push((await drawn(page, MESSAGES, (n + 1) % states.length)) - start);
    }
    await settle(page);
    phases.push({
      name: `${SWITCHES} switches between ${CONVERSATIONS} conversations of ${MESSAGES} messages`,
      tasks: await longTasksBetween(page, from, await now(page)),
      ms: median(switchMs),
      detail: 'each drawn to its first message in a median',
    });

    // Switching between sibling versions of a reply in the middle of a conversation of 500 messages with 50 branch
    // points: the host sends the whole state again (as for a conversation switch), with the other version.
    const versions = [1, 2].map((version) => ({
      ...states[0],
      messages: states[0].messages.map((m, i) => {
        const point = i % 10 === 1;
        const swapped = i === 251 && version === 2;
        return {
          ...m,
          ...(swapped ? { id: `${m.id}-v2`, content: `Version 2 of this reply.\n\n${m.content}` } : {}),
          ...(point ? { branch: { index: i === 251 ? version : 1, count: 2 } } : {}),
        };
      }),
    }));
    const branchMs: number[] = [];
    from = await now(page);
    for (let n = 0; n < SWITCHES; n++) {
      const state = versions[n % 2];
      await page.evaluate((s) => (window.__next = s), state);
      const start = await now(page);
      await page.evaluate(`
        document.querySelector('main.log article')?.setAttribute('data-before', '');
        window.postMessage({ type: 'chat/state', state: window.__next }, '*');
      `);
      await page.waitForFunction(
        ([n, id]) =>
          document.querySelector('main.log article[data-before]') === null &&
          document.querySelector(`main.log article[data-id="${id}"]`) !== null &&
          document.querySelectorAll('main.log article:not(.discarded)').length === n,
        [MESSAGES, state.messages[251].id] as const,
        { timeout: 60_000, polling: 50 },
      );
      branchMs.push((await now(page)) - start);
    }
    await settle(page);
    phases.push({
      name: `${SWITCHES} switches between two versions of a reply in a conversation of ${MESSAGES} messages with 50 branch points`,
      tasks: await longTasksBetween(page, from, await now(page)),
      ms: median(branchMs),
      detail: 'each drawn to its first message in a median',
    });

    // A 5 MB reply streamed as chat/delta messages.
    await page.evaluate((d) => (window.__deltas = d), deltas);
    await post(page, {
      type: 'chat/started',
      requestId: 1,
      user: { id: 'stream-u', role: 'user', content: '#long:5000000', createdAt: Date.now() },
      reply: { id: 'stream-a', role: 'assistant', content: '', createdAt: Date.now(), status: 'streaming' },
      budget: {
        usedTokens: 150_000,
        limitTokens: 200_000,
        parts: { conversation: 150_000, attachments: 0, instructions: 0, grounding: 0, tools: 0 },
      },
      conversations: summaries,
    });
    from = await now(page);
    const postedMs = await streamDeltas(page, 1, false);
    await page.waitForFunction(() => !document.querySelector('.live-block'), undefined, { timeout: 150_000 });
    to = await now(page);
    await settle(page);
    const elements = await page.evaluate(() => document.querySelectorAll('*').length);
    phases.push({
      name: `stream a ${(STREAM_CHARS / 1e6).toFixed(0)} MB reply as ${deltas.length.toLocaleString('en')} chat/delta messages of ${DELTA_MIN}–${DELTA_MAX} chars (${DELTAS_PER_TICK} every ${TICK_MS} ms)`,
      tasks: await longTasksBetween(page, from, await now(page)),
      ms: to - from,
      detail: `posted in ${(postedMs / 1000).toFixed(1)} s, ${elements.toLocaleString('en')} page elements at the end (sections out of view asleep); shown after`,
    });

    // Reading the 5 MB reply: to its start (sleeping sections are drawn again), then down a screen per frame pair.
    from = await now(page);
    const reading = (await page.evaluate(`(async () => {
      const log = document.querySelector('main.log');
      const reply = log.querySelector(':scope > article:last-of-type .blocks');
      const frames = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      const opening = ${JSON.stringify(reply.slice(0, 40))};
      const drawn = () => (reply.querySelector(':scope > .section:first-child p')?.textContent ?? '').startsWith(opening);
      const asleep = !drawn();
      const start = performance.now();
      log.scrollTop += reply.getBoundingClientRect().top - log.getBoundingClientRect().top;
      for (let i = 0; i < 200 && !drawn(); i++) await frames();
      const found = drawn();
      const firstMs = performance.now() - start;
      let most = 0;
      for (let i = 0; i < ${READ_SCREENS}; i++) {
        log.scrollTop += log.clientHeight;
        await frames();
        most = Math.max(most, document.querySelectorAll('*').length);
      }
      return { asleep, found, firstMs, most };
    })()`)) as { asleep: boolean; found: boolean; firstMs: number; most: number };
    if (!reading.found) {
      throw new Error('the start of the 5 MB reply was not drawn again when scrolled to');
    }
    await settle(page);
    phases.push({
      name: `read the 5 MB reply: jump to its start, then ${READ_SCREENS} screens down`,
      tasks: await longTasksBetween(page, from, await now(page)),
      ms: reading.firstMs,
      detail: `at most ${reading.most.toLocaleString('en')} page elements; its first paragraph ${reading.asleep ? 'drawn again' : 'already there (not asleep)'} in`,
    });

    // Leaving the 5 MB reply: one switch to a conversation of 500 messages.
    from = await now(page);
    await page.evaluate((st) => (window.__next = st), states[0]);
    await page.evaluate(() => window.postMessage({ type: 'chat/state', state: window.__next }, '*'));
    to = await drawn(page, MESSAGES, 0);
    await settle(page);
    phases.push({
      name: `switch away from the 5 MB reply to a conversation of ${MESSAGES} messages`,
      tasks: await longTasksBetween(page, from, await now(page)),
      ms: to - from,
      detail: 'drawn to its first message in',
    });

    // A prompt queued halfway through the 5 MB stream (typed, Enter, the host's queue/changed), against the same
    // stream without it, each into an empty conversation, the one without first.
    const queueLongest: number[] = [];
    for (const queued of [false, true]) {
      await post(page, {
        type: 'chat/state',
        state: { ...states[0], messages: [], conversationId: `queue-${queued}` },
      });
      await settle(page);
      const requestId = queued ? 3 : 2;
      await post(page, {
        type: 'chat/started',
        requestId,
        user: { id: `q-u-${requestId}`, role: 'user', content: '#long:5000000', createdAt: Date.now() },
        reply: { id: `q-a-${requestId}`, role: 'assistant', content: '', createdAt: Date.now(), status: 'streaming' },
        budget: {
          usedTokens: 150_000,
          limitTokens: 200_000,
          parts: { conversation: 150_000, attachments: 0, instructions: 0, grounding: 0, tools: 0 },
        },
        conversations: summaries,
      });
      from = await now(page);
      const ms = await streamDeltas(page, requestId, queued);
      await page.waitForFunction(() => !document.querySelector('.live-block'), undefined, { timeout: 150_000 });
      await settle(page);
      if (queued && !(await page.evaluate(() => window.__posted.some((m) => m.type === 'chat/send')))) {
        throw new Error('the prompt typed during the stream was not sent to be queued');
      }
      const tasks = await longTasksBetween(page, from, await now(page));
      queueLongest.push(Math.max(0, ...tasks.map((t) => t.duration)));
      phases.push({
        name: `the 5 MB reply again, ${queued ? 'a prompt queued halfway through' : 'nothing queued (the baseline of the row below)'}`,
        tasks,
        ms,
        detail: 'posted in',
      });
    }

    const longest = (tasks: LongTask[]) => Math.max(0, ...tasks.map((t) => t.duration));
    const figures: BenchFigure[] = [
      {
        name: `webview idle baseline (${(IDLE_MS / 1000).toFixed(0)} s): long tasks`,
        value: `${idle.tasks.length}, longest ${longest(idle.tasks).toFixed(0)} ms (unit: the page's JSON round trip of one ${MESSAGES}-message state, ${unitMs.toFixed(1)} ms)`,
      },
    ];
    for (const phase of phases) {
      const over = phase.tasks.filter((t) => t.duration > LONG_TASK_LIMIT_MS);
      const top = longest(phase.tasks);
      const when = over.map((t) => `${t.duration.toFixed(0)} ms at ${(t.at / 1000).toFixed(1)} s`).join(', ');
      figures.push({
        name: `webview: ${phase.name}: longest task (${phase.tasks.length} long tasks over 50 ms; ${phase.detail} ${(phase.ms / 1000).toFixed(2)} s)`,
        value: `${top.toFixed(0)} ms (${(top / Math.max(unitMs, 0.01)).toFixed(1)} units), ${over.length} over ${LONG_TASK_LIMIT_MS} ms${when ? ` (${when})` : ''}`,
        target: `none over ${LONG_TASK_LIMIT_MS} ms`,
        pass: over.length === 0,
      });
    }
    const [without, withQueue] = queueLongest;
    figures.push({
      name: 'webview: a prompt queued during the 5 MB stream: longest task, against the same stream without it',
      value: `${withQueue.toFixed(0)} ms against ${without.toFixed(0)} ms (${(withQueue - without).toFixed(0)} ms more)`,
      target: 'within 10 ms',
      pass: withQueue - without <= 10,
    });
    return figures;
  } finally {
    await browser.close();
  }
}

/** Defines `window.__queuePrompt`: types a prompt into the composer, presses Enter, and posts the host's answer. */
const QUEUE_PROMPT_SCRIPT = `window.__queuePrompt = () => {
  const text = 'A follow-up question, queued while the reply streams';
  const input = document.querySelector('textarea.input');
  input.value = text;
  input.dispatchEvent(new Event('input'));
  input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
  const prompt = { id: 'queued-1', text, attachments: [], model: 'ALPHA', grounded: false, mine: true };
  window.postMessage({ type: 'queue/changed', queue: { enabled: true, prompts: [prompt], waiting: false } }, '*');
}`;

/**
 * Posts the deltas of `window.__deltas` as reply `requestId` on a clock (the host does not wait for the page, however
 * long its frames take), then `chat/done`; with `queue`, halfway through a prompt is typed into the composer and
 * Enter pressed (the page posts `chat/send`), and the host's `queue/changed` follows. Returns the posting time.
 */
async function streamDeltas(page: Page, requestId: number, queue: boolean): Promise<number> {
  await page.evaluate(QUEUE_PROMPT_SCRIPT);
  return page.evaluate(
    ([perTick, tickMs, id, withQueue]) =>
      new Promise<number>((resolve) => {
        const all = window.__deltas ?? [];
        const start = performance.now();
        let i = 0;
        let queued = !withQueue;
        const queuePrompt = () => window.__queuePrompt?.();
        const tick = () => {
          const due = Math.min(all.length, Math.floor(((performance.now() - start) / tickMs + 1) * perTick));
          for (; i < due; i++) {
            window.postMessage({ type: 'chat/delta', requestId: id, text: all[i] }, '*');
          }
          if (!queued && i >= all.length / 2) {
            queued = true;
            queuePrompt();
          }
          if (i < all.length) {
            setTimeout(tick, tickMs);
          } else {
            window.postMessage({ type: 'chat/done', requestId: id, status: 'done' }, '*');
            resolve(performance.now() - start);
          }
        };
        tick();
      }),
    [DELTAS_PER_TICK, TICK_MS, requestId, queue] as const,
  );
}
