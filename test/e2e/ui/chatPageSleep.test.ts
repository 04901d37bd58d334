import * as assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import type { MessageView } from '../../../src/protocol/chatProtocol';
import { chatReply, longReply } from '../../fakeService/chatContent';
import { openChatPage, postToPage, stateMessage } from '../../support/chatPage';
import { launchBrowser } from '../harness/browser';

/** More messages than the page keeps awake (SLEEP_AFTER_MESSAGES is 1,000 older ones). */
const TURNS = 600;
/** The one word only a single old reply holds. */
const RARE = 'quetzalcoatl';

/** A conversation of TURNS prompts and replies (every fiftieth a long one with code; reply 7 holds RARE). */
function conversation(): MessageView[] {
  const messages: MessageView[] = [];
  for (let turn = 0; turn < TURNS; turn++) {
    const prompt = `Question ${turn + 1}: how would I write a greeting function?`;
    const body = turn % 50 === 0 ? longReply(1500) : chatReply([{ role: 'user', content: prompt }]);
    const reply = turn === 7 ? `${body}\n\nA ${RARE} flew by.` : body;
    messages.push({ id: `u${turn}`, role: 'user', content: prompt, createdAt: turn * 2 });
    messages.push({ id: `a${turn}`, role: 'assistant', content: reply, createdAt: turn * 2 + 1, status: 'done' });
  }
  return messages;
}

/**
 * Shows `messages` as conversation `id` the way the host sends a long one: the newest 40 in the state, then, once the
 * page asks, the older ones in parts of 300, the newest first (under `key`).
 */
async function showAsTheHostSends(page: Page, id: string, messages: MessageView[], key: number): Promise<void> {
  const count = messages.length - 40;
  const message = stateMessage(id, messages.slice(count)) as { state: object };
  await postToPage(page, { ...message, state: { ...message.state, older: { count, key } } });
  await page.waitForFunction(`window.__posted.some((m) => m.type === 'chat/older' && m.key === ${key})`, undefined, {
    timeout: 30_000,
    polling: 20,
  });
  for (let end = count; end > 0; end -= 300) {
    const start = Math.max(0, end - 300);
    await postToPage(page, { type: 'chat/older', key, messages: messages.slice(start, end), left: start });
  }
}

/**
 * Notes in `window[name]` the slice that goes into the log holding message `id` (it may leave the document again
 * before anyone looks).
 */
async function noteSliceOf(page: Page, id: string, name: string): Promise<void> {
  await page.evaluate(`new MutationObserver((records) => {
    for (const r of records) for (const n of r.addedNodes) {
      if (n.querySelector && n.querySelector('article[data-id="${id}"]')) window.${name} = n;
    }
  }).observe(document.querySelector('main.log'), { childList: true })`);
}

/** The slices of older messages, and how many of them sleep (no elements of their own). */
const SLICES = `(() => {
  const slices = [...document.querySelectorAll('main.log > .older-messages')];
  return { slices: slices.length, asleep: slices.filter((s) => s.childElementCount === 0).length,
    articles: document.querySelectorAll('main.log article').length };
})()`;

interface Slices {
  slices: number;
  asleep: number;
  articles: number;
}

/** Two frames: what a scroll or a key did has been drawn (and the page told which slices it skips). */
const TWO_FRAMES = 'new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))';

/** Waits until every message is drawn (the last slice holds the first message) and some slices sleep. */
async function waitForSlicesOut(page: Page, slices: number): Promise<Slices> {
  await page.waitForFunction(
    `(() => { const s = ${SLICES}; return s.slices === ${slices} && s.asleep > 0; })()`,
    undefined,
    { timeout: 60_000, polling: 100 },
  );
  return (await page.evaluate(SLICES)) as Slices;
}

/**
 * A conversation of over a thousand messages on the built chat page (as packaged), in Chromium: its slices of older
 * messages far from the view sleep (their elements out of the document), and whatever looks for those messages
 * wakes them: scrolling (without a jump), Ctrl+Up, find.
 */
