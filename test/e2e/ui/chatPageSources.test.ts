import * as assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import type { MessageView } from '../../../src/protocol/chatProtocol';
import { openChatPage, postToPage, stateMessage } from '../../support/chatPage';
import { launchBrowser } from '../harness/browser';

/** A grounded reply whose text and sources are hostile, as a service might send them. */
const REPLY = [
  'TypeScript appeared in 2012 [1], designed by Anders Hejlsberg [2][3].',
  'Not sources: [4], [99], [0] and [1000]. Inline `code [1]` and a [link with [2] inside](https://example.com/).',
  '',
  '```js',
  'const list = [1];',
  '```',
  '',
  'Trailing [3]',
].join('\n');

const SOURCES: MessageView['sources'] = [
  { title: '<img src=x onerror="window.__ran=1">TypeScript', kind: 'article' },
  { title: 'Hejlsberg [2] <b>bold</b>', kind: 'web', url: 'https://people.example/hejlsberg' },
  { title: 'javascript:alert(1)', kind: 'none' },
];

/**
 * The built chat page in Chromium with a grounded reply: which `[n]` markers become links, what each posts, and that
 * nothing from a source's title or the reply becomes markup (messageView.ts `linkMarkers`, `sourcesList`).
 */
describe('Chat page: citation markers and the Sources list', function () {
  this.timeout(60_000);
  let browser: Browser | undefined;
  let page: Page;

  before(async () => {
    browser = await launchBrowser('chat-page-sources');
    page = await openChatPage(browser);
    const messages: MessageView[] = [
      { id: 'u1', role: 'user', content: 'When did TypeScript appear?', createdAt: 1 },
      { id: 'a1', role: 'assistant', content: REPLY, createdAt: 2, status: 'done', sources: SOURCES },
    ];
    await postToPage(page, stateMessage('c1', messages, 'Sources'));
    await page.locator('section.sources').waitFor({ timeout: 20_000 });
  });
  after(async () => {
    await browser?.close();
  });

  it('links [1]–[3] in the text only: not out of range, not in code, not inside a link', async () => {
    const reply = page.locator('article').last().locator('.content');
    const markers = reply.locator('a.citation');
    assert.deepEqual(await markers.allInnerTexts(), ['[1]', '[2]', '[3]', '[3]']);
    assert.deepEqual(await markers.evaluateAll((links) => links.map((l) => l.getAttribute('aria-label'))), [
      'Source 1',
      'Source 2',
      'Source 3',
      'Source 3',
    ]);
    assert.equal(await reply.locator('code a, pre a').count(), 0, 'no marker in code');
    assert.match(await reply.locator('code').first().innerText(), /^code \[1\]$/);
    assert.match(await reply.innerText(), /Not sources: \[4\], \[99\], \[0\] and \[1000\]\./);
    assert.equal(await reply.locator('a a').count(), 0, 'no link inside a link');
    assert.equal(await markers.evaluateAll((links) => links.filter((l) => l.hasAttribute('href')).length), 0);
  });

  it('a marker and a source open through the host by number, by click or Enter', async () => {
    const reply = page.locator('article').last();
    const posted = async () =>
      page.evaluate(() =>
        ((globalThis as unknown as { __posted: { type: string }[] }).__posted ?? []).filter(
          (m) => m.type === 'source/open',
        ),
      );
    await reply.locator('a.citation').nth(1).click();
    await reply.locator('a.citation').nth(2).focus();
    await page.keyboard.press('Enter');
    await reply.locator('.sources a.source-title').first().click();
    assert.deepEqual(await posted(), [
      { type: 'source/open', messageId: 'a1', index: 1 },
      { type: 'source/open', messageId: 'a1', index: 2 },
      { type: 'source/open', messageId: 'a1', index: 0 },
    ]);
  });

  it('shows hostile titles as text; a source that may not open is not a link', async () => {
    const list = page.locator('article').last().locator('section.sources');
    assert.equal(await list.getAttribute('aria-label'), 'Sources');
    const items = list.locator('li');
    assert.deepEqual(await items.allInnerTexts(), [
      '<img src=x onerror="window.__ran=1">TypeScript',
      'Hejlsberg [2] <b>bold</b>people.example',
      'javascript:alert(1)',
    ]);
    assert.equal(await list.locator('img, b').count(), 0, 'no markup from a title');
    assert.equal(await list.locator('a.citation').count(), 0, 'no marker linked in the list');
    assert.equal(await items.nth(2).locator('a').count(), 0);
    assert.equal(await page.evaluate(() => (globalThis as unknown as { __ran?: number }).__ran), undefined);
  });
});
