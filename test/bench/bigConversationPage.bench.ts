import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Frame } from 'playwright-core';
import { newConversation, newId, type Conversation } from '../../src/core/chat/conversation/conversation';
import { ConversationStore } from '../../src/core/chat/store/conversationStore';
import { silentLogger } from '../../src/core/logger';
import { chatReply, longReply } from '../fakeService/chatContent';
import { launchBrowser, newPage } from '../e2e/harness/browser';
import { startCodeServer, type CodeServer } from '../e2e/harness/codeServer';
import { vsixPath } from '../e2e/harness/paths';
import { openWorkbench, poll } from '../e2e/harness/workbench';
import { openChat } from '../e2e/ui/chatHelpers';
import { median, type BenchFigure } from './benchFigure';
import { startProfile } from './pageProfile';
import { startHostBench } from './hostBench';
import { chatContentFrame } from './lastPixel.bench';
import { rendererHeapMb } from './memory.bench';

const MESSAGES = 5_000;
const ROUNDS = Number(process.env.BIG_PAGE_ROUNDS ?? 3);
const PAINT_TARGET_MS = 200;
const TASK_TARGET_MS = 50;
const HEAP_TARGET_MB = 100;

/**
 * `messages` messages titled `title`: prompts and the fake's replies, one in five a long one with code blocks
 * (about 1 KB a message on average, as bigHistory's).
 */
function conversation(title: string, messages: number, workspace: string, start: number): Conversation {
  const c = newConversation(start);
  c.title = title;
  c.workspace = workspace;
  const history: { role: string; content: string }[] = [];
  for (let turn = 0; turn < messages / 2; turn++) {
    const prompt = `${title} question ${turn}: how do I read a file line by line?`;
    history.splice(0, history.length - 4);
    history.push({ role: 'user', content: prompt });
    const reply = turn % 5 === 0 ? longReply(1500 + ((turn * 17) % 2000)) : chatReply(history);
    history.push({ role: 'assistant', content: reply });
    c.messages.push({ id: newId(), role: 'user', content: prompt, createdAt: start + turn * 2 });
    c.messages.push({
      id: newId(),
      role: 'assistant',
      content: reply,
      createdAt: start + turn * 2 + 1,
      status: 'done',
    });
  }
  c.updatedAt = start + messages;
  return c;
}

/** What the page's probe keeps (performance.now() times of the webview). */
interface SwitchProbe {
  clickAt: number;
  /** When the page got the state and when it had drawn it (its handler returned). */
  stateAt: number;
  drawnAt: number;
  shownAt: number;
  longTasks: number[];
}
declare const window: {
  __switch: SwitchProbe;
  addEventListener(type: 'message', listener: (event: { data: { type?: string } }) => void, capture: boolean): void;
};
declare const document: {
  querySelector(selector: string): { scrollTop: number; clientHeight: number; scrollHeight: number } | null;
  addEventListener(type: string, listener: (event: { target: unknown }) => void, capture: boolean): void;
  querySelectorAll(selector: string): ArrayLike<{ childElementCount: number }>;
  getElementsByTagName(name: string): { length: number };
};
declare function requestAnimationFrame(callback: () => void): void;
declare const performance: { now(): number };
declare class MutationObserver {
  constructor(callback: () => void);
  observe(target: unknown, options: object): void;
  disconnect(): void;
}
declare class PerformanceObserver {
  constructor(callback: (list: { getEntries(): { duration: number }[] }) => void);
  observe(options: object): void;
}

/**
 * Installs the probe: when the page takes the click on the list, and the frame after the conversation's newest
 * message is on the page (drawn first; older ones follow when the page is idle); every long task from then on.
 */
