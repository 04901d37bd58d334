import * as assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import type { MessageView, UsageView } from '../../../src/protocol/chatProtocol';
import { openChatPage, postToPage, stateMessage } from '../../support/chatPage';
import { launchBrowser } from '../harness/browser';
import { poll } from '../harness/workbench';

/** A `chat/state` of `messages`, with the usage of the replies off the path shown when `others` is given. */
function state(messages: MessageView[], others?: UsageView[], summaries?: UsageView[]): unknown {
  const message = stateMessage('c1', messages, 'Costs') as { type: string; state: Record<string, unknown> };
  return {
    ...message,
    state: { ...message.state, ...(others ? { otherVersions: others } : {}), ...(summaries ? { summaries } : {}) },
  };
}

const PATH: MessageView[] = [
  { id: 'u1', role: 'user', content: 'What does it cost?', createdAt: 1 },
  {
    id: 'a3',
    role: 'assistant',
    content: 'The third version.',
    createdAt: 4,
    status: 'done',
    usage: { input: 100, output: 20, reported: true, costInr: 0.01 },
    branch: { index: 3, count: 3 },
  },
];

/** The two versions before it, regenerated away: asked for and billed all the same. */
const OTHERS: UsageView[] = [
  { input: 100, output: 40, reported: true, costInr: 0.02 },
  { input: 100, output: 30, reported: false, costInr: 0.015 },
];

/**
 * The built chat page in Chromium: the running total beside the title counts every reply the service was asked for,
 * the versions off the path shown too, and says "all versions" when there are any (usage.ts `totalText`).
 */
describe('Chat page: the running total counts every version', function () {
  this.timeout(60_000);
  let browser: Browser | undefined;
  let page: Page;
  const total = () => page.locator('.conversation-total');
  /** Waits until the total reads `text` (the page handles each message in a task of its own). */
  const totalReads = (text: string) =>
    poll(
      async () => (await total().innerText()) === text,
      10_000,
      async () => `the total reads "${await total().innerText()}", not "${text}"`,
    );

  before(async () => {
    browser = await launchBrowser('chat-page-total');
    page = await openChatPage(browser);
  });
  after(async () => {
    await browser?.close();
  });

  it('adds the replies of the other versions to those shown, and says "all versions"', async () => {
    await postToPage(page, state(PATH, OTHERS));
    // 120 shown + 140 + 130 off the path; one of them estimated, so "≈"; every one has a cost: ₹0.045.
    await totalReads('≈ 390 tokens · ≈ ₹0.045 (all versions)');
    assert.equal(
      await total().getAttribute('title'),
      'This conversation so far: ≈ 390 tokens · ≈ ₹0.045 (all versions)',
    );
  });

  it('keeps counting the other versions when a new reply ends', async () => {
    const reply: MessageView = { id: 'a4', role: 'assistant', content: '', createdAt: 5, status: 'streaming' };
    const user: MessageView = { id: 'u2', role: 'user', content: 'And now?', createdAt: 5 };
    await postToPage(page, {
      type: 'chat/started',
      requestId: 7,
      user,
      reply,
      budget: { usedTokens: 0, limitTokens: 200_000 },
      conversations: [],
    });
    await postToPage(page, { type: 'chat/delta', requestId: 7, text: 'Now this.' });
    await postToPage(page, {
      type: 'chat/done',
      requestId: 7,
      status: 'done',
      usage: { input: 300, output: 10, reported: true, costInr: 0.005 },
    });
    await totalReads('≈ 700 tokens · ≈ ₹0.05 (all versions)');
  });

  it('says nothing of versions for a conversation without other versions', async () => {
    await postToPage(page, state(PATH.map((m) => ({ ...m, branch: undefined }))));
    await totalReads('120 tokens · ₹0.01');
  });

  it('adds the summaries compactions asked for, and says so', async () => {
    const summary: UsageView = { input: 900, output: 80, reported: true, costInr: 0.03 };
    await postToPage(
      page,
      state(
        PATH.map((m) => ({ ...m, branch: undefined })),
        undefined,
        [summary],
      ),
    );
    await totalReads('1,100 tokens · ₹0.04 (summaries included)');
    await postToPage(page, state(PATH, OTHERS, [summary]));
    await totalReads('≈ 1,370 tokens · ≈ ₹0.075 (all versions and summaries)');
  });
});
