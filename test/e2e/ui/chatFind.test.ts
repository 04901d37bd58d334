import * as assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import type { MessageView } from '../../../src/protocol/chatProtocol';
import { openChatPage, postToPage, stateMessage } from '../../support/chatPage';
import { launchBrowser } from '../harness/browser';

/** What the find bar shows, and what the page has marked. */
interface FindState {
  open: boolean;
  count: string;
  marked: number;
  current: string;
  /** The current match lies inside the log's visible box. */
  currentInView: boolean;
  scrollTop: number;
}

const READ_FIND = `(() => {
  const bar = document.querySelector('.find-bar');
  const log = document.querySelector('main.log');
  const all = CSS.highlights.get('alpha-find');
  const current = CSS.highlights.get('alpha-find-current');
  const range = current ? [...current][0] : undefined;
  const box = range?.getBoundingClientRect();
  const view = log.getBoundingClientRect();
  return {
    open: !bar.hidden,
    count: bar.querySelector('.find-count').textContent,
    marked: all ? all.size : 0,
    current: range ? range.toString() : '',
    currentInView: !!box && !!range.startContainer.isConnected && box.top >= view.top && box.bottom <= view.bottom,
    scrollTop: log.scrollTop,
  };
})()`;

async function findState(page: Page): Promise<FindState> {
  return (await page.evaluate(READ_FIND)) as FindState;
}

/** Waits until the find bar's count reads `count`. */
async function waitForCount(page: Page, count: string): Promise<void> {
  await page.waitForFunction(
    `document.querySelector('.find-bar .find-count')?.textContent === ${JSON.stringify(count)}`,
    undefined,
    { timeout: 30_000, polling: 50 },
  );
}

/** Two frames: what a key did has been drawn. */
const TWO_FRAMES = 'new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))';

/** Where the last paragraph of the log's last message is, from the top of the log's box (what the reader sees). */
const LAST_PARAGRAPH_TOP = `(() => {
  const log = document.querySelector('main.log');
  const last = [...log.querySelectorAll('article:last-of-type p')].at(-1);
  return last.getBoundingClientRect().top - log.getBoundingClientRect().top;
})()`;

/** LAST_PARAGRAPH_TOP once two readings two frames apart agree. */
async function settledTop(page: Page): Promise<number> {
  let last = Number.NaN;
  for (let i = 0; i < 50; i++) {
    await page.evaluate(TWO_FRAMES);
    const now = (await page.evaluate(LAST_PARAGRAPH_TOP)) as number;
    if (Math.abs(now - last) <= 1) {
      return now;
    }
    last = now;
  }
  throw new Error(`the last paragraph did not settle (last at ${last} px)`);
}

/**
 * Find in the conversation on the built chat page (as packaged), in Chromium, fed protocol messages: the side view's
 * bar, and what it does with the sleeping parts of a very long reply. The editor tab's VS Code find widget is checked
 * through code-server in chatFlows.test.ts.
 */