async function probe(frame: Frame, newestId: string): Promise<void> {
  await frame.evaluate((id) => {
    const p: SwitchProbe = { clickAt: 0, stateAt: 0, drawnAt: 0, shownAt: 0, longTasks: [] };
    window.__switch = p;
    // The click on the conversation's line in the list (the one that opens the list comes first when it was closed).
    document.addEventListener(
      'click',
      (event) => {
        if ((event.target as { closest?(selector: string): unknown } | null)?.closest?.('.history-item')) {
          p.clickAt ||= performance.now();
        }
      },
      true,
    );
    // Capturing at the window, this runs before the page's own listener; the second one after it.
    const isState = (event: { data: { type?: string } }) => p.clickAt > 0 && event.data?.type === 'chat/state';
    window.addEventListener('message', (event) => isState(event) && (p.stateAt ||= performance.now()), true);
    window.addEventListener('message', (event) => isState(event) && (p.drawnAt ||= performance.now()), false);
    // Let go of once it has seen the message: left on, it made a record of every element the scroll put in or took
    // out, and the page's collector traced them too (a major pause of 75 ms fell in its callback).
    const shown = new MutationObserver(() => {
      if (p.clickAt && !p.shownAt && document.querySelector(`main.log article[data-id="${id}"]`)) {
        p.shownAt = -1;
        shown.disconnect();
        requestAnimationFrame(() => (p.shownAt = performance.now()));
      }
    });
    shown.observe(document, { subtree: true, childList: true });
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        p.longTasks.push(e.duration);
      }
    }).observe({ type: 'longtask' });
  }, newestId);
}

/** Frames of scrolling at most: a page that never reaches its top is reported as such, not waited for. */
const SCROLL_LIMIT_MS = Number(process.env.BIG_PAGE_SCROLL_MS ?? 60_000);

/**
 * Scrolls the log from the bottom to the top a screen a frame, until the top stays the top (the older messages are
 * drawn meanwhile and keep the view in place as they come) or `limitMs` passed.
 */
async function scrollToTop(frame: Frame): Promise<{ frames: number; top: boolean; held: string }> {
  return frame.evaluate(async (limitMs) => {
    const log = document.querySelector('main.log');
    if (!log) {
      throw new Error('no conversation log');
    }
    let frames = 0;
    let stillAtTop = 0;
    const started = performance.now();
    while (stillAtTop < 30 && performance.now() - started < limitMs) {
      log.scrollTop = Math.max(0, log.scrollTop - log.clientHeight);
      await new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));
      frames++;
      stillAtTop = log.scrollTop === 0 ? stillAtTop + 1 : 0;
    }
    // What the page holds then: far-off slices of older messages sleep (their elements out of the document).
    const slices = Array.from(document.querySelectorAll('main.log > .older-messages'));
    const held =
      `${document.getElementsByTagName('*').length} elements, ${slices.length} slices of older messages, ` +
      `${slices.filter((slice) => slice.childElementCount === 0).length} asleep`;
    return { frames, top: stillAtTop >= 30, held };
  }, SCROLL_LIMIT_MS);
}

interface Round {
  paintMs: number;
  switchTaskMs: number;
  scrollTaskMs: number;
  scroll: { frames: number; top: boolean; held: string };
  heapMb: number;
}

/**
 * One conversation of 5,000 messages (about 5 MB with code blocks) in the packaged extension in code-server: switched
 * to from the list (click → the frame after its newest message is on the page), scrolled from the bottom to the top
 * a screen a frame while the older messages are drawn (the longest webview task), and the chat page's heap after it
 * (the renderer's after a forced collection, less the same before the chat opened). Three rounds, switching away to
 * a small conversation between them. Each round prints when the state reached the page (the rest of the switch is
 * the host's and the channel's). To find where time goes: BIG_PAGE_PROFILE=1 prints the page's CPU profile of each
 * round, BIG_PAGE_PROFILE=trace the browser's timeline by kind of work; BIG_PAGE_SCROLL_MS shortens the scroll.
 */
