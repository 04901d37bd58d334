import * as assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import type { MessageView } from '../../../src/protocol/chatProtocol';
import { fakeConversation, openChatPage, postToPage, stateMessage } from '../../support/chatPage';
import { launchBrowser } from '../harness/browser';

/**
 * `window.scrollUp(within, blocks, maxSteps, afterStep)`: scrolls the log from its end up by 400 px per step (two
 * frames each) until its top or `maxSteps`, and lists each step in which the block being read (the one of `blocks`
 * in `within` nearest the middle of the view) did not move by exactly the scroll: a jump the reader sees. Content
 * drawn above may change scrollTop (scroll anchoring) without anything visible moving, so scrollTop is not the measure.
 */
const SCROLL_UP = `
window.frames2 = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
window.scrollUp = async (within, blocks, maxSteps, afterStep = () => undefined) => {
  const log = document.querySelector('main.log');
  log.scrollTop = log.scrollHeight;
  await frames2();
  const middle = () => {
    const y = log.getBoundingClientRect().top + log.clientHeight / 2;
    const away = (b) => {
      const box = b.getBoundingClientRect();
      return box.top > y ? box.top - y : box.bottom < y ? y - box.bottom : 0;
    };
    let best;
    for (const b of within.querySelectorAll(blocks)) if (!best || away(b) < away(best)) best = b;
    return best;
  };
  const jumps = [];
  let steps = 0;
  while (log.scrollTop > 0 && steps < maxSteps) {
    const read = middle() ?? within;
    const before = read.getBoundingClientRect().top;
    const from = log.scrollTop;
    log.scrollTop = from - 400;
    await frames2();
    const off = read.getBoundingClientRect().top - before - Math.min(400, from);
    if (Math.abs(off) > 2) jumps.push(Math.round(off));
    afterStep();
    steps++;
  }
  return { steps, jumps };
};
`;

/** Waits until the log holds `count` messages that are not on their way out. */
async function waitForMessages(page: Page, count: number): Promise<void> {
  await page.waitForFunction(
    (n) => (globalThis as unknown as Window).document.querySelectorAll('main.log article:not(.discarded)').length === n,
    count,
    { timeout: 60_000, polling: 50 },
  );
}

interface Window {
  postMessage(message: unknown, targetOrigin: string): void;
  document: { querySelectorAll(selector: string): { length: number } };
}

/**
 * The built chat page (dist/webview/chat.js and chat.css, as packaged) in Chromium, fed real protocol messages:
 * what a long conversation does to scrolling, and taking a very long reply off the page.
 */
