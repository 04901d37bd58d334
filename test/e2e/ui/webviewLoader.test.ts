import * as assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { loaderScript, RETRY_DELAYS_MS } from '../../../src/host/webviewLoader';
import { launchBrowser } from '../harness/browser';
import { poll } from '../harness/workbench';

const ORIGIN = 'http://webview.test';
const NONCE = 'bm9uY2Utb2YtdGhlLXRlc3Q=';
const TEXT = { failed: 'This view could not load its files.', tryAgain: 'Try again' };

/** A page laid out as webviewHtml writes it: CSP with a script nonce, the loader first, a style sheet, the bundle. */
const PAGE = `<!DOCTYPE html>
<html><head>
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'nonce-${NONCE}'; style-src ${ORIGIN}">
<script nonce="${NONCE}">${loaderScript(TEXT)}</script>
<link rel="stylesheet" href="${ORIGIN}/page.css">
</head><body><div id="root"></div>
<script nonce="${NONCE}" src="${ORIGIN}/page.js"></script>
</body></html>`;

/** How the fake server answers the page's files: each request of a file is counted; `fail(file, n)` says whether the n-th fails. */
async function serve(page: Page, fail: (file: string, n: number) => boolean): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  await page.route(`${ORIGIN}/**`, async (route) => {
    const file = new URL(route.request().url()).pathname.slice(1);
    const n = (counts.get(file) ?? 0) + 1;
    counts.set(file, n);
    if (file === 'index.html') {
      await route.fulfill({ contentType: 'text/html', body: PAGE });
    } else if (fail(file, n)) {
      // What VS Code's webview service worker answers when the window has not delivered a file within 30 s.
      await route.fulfill({ status: 408, body: 'Request Timeout' });
    } else if (file === 'page.css') {
      await route.fulfill({ contentType: 'text/css', body: '#root { margin-left: 17px; }' });
    } else {
      await route.fulfill({
        contentType: 'text/javascript',
        body: `document.getElementById('root').textContent = 'drawn';`,
      });
    }
  });
  return counts;
}

// The page's CSP allows no eval: the test waits with locators and reads with page.evaluate (which CDP runs outside
// the page's CSP), never with waitForFunction.

/**
 * The first script of every webview page (src/host/webviewLoader.ts), in Chromium under the page's CSP: a script or
 * style sheet that VS Code's service worker fails with a 408 is loaded again, and when every try fails the page says
 * so and can try again.
 */
describe('Webview pages: a file that fails to load is loaded again', function () {
  this.timeout(60_000);
  let browser: Browser | undefined;

  before(async () => {
    browser = await launchBrowser('webview-loader');
  });
  after(async () => {
    await browser?.close();
  });

  it('a script that failed twice and a style sheet that failed once are loaded again, and the page works', async () => {
    const page = await (browser as Browser).newPage();
    const counts = await serve(page, (file, n) => (file === 'page.js' && n <= 2) || (file === 'page.css' && n === 1));
    await page.goto(`${ORIGIN}/index.html`);
    await page.locator('#root', { hasText: 'drawn' }).waitFor({ timeout: 20_000 });
    await poll(
      async () => (await page.evaluate(`getComputedStyle(document.getElementById('root')).marginLeft`)) === '17px',
      20_000,
      'the style sheet loaded again was not applied',
    );
    assert.equal(counts.get('page.js'), 3);
    assert.equal(counts.get('page.css'), 2);
    assert.equal(await page.getByRole('alert').count(), 0, 'no failure is shown');
    await page.close();
  });

  it('when every try fails the page says so, and Try again loads it once the file comes', async () => {
    const page = await (browser as Browser).newPage();
    let available = false;
    const counts = await serve(page, (file) => file === 'page.js' && !available);
    await page.goto(`${ORIGIN}/index.html`);
    const alert = page.getByRole('alert');
    await alert.waitFor({ timeout: 20_000 });
    assert.equal(await alert.locator('p').textContent(), TEXT.failed);
    assert.equal(counts.get('page.js'), 1 + RETRY_DELAYS_MS.length, 'the first load and one per delay');
    assert.equal(await page.evaluate(`document.getElementById('root').textContent`), '');
    available = true;
    await alert.getByRole('button', { name: 'Try again' }).click();
    await page.locator('#root', { hasText: 'drawn' }).waitFor({ timeout: 20_000 });
    assert.equal(await page.getByRole('alert').count(), 0, 'the notice is gone');
    await page.close();
  });
});