export async function run(): Promise<BenchFigure[]> {
  const { loadRow, skipped } = startHostBench('big conversation page');
  if (skipped) {
    return skipped;
  }
  let server: CodeServer | undefined;
  const browser = await launchBrowser('bench-big-page');
  try {
    server = await startCodeServer({ name: 'bench-big-page', vsix: vsixPath });
    const store = new ConversationStore(
      path.join(server.userDataDir, 'User', 'globalStorage', 'alpha-axo.alpha-axo', 'conversations'),
      silentLogger,
    );
    const workspace = pathToFileURL(server.workspaceDir).href;
    const big = conversation('Big history', MESSAGES, workspace, Date.now() - 10_000_000);
    await store.save(big);
    await store.save(conversation('Small talk', 20, workspace, Date.now() - 20_000_000));
    await store.idle();
    store.dispose();
    const page = await newPage(browser, 'bench-big-page');
    await openWorkbench(page, server.workbenchUrl());
    const before = await rendererHeapMb(page);
    const chat = await openChat(page);
    const frame = await chatContentFrame(page);
    const newest = big.messages[big.messages.length - 1].id;
    const pick = async (title: string): Promise<void> => {
      const list = chat.getByRole('list', { name: 'Conversations' });
      if (!(await list.isVisible())) {
        await chat.getByRole('button', { name: 'Show conversations' }).click();
      }
      await list.getByRole('button', { name: new RegExp(`^${title}\\b`) }).click();
    };
    const rounds: Round[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      await pick('Small talk');
      await poll(
        async () => !(await frame.evaluate((id) => !!document.querySelector(`article[data-id="${id}"]`), newest)),
        30_000,
        'the small conversation did not replace the big one',
      );
      await probe(frame, newest);
      const profiled = await startProfile(process.env.BIG_PAGE_PROFILE, page, frame);
      console.log(`  round ${round + 1}: switching`);
      await pick('Big history');
      await poll(async () => frame.evaluate(() => window.__switch.shownAt > 0), 60_000, 'the big one did not show');
      const shown = await frame.evaluate(() => ({ ...window.__switch, longTasks: [...window.__switch.longTasks] }));
      await frame.evaluate(() => (window.__switch.longTasks = []));
      const since = (at: number) => (at - shown.clickAt).toFixed(0);
      console.log(
        `  round ${round + 1}: state in after ${since(shown.stateAt)} ms, drawn after ${since(shown.drawnAt)} ms, shown after ${since(shown.shownAt)} ms; scrolling`,
      );
      const scroll = await scrollToTop(frame);
      console.log(`  round ${round + 1}: scrolled; the page holds ${scroll.held}`);
      const scrolled = await frame.evaluate(() => [...window.__switch.longTasks]);
      if (profiled) {
        console.log(`  round ${round + 1}: where the page's time went (switch and scroll)\n${await profiled()}`);
      }
      rounds.push({
        paintMs: shown.shownAt - shown.clickAt,
        switchTaskMs: Math.max(0, ...shown.longTasks),
        scrollTaskMs: Math.max(0, ...scrolled),
        scroll,
        heapMb: (await rendererHeapMb(page)) - before,
      });
    }
    const list = (values: number[]) => values.map((v) => v.toFixed(0)).join(', ');
    const paint = median(rounds.map((r) => r.paintMs));
    const scrollTask = Math.max(...rounds.map((r) => r.scrollTaskMs));
    const heap = Math.max(...rounds.map((r) => r.heapMb));
    return [
      loadRow,
      {
        name: `${MESSAGES.toLocaleString('en')} messages: switch to it, click → its newest screen painted (median of ${ROUNDS}; longest task in the switch ${list(rounds.map((r) => r.switchTaskMs))} ms)`,
        value: `${paint.toFixed(0)} ms (runs ${list(rounds.map((r) => r.paintMs))})`,
        target: `≤ ${PAINT_TARGET_MS} ms`,
        pass: paint <= PAINT_TARGET_MS,
      },
      {
        name: `${MESSAGES.toLocaleString('en')} messages: scroll from the bottom to the top a screen a frame (${rounds.map((r) => `${r.scroll.frames} frames${r.scroll.top ? '' : ', the top not reached in 60 s'}`).join('; ')}), longest webview task`,
        value: `${scrollTask.toFixed(0)} ms (runs ${list(rounds.map((r) => r.scrollTaskMs))})`,
        target: `≤ ${TASK_TARGET_MS} ms`,
        pass: scrollTask <= TASK_TARGET_MS,
      },
      {
        name: `${MESSAGES.toLocaleString('en')} messages shown and scrolled: the chat page's JS heap after a forced collection`,
        value: `${heap.toFixed(1)} MB (runs ${rounds.map((r) => r.heapMb.toFixed(1)).join(', ')})`,
        target: `≤ ${HEAP_TARGET_MB} MB`,
        pass: heap <= HEAP_TARGET_MB,
      },
    ];
  } finally {
    await browser.close();
    await server?.stop();
  }
}