describe('Chat page: find in the conversation', function () {
  this.timeout(120_000);
  let browser: Browser | undefined;

  before(async () => {
    browser = await launchBrowser('chat-find');
  });
  after(async () => {
    await browser?.close();
  });

  it('Ctrl+F in the side view finds every match, steps through them both ways, and says when there is none', async () => {
    const page = await openChatPage(browser as Browser, '', 'view');
    const messages: MessageView[] = [];
    for (let i = 0; i < 30; i++) {
      messages.push({ id: `u${i}`, role: 'user', content: `Question ${i}`, createdAt: i * 2 });
      const fruit = i === 2 || i === 15 ? ' An **Apple** a day, and another apple.' : '';
      messages.push({
        id: `a${i}`,
        role: 'assistant',
        content: `Answer ${i}.${fruit}\n\n\`\`\`ts\nconst x${i} = ${i};\n\`\`\``,
        createdAt: i * 2 + 1,
        status: 'done',
      });
    }
    await postToPage(page, stateMessage('fruit', messages));
    await page.locator('main.log').focus();
    await page.keyboard.press('Control+F');
    const input = page.getByRole('textbox', { name: 'Find in conversation' });
    await input.waitFor({ state: 'visible', timeout: 10_000 });
    assert.equal(await page.evaluate(`document.activeElement?.classList.contains('find-input')`), true);
    await page.keyboard.type('apple');
    // Four: two replies (one drawn later, in an idle slice of older messages) × "Apple" and "apple".
    await waitForCount(page, '1 of 4');
    let state = await findState(page);
    assert.equal(state.marked, 4);
    assert.equal(state.current, 'Apple', 'case is ignored');
    assert.ok(state.currentInView, 'the first match is scrolled into view');
    await page.keyboard.press('Enter');
    await waitForCount(page, '2 of 4');
    await page.keyboard.press('Enter');
    await waitForCount(page, '3 of 4');
    state = await findState(page);
    assert.ok(state.currentInView, 'the third match, in another reply, is scrolled into view');
    await page.keyboard.press('Shift+Enter');
    await waitForCount(page, '2 of 4');
    await page.getByRole('button', { name: 'Previous match' }).click();
    await page.getByRole('button', { name: 'Previous match' }).click();
    await waitForCount(page, '4 of 4');
    await page.getByRole('button', { name: 'Next match' }).click();
    await waitForCount(page, '1 of 4');

    // A match may cross formatting within a paragraph ("An **Apple** a day"), never a block's end.
    await input.fill('an apple a day');
    await waitForCount(page, '1 of 2');
    state = await findState(page);
    assert.equal(state.marked, 2);
    assert.equal(state.current, 'An Apple a day');
    await input.fill('apple.const');
    await waitForCount(page, 'No results');

    await input.fill('no such words');
    await waitForCount(page, 'No results');
    assert.equal((await findState(page)).marked, 0);
    await page.close();
  });

  it("finds a match among a long conversation's older messages, waiting for them rather than saying there is none", async () => {
    const page = await openChatPage(browser as Browser, '', 'view');
    const messages: MessageView[] = [];
    for (let i = 0; i < 50; i++) {
      messages.push({ id: `u${i}`, role: 'user', content: `Question ${i}`, createdAt: i * 2 });
      const animal = i === 1 ? ' A zebra crossed.' : '';
      messages.push({
        id: `a${i}`,
        role: 'assistant',
        content: `Answer ${i}.${animal}`,
        createdAt: i * 2 + 1,
        status: 'done',
      });
    }
    // As the host sends a long conversation: the newest 40, and 60 older ones on request (key 3).
    const state = stateMessage('zoo', messages.slice(60)) as { state: object };
    await postToPage(page, { ...state, state: { ...state.state, older: { count: 60, key: 3 } } });
    await page.waitForFunction(`window.__posted.some((m) => m.type === 'chat/older' && m.key === 3)`, undefined, {
      timeout: 30_000,
      polling: 20,
    });
    await page.locator('main.log').focus();
    await page.keyboard.press('Control+F');
    await page.keyboard.type('zebra');
    await page.evaluate(TWO_FRAMES);
    assert.notEqual((await findState(page)).count, 'No results', 'no verdict before the older messages came');
    await postToPage(page, { type: 'chat/older', key: 3, messages: messages.slice(0, 60), left: 0 });
    await waitForCount(page, '1 of 1');
    const found = await findState(page);
    assert.equal(found.current, 'zebra');
    assert.ok(found.currentInView, 'the match, in the second reply, is scrolled into view');
    await page.close();
  });

  it('wakes the sleeping part of a very long reply that holds the match; Esc closes and restores the scroll', async () => {
    const page = await openChatPage(browser as Browser, '', 'view');
    // About 600 KB: long enough for sections out of view to sleep (finishedBlocks.ts); one word near the start, in
    // part bold: its Markdown holds the query only once the marks are left out.
    const count = 24_001;
    const blocks = Array.from({ length: count }, (_, i) =>
      i === 40 ? 'Here the **zebra**corn hides.' : `Paragraph ${i + 1} of a long reply.`,
    ).join('\n\n');
    await postToPage(
      page,
      stateMessage('long', [
        { id: 'lu', role: 'user', content: 'Write a lot.', createdAt: 1 },
        { id: 'la', role: 'assistant', content: blocks, createdAt: 2, status: 'done' },
      ]),
    );
    await page.waitForFunction(
      `document.querySelector('main.log > article:last-of-type')?.textContent.includes('Paragraph ${count} of a long reply.') &&
        !document.querySelector('.live-block')`,
      undefined,
      { timeout: 60_000 },
    );
    // The start of the reply, far above the end that is shown, goes to sleep: its text leaves the page.
    await page.waitForFunction(
      `!document.querySelector('main.log article[data-id="la"]')?.textContent?.includes('corn hides')`,
      undefined,
      { timeout: 30_000, polling: 100 },
    );
    // Read once the page has drawn what it holds: a chunk appended in the reply's last frame has its placeholder
    // height (contain-intrinsic-size) until a frame lays it out, which put its one paragraph 560 px too high.
    const lastTop = await settledTop(page);
    const scrollTop = (await findState(page)).scrollTop;
    assert.ok(scrollTop > 10_000, 'the view is at the end of the reply');

    await page.locator('main.log').focus();
    await page.keyboard.press('Control+F');
    await page.keyboard.type('the zebracorn');
    await waitForCount(page, '1 of 1');
    const state = await findState(page);
    assert.equal(state.current, 'the zebracorn');
    assert.ok(state.currentInView, 'the woken section is drawn and its match in view');
    assert.ok(state.scrollTop < scrollTop, 'the view moved up to the match');
    // It stays on the page while the bar is open (nothing puts it back to sleep meanwhile).
    await page.evaluate(TWO_FRAMES);
    await page.evaluate(TWO_FRAMES);
    assert.ok((await findState(page)).currentInView);

    await page.keyboard.press('Escape');
    await page.waitForFunction(`document.querySelector('.find-bar').hidden`, undefined, { timeout: 10_000 });
    const closed = await findState(page);
    assert.equal(closed.marked, 0, 'the highlights are gone');
    assert.equal(closed.current, '');
    // What was read is where it was: the end of the reply, at the same place in the view.
    const lastTopAfter = await settledTop(page);
    assert.ok(
      Math.abs(lastTopAfter - lastTop) <= 2,
      `the view is back (${lastTopAfter} vs ${lastTop} px from the top)`,
    );

    // One letter found everywhere: the bar marks the first 10,000 matches and says there are more.
    await page.keyboard.press('Control+F');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('a');
    await waitForCount(page, '1 of 10000+');
    assert.equal((await findState(page)).marked, 10_000);
    await page.keyboard.press('Shift+Enter');
    await waitForCount(page, '10000 of 10000+');
    await page.close();
  });

  it('in an editor tab the page leaves Ctrl+F to VS Code (its own find widget): no bar opens', async () => {
    const page = await openChatPage(browser as Browser, '', 'editor');
    await postToPage(page, stateMessage('tab', [{ id: 'u', role: 'user', content: 'Find me in a tab', createdAt: 1 }]));
    await page.locator('main.log').focus();
    await page.keyboard.press('Control+F');
    // The page handles keys in the task of the event: a frame later the bar would be open.
    await page.evaluate(TWO_FRAMES);
    assert.equal((await findState(page)).open, false);
    await page.close();
  });
});
