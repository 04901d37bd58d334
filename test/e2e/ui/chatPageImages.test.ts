import * as assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import type { MessageView } from '../../../src/protocol/chatProtocol';
import { openChatPage, postToPage, stateMessage } from '../../support/chatPage';
import { launchBrowser } from '../harness/browser';

/** A 1 × 1 PNG, as the host sends a loaded image. */
const PIXEL =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

/** A conversation whose reply shows the images at `urls`, each named by its number. */
function withImages(id: string, urls: string[]): unknown {
  const content = urls.map((url, i) => `Image ${i + 1}: ![picture ${i + 1}](${url})`).join('\n\n');
  const messages: MessageView[] = [
    { id: `${id}-u`, role: 'user', content: 'Show me pictures', createdAt: 1 },
    { id: `${id}-a`, role: 'assistant', content, createdAt: 2, status: 'done' },
  ];
  return stateMessage(id, messages);
}

/** The `image/load` messages the page posted, by URL. */
async function loadsAsked(page: Page): Promise<string[]> {
  return page.evaluate(`window.__posted.filter((m) => m.type === 'image/load').map((m) => m.url)`);
}

/**
 * The built chat page in Chromium, fed protocol messages: an image the user loaded stays loaded when its message is
 * drawn again (the conversation redrawn, a switch away and back), without asking the host again; an answer that came
 * while its message was not on the page shows when it is drawn; a failure is not remembered; memory stays bounded (16 images, 24 M characters).
 */
describe('Chat page: loaded images stay loaded when their message is drawn again', function () {
  this.timeout(60_000);
  let browser: Browser | undefined;

  before(async () => {
    browser = await launchBrowser('chat-page-images');
  });
  after(async () => {
    await browser?.close();
  });

  it('a redraw of the conversation shows the loaded image at once, and asks the host nothing more', async () => {
    const page = await openChatPage(browser as Browser, '', 'view');
    const url = 'https://img.example/one.png';
    await postToPage(page, withImages('c1', [url]));
    await page.getByRole('button', { name: 'Load image: picture 1' }).click();
    assert.deepEqual(await loadsAsked(page), [url]);
    await postToPage(page, { type: 'image/loaded', url, dataUri: PIXEL });
    await page.locator('img.loaded-image[alt="picture 1"]').waitFor({ timeout: 5_000 });

    await postToPage(page, withImages('c1', [url]));
    await page.locator('article').last().getByText('Image 1:').waitFor({ timeout: 5_000 });
    assert.equal(await page.locator('img.loaded-image[alt="picture 1"]').getAttribute('src'), PIXEL);
    assert.equal(await page.getByRole('button', { name: /Load image/ }).count(), 0, 'no button again');
    assert.deepEqual(await loadsAsked(page), [url], 'the host was not asked again');
    await page.close();
  });

  it('an answer that came while the message was away shows when it is back; a failure shows its button again', async () => {
    const page = await openChatPage(browser as Browser, '', 'view');
    const late = 'https://img.example/late.png';
    const broken = 'https://img.example/broken.png';
    await postToPage(page, withImages('c2', [late, broken]));
    await page.getByRole('button', { name: 'Load image: picture 1' }).click();
    await page.getByRole('button', { name: 'Load image: picture 2' }).click();
    // The user switches to another conversation before the answers come.
    await postToPage(page, withImages('other', []));
    await page.waitForFunction(`!document.querySelector('button.load-image')`, undefined, { timeout: 5_000 });
    await postToPage(page, { type: 'image/loaded', url: late, dataUri: PIXEL });
    await postToPage(page, { type: 'image/failed', url: broken, message: 'The image could not be loaded.' });
    await postToPage(page, withImages('c2', [late, broken]));
    await page.locator('img.loaded-image[alt="picture 1"]').waitFor({ timeout: 5_000 });
    // Not remembered: the user may try again (the host may answer this time).
    await page.getByRole('button', { name: 'Load image: picture 2' }).waitFor({ timeout: 5_000 });
    await page.close();
  });

  it('remembers the last 16 images loaded, not every one', async () => {
    const page = await openChatPage(browser as Browser, '', 'view');
    const urls = Array.from({ length: 17 }, (_, i) => `https://img.example/${i + 1}.png`);
    await postToPage(page, withImages('c3', urls));
    await page.getByRole('button', { name: 'Load image: picture 17' }).waitFor({ timeout: 5_000 });
    for (const url of urls) {
      await postToPage(page, { type: 'image/loaded', url, dataUri: PIXEL });
    }
    await page.locator('img.loaded-image').nth(16).waitFor({ timeout: 5_000 });
    await postToPage(page, withImages('c3', urls));
    await page.getByRole('button', { name: 'Load image: picture 1', exact: true }).waitFor({ timeout: 5_000 });
    assert.equal(await page.locator('img.loaded-image').count(), 16);
    await page.close();
  });

  it('remembers at most 24 M characters of images: three of 9 M keep the last two', async () => {
    const page = await openChatPage(browser as Browser, '', 'view');
    const urls = [1, 2, 3].map((i) => `https://img.example/big-${i}.png`);
    await postToPage(page, withImages('c4', urls));
    await page.getByRole('button', { name: 'Load image: picture 3' }).waitFor({ timeout: 5_000 });
    // Made in the page (as large as the host's largest, 8 MB, as a data: URI): nothing that size crosses the wire.
    await page.evaluate(`(() => {
      const pad = 'A'.repeat(9 * 1024 * 1024);
      ${JSON.stringify(urls)}.forEach((url, i) =>
        window.postMessage({ type: 'image/loaded', url, dataUri: 'data:image/png;base64,' + pad + i }, '*'));
    })()`);
    await page.locator('img.loaded-image').nth(2).waitFor({ state: 'attached', timeout: 10_000 });
    await postToPage(page, withImages('c4', urls));
    await page.getByRole('button', { name: 'Load image: picture 1', exact: true }).waitFor({ timeout: 5_000 });
    assert.equal(await page.locator('img.loaded-image').count(), 2, 'the second and third are drawn at once');
    await page.close();
  });
});