describe('Chat page: long conversations and very long replies', function () {
  this.timeout(120_000);
  let browser: Browser | undefined;
  let page: Page;

  before(async () => {
    browser = await launchBrowser('chat-page');
    page = await openChatPage(browser);
    await page.addScriptTag({ content: SCROLL_UP });
  });
  after(async () => {
    await browser?.close();
  });

  it('keeps the message being read in place while older messages are drawn above it', async () => {
    await postToPage(page, stateMessage('first', fakeConversation(200)));
    // Scroll a little up into the newest messages before the older ones arrive. A freshly loaded page may draw only
    // the newest message in the state's task (drawRecent's budget) and the rest in idle slices: until there is room
    // to scroll, there is nothing to scroll up to, and a view the user has not scrolled follows its end.
    const moved = (await page.evaluate(`(async () => {
      const log = document.querySelector('main.log');
      while (log.scrollHeight - log.clientHeight < 600) await new Promise((r) => setTimeout(r, 5));
      log.scrollTop = log.scrollHeight - log.clientHeight - 300;
      await new Promise((r) => requestAnimationFrame(r));
      const top = log.getBoundingClientRect().top;
      const read = [...log.querySelectorAll('article')].find((a) => a.getBoundingClientRect().bottom > top + 50);
      const before = read.getBoundingClientRect().top;
      const atStart = log.querySelectorAll('article').length;
      while (log.querySelectorAll('article').length < 400) await new Promise((r) => setTimeout(r, 50));
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      return { atStart, moved: read.getBoundingClientRect().top - before };
    })()`)) as { atStart: number; moved: number };
    assert.ok(moved.atStart > 0 && moved.atStart < 400, `${moved.atStart} messages were drawn when reading began`);
    // Less than a pixel: scrollTop snaps to whole pixels, and the part each slice's correction could not make is
    // carried into the next (without that, 40 slices moved it by up to 4 px).
    assert.ok(Math.abs(moved.moved) < 1, `the message being read moved by ${moved.moved} px`);
  });

  it('scrolls up through 400 messages without jumps: every step moves what is read by exactly the scroll', async () => {
    await waitForMessages(page, 400);
    const result = (await page.evaluate(`scrollUp(document.querySelector('main.log'), 'article', 5000)`)) as {
      steps: number;
      jumps: number[];
    };
    assert.ok(result.steps > 50, `only ${result.steps} steps: the conversation is not as long as it should be`);
    assert.deepEqual(result.jumps, [], `the content jumped in ${result.jumps.length} of ${result.steps} steps`);
  });

  it("a long conversation's older messages come apart: asked for once its newest are drawn, then drawn above them", async () => {
    const all = fakeConversation(200).map((m) =>
      m.role === 'assistant' ? { ...m, usage: { input: 10, output: 20, reported: true } } : m,
    );
    const total = () => page.locator('.conversation-total').innerText();
    await postToPage(page, stateMessage('whole', all));
    await waitForMessages(page, 400);
    const wholeTotal = await total();
    assert.match(wholeTotal, /tokens/);
    // The same conversation as the host sends it: the newest 40, and how many come before them under key 5.
    const split = (id: string, key: number) => {
      const message = stateMessage(id, all.slice(360)) as { state: object };
      return { ...message, state: { ...message.state, older: { count: 360, key } } };
    };
    const asked = (key: number) =>
      page.waitForFunction(
        (k) =>
          (globalThis as unknown as { __posted: { type: string; key?: number }[] }).__posted.some(
            (m) => m.type === 'chat/older' && m.key === k,
          ),
        key,
        { timeout: 30_000, polling: 20 },
      );
    await postToPage(page, split('first', 4));
    await asked(4);
    // Another conversation is shown before the answer comes: the answer is for a state no longer drawn.
    await postToPage(page, split('second', 5));
    await postToPage(page, { type: 'chat/older', key: 4, messages: [{ ...all[0], id: 'stale' }], left: 0 });
    await asked(5);
    await waitForMessages(page, 40);
    assert.equal(await total(), '', 'a total of part of the conversation is not shown');
    // In two parts, the newest first: the first is drawn; the total waits for the last; a part again is ignored.
    const firstPart = { type: 'chat/older', key: 5, messages: all.slice(200, 360), left: 200 };
    await postToPage(page, firstPart);
    await waitForMessages(page, 200);
    assert.equal(await total(), '', 'a total of part of the conversation is not shown');
    await postToPage(page, firstPart);
    await postToPage(page, { type: 'chat/older', key: 5, messages: all.slice(0, 200), left: 0 });
    await postToPage(page, firstPart);
    await waitForMessages(page, 400);
    const ids = (await page.evaluate(
      `[...document.querySelectorAll('main.log article')].map((a) => a.getAttribute('data-id'))`,
    )) as string[];
    assert.deepEqual(
      ids,
      all.map((m) => m.id),
      'every message once, in order; the stale answer not drawn',
    );
    assert.equal(await total(), wholeTotal);
  });

  it('takes a reply of thousands of blocks off the page at once, its sections far out of view asleep', async () => {
    // About 780 KB: long enough for sections out of view to sleep (finishedBlocks.ts).
    const blocks = Array.from({ length: 20_000 }, (_, i) => `Paragraph ${i + 1} of a very long reply.`).join('\n\n');
    const long: MessageView[] = [
      { id: 'lu', role: 'user', content: 'Write a lot.', createdAt: 1 },
      { id: 'la', role: 'assistant', content: '', createdAt: 2, status: 'streaming' },
    ];
    await postToPage(page, stateMessage('long', long));
    await postToPage(page, {
      type: 'chat/started',
      requestId: 7,
      user: { id: 'lu2', role: 'user', content: 'More.', createdAt: 3 },
      reply: { id: 'la2', role: 'assistant', content: '', createdAt: 4, status: 'streaming' },
      budget: { usedTokens: 0, limitTokens: 200_000 },
      conversations: [],
    });
    await postToPage(page, { type: 'chat/delta', requestId: 7, text: blocks });
    await postToPage(page, { type: 'chat/done', requestId: 7, status: 'done' });
    await page.waitForFunction(
      `document.querySelectorAll('main.log > article:last-of-type .blocks > .section').length > 1 &&
        !document.querySelector('.live-block')`,
      undefined,
      { timeout: 30_000 },
    );
    const shown = await page.evaluate(`document.querySelector('main.log > article:last-of-type').textContent`);
    assert.match(shown as string, /Paragraph 20000 of a very long reply\./);
    // Sections the page no longer draws sleep: only their height stays on the page.
    await paragraphsBelow(page, 'main.log > article:last-of-type', 3_000);

    // Read in the task that draws the new state: a listener added after the page's runs right after it, before any
    // idle callback (posting, then reading in a later evaluate, let a busy machine's idle time remove the reply first).
    const right = (await page.evaluate(
      (message) =>
        new Promise((resolve) => {
          const w = globalThis as unknown as {
            addEventListener(type: string, listener: () => void, options: { once: boolean }): void;
            postMessage(message: unknown, targetOrigin: string): void;
            document: {
              querySelector(s: string): {
                getAttribute(n: string): string | null;
                getBoundingClientRect(): { height: number };
                dataset: Record<string, string>;
              } | null;
              querySelectorAll(s: string): ArrayLike<{ closest(s: string): unknown }>;
            };
          };
          w.addEventListener(
            'message',
            () => {
              const gone = w.document.querySelector('main.log > .discarded');
              resolve({
                hidden: gone ? gone.getAttribute('aria-hidden') : 'removed',
                height: gone ? gone.getBoundingClientRect().height : 0,
                visible: Array.from(w.document.querySelectorAll('main.log article')).filter(
                  (a) => !a.closest('.discarded'),
                ).length,
                last: w.document.querySelector('main.log > article:last-of-type')?.dataset.id,
              });
            },
            { once: true },
          );
          w.postMessage(message, '*');
        }),
      stateMessage('short', fakeConversation(2)),
    )) as { hidden: string | null; height: number; visible: number; last?: string };
    // Not removed in the state's own task (that is one long task for a reply of megabytes), but hidden at once.
    assert.equal(right.hidden, 'true', 'the long reply is hidden from assistive technology at once, removed later');
    assert.equal(right.height, 0, 'the long reply takes no room while it goes');
    assert.equal(right.visible, 4, 'the new conversation is shown at once');
    assert.equal(right.last, 'a1', "the new conversation's last message is the log's last, not the one going");
    await page.waitForFunction(`!document.querySelector('main.log > .discarded')`, undefined, { timeout: 30_000 });
    await waitForMessages(page, 4);
    const texts = await page.evaluate(`[...document.querySelectorAll('main.log article')].map((a) => a.dataset.id)`);
    assert.deepEqual(texts, ['u0', 'a0', 'u1', 'a1']);
  });

  it('draws a reply of thousands of blocks from history over several frames; its sections sleep and wake without a jump', async () => {
    // About 600 KB of paragraphs and code blocks (code is highlighted and gets its toolbar only when first shown).
    const count = 24_001;
    const blocks = Array.from({ length: count }, (_, i) =>
      i % 3 === 2 ? `\`\`\`ts\nconst n${i + 1} = ${i + 1};\n\`\`\`` : `Paragraph ${i + 1} from history.`,
    ).join('\n\n');
    const paragraphs = count - Math.floor(count / 3);
    const saved: MessageView[] = [
      { id: 'hu', role: 'user', content: 'Write a lot.', createdAt: 1 },
      { id: 'ha', role: 'assistant', content: blocks, createdAt: 2, status: 'done' },
    ];
    await postToPage(page, stateMessage('history', saved));
    // Right after the state message only a part is drawn; the rest follows frame by frame.
    await page.waitForFunction(`document.querySelector('main.log article[data-id="ha"]') !== null`, undefined, {
      polling: 'raf',
    });
    const partial = (await page.evaluate(
      `document.querySelector('main.log article[data-id="ha"]').textContent.includes('Paragraph ${count} from history.')`,
    )) as boolean;
    assert.equal(partial, false, "the whole reply was drawn in the state message's own task");
    await page.waitForFunction(
      `document.querySelector('main.log > article:last-of-type').textContent.includes('Paragraph ${count} from history.') &&
        !document.querySelector('.live-block')`,
      undefined,
      { timeout: 60_000 },
    );
    await paragraphsBelow(page, 'article[data-id="ha"]', 2_000);

    // Up through the end of the reply a step at a time, as a reader scrolls (sections wake before they come into
    // view; the block being read moves by exactly the scroll in every step), then to its start.
    const result = (await page.evaluate(`(async () => {
      const log = document.querySelector('main.log');
      const reply = log.querySelector('article[data-id="ha"]');
      let most = 0;
      let woken = 0;
      reply.addEventListener('contentvisibilityautostatechange', (e) => {
        if (!e.skipped && e.target.classList.contains('section') && e.target.childElementCount === 0) woken++;
      }, true);
      const { steps, jumps } = await scrollUp(reply, '.chunk > *', 150, () => {
        most = Math.max(most, reply.querySelectorAll('p').length);
      });
      log.scrollTop = 0;
      const first = () => reply.querySelector('.blocks p');
      for (let i = 0; i < 100 && first()?.textContent !== 'Paragraph 1 from history.'; i++) await frames2();
      await frames2();
      const top = log.getBoundingClientRect().top;
      const box = first()?.getBoundingClientRect();
      return {
        steps,
        jumps,
        most,
        woken,
        first: first()?.textContent,
        firstShown: !!box && box.bottom > top && box.top < top + log.clientHeight,
        toolbar: !!reply.querySelector('.blocks .code-block .code-toolbar button[data-code-action="copy"]'),
        now: reply.querySelectorAll('p').length,
      };
    })()`)) as {
      steps: number;
      jumps: number[];
      most: number;
      woken: number;
      first: string;
      firstShown: boolean;
      toolbar: boolean;
      now: number;
    };
    assert.equal(result.steps, 150, 'the reply is not as long as it should be');
    assert.ok(result.woken >= 3, `${result.woken} sleeping sections were drawn again on the way up`);
    assert.deepEqual(result.jumps, [], `the content jumped in ${result.jumps.length} of ${result.steps} steps`);
    assert.equal(result.first, 'Paragraph 1 from history.', 'the reply is drawn again from its start');
    assert.ok(result.firstShown, 'the first paragraph is in view at the top');
    assert.ok(result.toolbar, 'code blocks drawn again get their toolbars when shown');
    const limit = paragraphs / 8;
    assert.ok(
      result.most < limit,
      `${result.most} of ${paragraphs} paragraphs were on the page at once while scrolling`,
    );
    assert.ok(result.now < limit, `${result.now} of ${paragraphs} paragraphs on the page at the top`);
  });
});

/** Waits until the element at `selector` holds fewer than `limit` paragraphs (its far sections went to sleep). */
async function paragraphsBelow(page: Page, selector: string, limit: number): Promise<void> {
  await page.waitForFunction(
    ([s, n]) => (globalThis as unknown as Window).document.querySelectorAll(`${s} p`).length < n,
    [selector, limit] as const,
    { timeout: 30_000, polling: 100 },
  );
}
