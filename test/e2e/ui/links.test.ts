import * as assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { replyDirective } from '../../fakeService/chatContent';
import { fillInputBox, poll, runCommand } from '../harness/workbench';
import { openChat, replies, sendPrompt, waitForReplyEnd } from './chatHelpers';
import { useChatGroup } from './chatGroup';
import { encyclopediaFrame } from './encyclopediaHelpers';

/** The made-up hosts links point to; the browser's requests to them are answered here, never sent out. */
const OUTSIDE_HOSTS = new Set(['links.example', 'axo.example']);

describe('Links in the chat and the encyclopedia open one browser tab', function () {
  this.timeout(120_000);
  const { service, session } = useChatGroup('links');

  /** Every outside URL a browser tab navigated to, in order, and how many confirmations the workbench showed. */
  const opened: string[] = [];
  let confirmations = 0;

  before(async () => {
    const context = session.page.context();
    await context.route(
      (url) => OUTSIDE_HOSTS.has(url.hostname),
      async (route) => {
        if (route.request().isNavigationRequest()) {
          opened.push(route.request().url());
        }
        await route.fulfill({ status: 200, contentType: 'text/html', body: '<title>outside</title>' });
      },
    );
  });

  /**
   * Clicks a link and waits until `expected` opened in a tab, accepting the workbench's "open the external
   * website?" confirmation on the way (code-server asks before opening a link outside).
   */
  async function clickAndConfirm(page: Page, click: () => Promise<void>, expected: string): Promise<void> {
    const dialog = page.locator('.monaco-dialog-box').filter({ hasText: /external website/i });
    const before = opened.length;
    await click();
    await poll(
      async () => opened.length > before || (await dialog.isVisible()),
      20_000,
      `neither a confirmation nor a tab for ${expected}`,
    );
    while (!opened.includes(expected)) {
      if (await dialog.isVisible()) {
        confirmations++;
        await dialog.getByRole('button', { name: 'Open', exact: true }).click();
        await dialog.waitFor({ state: 'hidden', timeout: 10_000 });
      }
      await poll(
        async () => opened.includes(expected) || (await dialog.isVisible()),
        20_000,
        `${expected} did not open`,
      );
    }
  }

  /**
   * Opens `first`, then `second` (whose tab proves that everything the first one caused has arrived, since the
   * two go through the same channels in order), and checks that each opened exactly one tab.
   */
  async function openTwo(first: [() => Promise<void>, string], second: [() => Promise<void>, string]): Promise<void> {
    const start = opened.length;
    const startConfirmations = confirmations;
    for (const [open, url] of [first, second]) {
      await clickAndConfirm(session.page, open, url);
    }
    assert.deepEqual(opened.slice(start), [first[1], second[1]], 'one tab per link');
    assert.ok(confirmations - startConfirmations <= 2, 'at most one confirmation per link');
  }

  it('in a chat reply: one tab per link (click or Enter), and an image button inside a link loads the image only', async () => {
    const frame = await openChat(session.page);
    const pixel = `${service().url}/__fake/pixel.png`;
    const reply = [
      'Read [the first page](https://links.example/first) or [the second page](https://links.example/second).',
      '',
      `A linked picture: [![pixel](${pixel})](https://links.example/picture)`,
    ].join('\n');
    await sendPrompt(frame, `Two links please ${replyDirective(reply)}`);
    await waitForReplyEnd(frame);
    const last = replies(frame).last();
    await last.getByRole('link', { name: 'the first page' }).waitFor();

    const tabsBefore = opened.length;
    await last.getByRole('button', { name: /Load image: pixel/ }).click();
    await last.locator('img.loaded-image').waitFor({ timeout: 15_000 });
    assert.match((await last.locator('img.loaded-image').getAttribute('src')) ?? '', /^data:image\/png;base64,/);

    const second = last.getByRole('link', { name: 'the second page' });
    await openTwo(
      [() => last.getByRole('link', { name: 'the first page' }).click(), 'https://links.example/first'],
      // The keyboard opens a link as a click does, once.
      [
        async () => {
          await second.focus();
          await second.press('Enter');
        },
        'https://links.example/second',
      ],
    );
    assert.equal(opened.slice(tabsBefore).includes('https://links.example/picture'), false, 'the picture link');
  });

  it('in an encyclopedia article: one tab per link', async () => {
    await runCommand(session.page, 'AXO: Open Article…');
    await fillInputBox(session.page, 'Alan Turing');
    const frame = await encyclopediaFrame(session.page);
    await frame.getByRole('heading', { name: 'Alan Turing' }).first().waitFor({ timeout: 20_000 });
    const links = frame.getByRole('article').getByRole('link');
    await links.nth(1).waitFor();
    const urls = await links.evaluateAll((all) => all.map((a) => (a as { dataset: { url?: string } }).dataset.url));
    assert.ok(urls[0] && urls[1] && urls[0] !== urls[1], `two links to click, got ${urls.join(', ')}`);
    await openTwo([() => links.nth(0).click(), urls[0]], [() => links.nth(1).click(), urls[1]]);
  });
});
