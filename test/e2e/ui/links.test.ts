import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { Locator, Page } from 'playwright-core';
import { replyDirective } from '../../fakeService/chatContent';
import { useFakeService } from '../harness/fakeServiceHooks';
import { vsixPath } from '../harness/paths';
import { useWorkbench } from '../harness/session';
import { fillInputBox, poll, runCommand } from '../harness/workbench';
import { openChat, replies, sendPrompt, waitForReplyEnd } from './chatHelpers';
import { encyclopediaFrame } from './encyclopediaHelpers';

/** The made-up hosts links point to; the browser's requests to them are answered here, never sent out. */
const OUTSIDE_HOSTS = new Set(['links.example', 'axo.example']);

describe('Links in the chat and the encyclopedia open one browser tab', function () {
  this.timeout(120_000);
  const chatKey = `fkc_${randomBytes(12).toString('hex')}`;
  const axoKey = `fke_${randomBytes(12).toString('hex')}`;
  const service = useFakeService({ chatKey, axoKey });
  const session = useWorkbench('links', () => ({
    vsix: vsixPath,
    baseUrl: service().url,
    env: { ALPHA_API_KEY: chatKey, AXO_API_KEY: axoKey },
    settings: { 'alphaAxo.requestTimeoutSeconds': 10 },
    workspaceFiles: { 'scratch.ts': '// scratch\n' },
  }));

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
   * Clicks `first`, then `second` (whose tab proves that everything the first click caused has arrived, since
   * the two go through the same channels in order), and checks that each opened exactly one tab.
   */
  async function clickTwo(first: [Locator, string], second: [Locator, string]): Promise<void> {
    const start = opened.length;
    const startConfirmations = confirmations;
    for (const [link, url] of [first, second]) {
      await clickAndConfirm(session.page, () => link.click(), url);
    }
    assert.deepEqual(opened.slice(start), [first[1], second[1]], 'one tab per click');
    assert.ok(confirmations - startConfirmations <= 2, 'at most one confirmation per click');
  }

  it('in a chat reply: one tab per link, and an image button inside a link loads the image only', async () => {
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

    await clickTwo(
      [last.getByRole('link', { name: 'the first page' }), 'https://links.example/first'],
      [last.getByRole('link', { name: 'the second page' }), 'https://links.example/second'],
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
    await clickTwo([links.nth(0), urls[0]], [links.nth(1), urls[1]]);
  });
});