describe('Chat page: the older messages of a very long conversation sleep far from the view', function () {
  this.timeout(180_000);
  let browser: Browser | undefined;
  let page: Page;
  const all = conversation();
  let slices = 0;

  before(async () => {
    browser = await launchBrowser('chat-page-sleep');
    page = await openChatPage(browser, '', 'view');
    await noteSliceOf(page, 'u0', '__firstSlice');
    // As the host sends it: the newest 40, then, once the page asks, the older ones in parts, the newest first. The
    // first slices are drawn before the page knows how long the conversation is.
    await showAsTheHostSends(page, 'long', all, 9);
    // drawRecent draws the newest (at most 12) at once; the rest go in slices of up to 10, the last holding the first.
    await page.waitForFunction('!!window.__firstSlice', undefined, { timeout: 60_000, polling: 100 });
    slices = ((await page.evaluate(SLICES)) as Slices).slices;
  });
  after(async () => {
    await browser?.close();
  });

  it('takes far-off slices out of the document, keeping the height of the log', async () => {
    const height = (await page.evaluate(`document.querySelector('main.log').scrollHeight`)) as number;
    const state = await waitForSlicesOut(page, slices);
    assert.ok(state.asleep > slices / 2, `${state.asleep} of ${state.slices} slices sleep`);
    assert.ok(state.articles < all.length / 2, `${state.articles} of ${all.length} messages are in the document`);
    const after = (await page.evaluate(`document.querySelector('main.log').scrollHeight`)) as number;
    assert.ok(Math.abs(after - height) < 2, `the log's height went from ${height} to ${after} px`);
  });

  it("lets go of a sleeping slice's messages and draws them again, the same messages at the same height, when it wakes", async () => {
    // A slice in the middle, shown (so awake), its messages noted; then the view goes to the end and it sleeps.
    const before = (await page.evaluate(`(async () => {
      const slices = [...document.querySelectorAll('main.log > .older-messages')];
      const slice = (window.__middle = slices[Math.floor(slices.length / 2)]);
      slice.scrollIntoView();
      while (slice.childElementCount === 0) await ${TWO_FRAMES};
      window.__oldArticle = slice.querySelector('article');
      const log = document.querySelector('main.log');
      const result = { ids: [...slice.querySelectorAll('article')].map((a) => a.getAttribute('data-id')),
        text: window.__oldArticle.querySelector('.content').textContent, height: slice.getBoundingClientRect().height };
      log.scrollTop = log.scrollHeight;
      return result;
    })()`)) as { ids: string[]; text: string; height: number };
    await page.waitForFunction('window.__middle.childElementCount === 0', undefined, { timeout: 30_000, polling: 50 });
    assert.equal(await page.evaluate('window.__oldArticle.isConnected'), false);
    assert.ok(before.ids.length > 0, 'the slice held messages');
    const after = (await page.evaluate(`(async () => {
      const slice = window.__middle;
      const height = slice.getBoundingClientRect().height;
      slice.scrollIntoView();
      while (slice.childElementCount === 0) await ${TWO_FRAMES};
      const first = slice.querySelector('article');
      return { ids: [...slice.querySelectorAll('article')].map((a) => a.getAttribute('data-id')), asleepHeight: height,
        text: first.querySelector('.content').textContent, same: first === window.__oldArticle,
        height: slice.getBoundingClientRect().height };
    })()`)) as { ids: string[]; text: string; same: boolean; height: number; asleepHeight: number };
    assert.equal(after.same, false, 'the messages were drawn again, not kept');
    assert.deepEqual(after.ids, before.ids);
    assert.equal(after.text, before.text);
    assert.ok(
      Math.abs(after.asleepHeight - before.height) < 1,
      `asleep ${after.asleepHeight} px, was ${before.height}`,
    );
    assert.ok(Math.abs(after.height - before.height) < 1, `drawn again ${after.height} px, was ${before.height}`);
  });

  it('keeps the elements of a sleeping slice that holds an edit in progress: the words typed are still there', async () => {
    const id = (await page.evaluate(`(async () => {
      const slice = window.__middle;
      slice.scrollIntoView();
      while (slice.childElementCount === 0) await ${TWO_FRAMES};
      const prompt = slice.querySelector('article.user');
      prompt.querySelector('button[aria-label="Edit and resend"]').click();
      return prompt.getAttribute('data-id');
    })()`)) as string;
    const box = page.getByRole('textbox', { name: 'Edit message' });
    await box.fill('A draft the user is still writing');
    // The focus and the selection leave the edit (a slice holding either is never skipped, so never sleeps), and the
    // view goes to the end.
    await page.locator('main.log').focus();
    await page.evaluate(`(() => {
      window.__box = document.querySelector('textarea.edit-box');
      getSelection().removeAllRanges();
      const log = document.querySelector('main.log');
      log.scrollTop = log.scrollHeight;
    })()`);
    await page.waitForFunction('window.__middle.childElementCount === 0', undefined, { timeout: 30_000, polling: 50 });
    const woken = (await page.evaluate(`(async () => {
      const slice = window.__middle;
      slice.scrollIntoView();
      while (slice.childElementCount === 0) await ${TWO_FRAMES};
      const box = slice.querySelector('article[data-id="${id}"] textarea.edit-box');
      return { same: box === window.__box, value: box?.value };
    })()`)) as { same: boolean; value: string };
    assert.deepEqual(woken, { same: true, value: 'A draft the user is still writing' });
    await box.press('Escape');
  });

  it('wakes each slice as it nears the view: scrolling up to the first message moves what is read by exactly the scroll', async () => {
    const result = (await page.evaluate(`(async () => {
      const log = document.querySelector('main.log');
      log.scrollTop = log.scrollHeight;
      await ${TWO_FRAMES};
      const jumps = [];
      let steps = 0;
      while (log.scrollTop > 0 && steps < 4000) {
        // The article nearest the middle of the view is what is read.
        const y = log.getBoundingClientRect().top + log.clientHeight / 2;
        const away = (a) => {
          const box = a.getBoundingClientRect();
          return box.top > y ? box.top - y : box.bottom < y ? y - box.bottom : 0;
        };
        let read = log;
        for (const a of log.querySelectorAll('article')) if (read === log || away(a) < away(read)) read = a;
        const before = read.getBoundingClientRect().top;
        const from = log.scrollTop;
        log.scrollTop = from - 800;
        await ${TWO_FRAMES};
        const off = read.getBoundingClientRect().top - before - Math.min(800, from);
        if (Math.abs(off) > 2) jumps.push(Math.round(off));
        steps++;
      }
      return { steps, jumps, first: log.querySelector('article')?.getAttribute('data-id') };
    })()`)) as { steps: number; jumps: number[]; first: string };
    assert.ok(result.steps > 100, `only ${result.steps} steps`);
    assert.deepEqual(result.jumps, [], `the content jumped in ${result.jumps.length} of ${result.steps} steps`);
    assert.equal(result.first, 'u0', 'the first message is drawn at the top');
  });

  it('Ctrl+Up from the first message of a slice moves to the last of the sleeping one above it', async () => {
    // A slice in the middle, shown (so awake) and focused at its first message; then the view goes to the end and
    // the slice above sleeps (the focused one does not).
    const picked = (await page.evaluate(`(async () => {
      const slices = [...document.querySelectorAll('main.log > .older-messages')];
      const index = Math.floor(slices.length / 2);
      const slice = slices[index];
      slice.scrollIntoView();
      await ${TWO_FRAMES};
      while (slice.childElementCount === 0) await ${TWO_FRAMES};
      const first = slice.querySelector('article');
      first.focus({ preventScroll: true });
      const log = document.querySelector('main.log');
      log.scrollTop = log.scrollHeight;
      window.__above = slices[index - 1];
      return first.getAttribute('data-id');
    })()`)) as string;
    await page.waitForFunction('window.__above.childElementCount === 0', undefined, { timeout: 30_000, polling: 50 });
    const focusedBefore = (await page.evaluate(`document.activeElement?.getAttribute('data-id')`)) as string;
    assert.equal(focusedBefore, picked, 'the focused slice stayed awake');
    await page.keyboard.press('Control+ArrowUp');
    const expected = all[all.findIndex((m) => m.id === picked) - 1].id;
    const focused = (await page.evaluate(`document.activeElement?.getAttribute('data-id')`)) as string;
    assert.equal(focused, expected, 'the focus moved to the message just above, in the slice that slept');
    await page.keyboard.press('Control+ArrowDown');
    assert.equal(await page.evaluate(`document.activeElement?.getAttribute('data-id')`), picked);
  });

  it('find searches the messages of sleeping slices too, and shows the match', async () => {
    await page.evaluate(
      `(() => { const log = document.querySelector('main.log'); log.scrollTop = log.scrollHeight; })()`,
    );
    // The slice holding reply 7 sleeps once the view is at the end.
    await page.waitForFunction(`!document.querySelector('main.log article[data-id="a7"]')`, undefined, {
      timeout: 30_000,
      polling: 50,
    });
    await page.locator('main.log').focus();
    await page.keyboard.press('Control+F');
    const input = page.getByRole('textbox', { name: 'Find in conversation' });
    await input.waitFor({ state: 'visible', timeout: 10_000 });
    // At once (typed, each letter would wake the slices its prefix may be in, until the next letter came).
    await input.fill(RARE);
    await page.waitForFunction(`document.querySelector('.find-bar .find-count')?.textContent === '1 of 1'`, undefined, {
      timeout: 30_000,
      polling: 50,
    });
    const current = (await page.evaluate(`(() => {
      const range = [...CSS.highlights.get('alpha-find-current')][0];
      const log = document.querySelector('main.log').getBoundingClientRect();
      const box = range.getBoundingClientRect();
      return { text: range.toString(), inView: box.top >= log.top && box.bottom <= log.bottom,
        in: range.startContainer.parentElement.closest('article').getAttribute('data-id') };
    })()`)) as { text: string; inView: boolean; in: string };
    assert.deepEqual(current, { text: RARE, inView: true, in: 'a7' });
    // Only the slices whose messages may hold the text woke (each one woken is drawn again from its messages).
    const state = (await page.evaluate(SLICES)) as Slices;
    assert.ok(state.asleep > state.slices / 2, `${state.asleep} of ${state.slices} slices still sleep`);
    // While the bar is open nothing sleeps: the match stays on the page.
    await page.evaluate(
      `(() => { const log = document.querySelector('main.log'); log.scrollTop = log.scrollHeight; })()`,
    );
    // Two frames (the page is told what it skips), then idle twice: a slice put to sleep would be asleep by then.
    await page.evaluate(
      `${TWO_FRAMES}.then(() => new Promise((r) => requestIdleCallback(() => requestIdleCallback(r))))`,
    );
    assert.equal(await page.evaluate(`!!document.querySelector('main.log article[data-id="a7"]')`), true);
  });

  it('find typed letter by letter, each letter overtaking the search of the one before, still finds the match in a sleeping slice', async () => {
    const input = page.getByRole('textbox', { name: 'Find in conversation' });
    await input.press('Escape');
    await page.waitForFunction(`document.querySelector('.find-bar').hidden`, undefined, { timeout: 10_000 });
    // Woken by the find before, the slice holding reply 7 sleeps again once it is shown and the view leaves it.
    await page.evaluate(`(async () => {
      document.querySelector('main.log article[data-id="a7"]').scrollIntoView();
      await ${TWO_FRAMES};
      const log = document.querySelector('main.log');
      log.scrollTop = log.scrollHeight;
    })()`);
    await page.waitForFunction(`!document.querySelector('main.log article[data-id="a7"]')`, undefined, {
      timeout: 30_000,
      polling: 50,
    });
    await page.locator('main.log').focus();
    await page.keyboard.press('Control+F');
    await input.waitFor({ state: 'visible', timeout: 10_000 });
    // The bar opens with the last query selected: typing replaces it, a letter at a time ("q" may be in every slice).
    await page.keyboard.type(RARE);
    await page.waitForFunction(`document.querySelector('.find-bar .find-count')?.textContent === '1 of 1'`, undefined, {
      timeout: 30_000,
      polling: 50,
    });
    const current = (await page.evaluate(
      `[...CSS.highlights.get('alpha-find-current')][0].startContainer.parentElement.closest('article').getAttribute('data-id')`,
    )) as string;
    assert.equal(current, 'a7');
  });

  it('a branch switch on an old message keeps the focus on its switch once the page is drawn again, though its slice slept', async () => {
    // Reply 560 has two versions; its slice is in the first part of the older messages, long asleep when the last
    // part is drawn (the moment the page looks for it to give it the focus).
    // The find bar of the test before is closed (while it is open, nothing sleeps).
    await page.getByRole('textbox', { name: 'Find in conversation' }).press('Escape');
    await page.waitForFunction(`document.querySelector('.find-bar').hidden`, undefined, { timeout: 10_000 });
    const versioned = all.map((m) => (m.id === 'a560' ? { ...m, branch: { index: 1, count: 2 } } : m));
    // Its slice is noted as it goes in, then shown: it wakes.
    await noteSliceOf(page, 'a560', '__slice560');
    await showAsTheHostSends(page, 'versions', versioned, 10);
    await page.waitForFunction('!!window.__slice560', undefined, { timeout: 60_000, polling: 50 });
    await page.evaluate(`window.__slice560.scrollIntoView()`);
    await page.waitForFunction(`!!document.querySelector('main.log article[data-id="a560"] .branch-next')`, undefined, {
      timeout: 30_000,
      polling: 50,
    });
    await page.evaluate(`document.querySelector('main.log article[data-id="a560"]').scrollIntoView()`);
    await page.locator('main.log article[data-id="a560"] .branch-next').click();
    await page.waitForFunction(
      `window.__posted.some((m) => m.type === 'chat/branch' && m.messageId === 'a560' && m.step === 1)`,
      undefined,
      { timeout: 10_000, polling: 20 },
    );
    // The host's answer: the same conversation with the other version in that place, drawn again from its end.
    const switched = versioned.map((m) =>
      m.id === 'a560' ? { ...m, id: 'a560b', content: 'The other version.', branch: { index: 2, count: 2 } } : m,
    );
    await showAsTheHostSends(page, 'versions', switched, 11);
    await page.waitForFunction(
      `document.activeElement?.closest('article')?.getAttribute('data-id') === 'a560b'`,
      undefined,
      { timeout: 60_000, polling: 50 },
    );
    const focus = (await page.evaluate(`(() => {
      const article = document.querySelector('main.log article[data-id="a560b"]');
      const box = article.getBoundingClientRect();
      const log = document.querySelector('main.log').getBoundingClientRect();
      return { button: document.activeElement.className, inView: box.bottom > log.top && box.top < log.bottom };
    })()`)) as { button: string; inView: boolean };
    assert.match(focus.button, /branch-previous/, 'the switch that can still be used (the next is at its end)');
    assert.equal(focus.inView, true, 'the switched message is scrolled into view');
  });
});
