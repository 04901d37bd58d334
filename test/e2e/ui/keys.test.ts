import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';
import { type RecordedRequest } from '../../fakeService/fakeService';
import { useFakeService } from '../harness/fakeServiceHooks';
import { filesUnder, vsixPath } from '../harness/paths';
import { countFiles, scanForSecrets } from '../harness/secretScan';
import { useWorkbench } from '../harness/session';
import { clearNotifications, fillInputBox, inputBox, poll, runCommand, waitForToast } from '../harness/workbench';
import { openChat, replies, sendPrompt, waitForReplyEnd } from './chatHelpers';
import { encyclopediaFrame } from './encyclopediaHelpers';

const randomKey = (prefix: string): string => `${prefix}${randomBytes(12).toString('hex')}`;

/** The text of every webview page (the outer HTML of each one's document). */
async function webviewHtml(page: Page): Promise<string[]> {
  const outer = page.locator('iframe.webview');
  const pages: string[] = [];
  for (let i = 0; i < (await outer.count()); i++) {
    const root = outer.nth(i).contentFrame().locator('iframe#active-frame').contentFrame().locator('html');
    pages.push(await root.evaluate((element) => (element as { outerHTML: string }).outerHTML));
  }
  return pages;
}

/** Sends a prompt carrying a fault and returns the text of the error the reply shows. */
async function chatError(frame: FrameLocator, prompt: string): Promise<string> {
  await sendPrompt(frame, prompt);
  await waitForReplyEnd(frame, 30_000);
  // The notice in the reply (said once through the page's assertive live region, so not an alert itself).
  const notice = replies(frame).last().locator('.notice.error');
  await notice.waitFor({ timeout: 10_000 });
  return notice.innerText();
}

/** The "ALPHA & AXO" log files of the run. */
function extensionLog(userDataDir: string): string {
  return filesUnder(path.join(userDataDir, 'logs'), (file) => path.basename(file) === 'ALPHA & AXO.log')
    .map((file) => fs.readFileSync(file, 'utf8'))
    .join('\n');
}

describe('API keys in the packaged extension', function () {
  this.timeout(90_000);
  const chatKey = randomKey('fkc_');
  const axoKey = randomKey('fke_');
  const wrongChatKey = randomKey('fkc_wrong_');
  const service = useFakeService({ chatKey, axoKey });
  const session = useWorkbench('keys', () => ({ vsix: vsixPath, baseUrl: service().url }));

  async function setKey(commandTitle: string, key: string): Promise<void> {
    await runCommand(session.page, commandTitle);
    const input = await inputBox(session.page);
    assert.equal(await input.getAttribute('type'), 'password', 'the key input box must be a password box');
    await fillInputBox(session.page, key);
  }

  /** Runs Test Connection and returns the toast's text and the requests the service saw meanwhile. */
  async function testConnection(expected: RegExp): Promise<{ toast: string; requests: RecordedRequest[] }> {
    await clearNotifications(session.page);
    const start = service().requests.length;
    await runCommand(session.page, 'ALPHA & AXO: Test Connection');
    const toast = await waitForToast(session.page, expected);
    return { toast, requests: service().requests.slice(start) };
  }

  it('stores the chat key through a password input box', async () => {
    await setKey('ALPHA: Set Chat API Key', chatKey);
    await waitForToast(session.page, /\bchat API key\b.*\bsaved\b/i);
  });

  it('stores the encyclopedia key through a password input box', async () => {
    await setKey('AXO: Set Encyclopedia API Key', axoKey);
    await waitForToast(session.page, /\bencyclopedia API key\b.*\bsaved\b/i);
  });

  it('Test Connection reports both OK, each endpoint called once with its own key', async () => {
    const { toast, requests } = await testConnection(/Chat: (OK|failed)[\s\S]*Encyclopedia: (OK|failed)/);
    assert.match(toast, /Chat: OK/);
    assert.match(toast, /Encyclopedia: OK/);
    const seen = requests.map((r) => `${r.method} ${r.path} ${r.keyKind}`);
    assert.equal(requests.filter((r) => r.path === '/v1/alpha' && r.keyKind === 'chat').length, 1, seen.join('\n'));
    assert.equal(
      requests.filter((r) => r.path.startsWith('/v1/axo/') && r.keyKind === 'axo').length,
      1,
      seen.join('\n'),
    );
    assert.deepEqual(
      requests.filter((r) => r.keyKind !== 'chat' && r.keyKind !== 'axo'),
      [],
      `requests without the right key:\n${seen.join('\n')}`,
    );
  });

  it('Test Connection names the chat key when the chat key is wrong', async () => {
    await setKey('ALPHA: Set Chat API Key', wrongChatKey);
    const { toast, requests } = await testConnection(/Chat: (OK|failed)[\s\S]*Encyclopedia: (OK|failed)/);
    assert.match(toast, /Chat: failed\b.*\bchat\b[^·]*\bkey\b/i);
    assert.match(toast, /Encyclopedia: OK/);
    assert.ok(
      requests.some((r) => r.path === '/v1/alpha' && r.keyKind === 'wrong'),
      requests.map((r) => `${r.method} ${r.path} ${r.keyKind}`).join('\n'),
    );
  });

  it('a service that echoes the key: the chat, the encyclopedia, notifications, the export and the log show *** instead', async () => {
    const page = session.page;
    const hidden = /Incorrect API key provided: \*\*\*|checking the key \*\*\*/;
    const frame = await openChat(page);
    // The chat key is the rejected one now: the service quotes it back in its 401.
    const rejected = await chatError(frame, 'Is my key right? #fault:echo-key');
    assert.match(rejected, /chat API key[\s\S]*Incorrect API key provided: \*\*\*/);
    await setKey('ALPHA: Set Chat API Key', chatKey);
    assert.match(await chatError(frame, 'Fail in HTML #fault:echo-key:html'), /500[\s\S]*checking the key \*\*\*/);
    assert.match(
      await chatError(frame, 'Fail mid-stream #fault:echo-key:stream'),
      /Incorrect API key provided: \*\*\*/,
    );

    for (const fault of ['echo-key', 'echo-key:html']) {
      await clearNotifications(page);
      await runCommand(page, 'AXO: Ask the Encyclopedia…');
      await fillInputBox(page, `Ada Lovelace #fault:${fault}`);
      assert.match(await waitForToast(page, hidden, 40_000), hidden);
      const view = await encyclopediaFrame(page);
      await view.getByRole('alert').filter({ hasText: hidden }).waitFor({ timeout: 10_000 });
    }
    const keys = [chatKey, axoKey, wrongChatKey];
    const toasts = await page.locator('.notifications-toasts, .notifications-center').allInnerTexts();
    const pages = await webviewHtml(page);
    assert.ok(pages.length >= 2, `only ${pages.length} webviews to scan`);
    for (const [what, text] of [...toasts.map((t) => ['a notification', t]), ...pages.map((t) => ['a webview', t])]) {
      assert.ok(
        keys.every((key) => !text.includes(key)),
        `${what} holds a key`,
      );
    }

    await runCommand(page, 'ALPHA: Export Conversation as Markdown');
    const exported = page.locator('.editor-instance .monaco-editor .view-lines').first();
    let markdown = '';
    await poll(
      async () => {
        // Long lines wrap in the editor: compare with the white space folded.
        markdown = ((await exported.innerText().catch(() => '')) ?? '').replace(/\s+/g, ' ');
        return /\*\*Error:\*\*.*Incorrect API key provided: \*\*\*/.test(markdown);
      },
      15_000,
      'the export does not show the echoed error',
    );
    assert.ok(
      keys.every((key) => !markdown.includes(key)),
      'the export holds a key',
    );
    await poll(
      async () => /Incorrect API key provided: \*\*\*/.test(extensionLog(session.server.userDataDir)),
      15_000,
      'the log does not show the echoed error (with the key removed)',
    );
    // The conversation files and the log are searched for every key, in every encoding, by the next test.
  });

  it('leaves no key in any file of the run (user data, extensions, workspace, logs)', async () => {
    const runDir = session.server.runDir;
    await session.close(); // the server flushes its logs and state as it stops
    const hits = scanForSecrets(runDir, [chatKey, axoKey, wrongChatKey]);
    assert.deepEqual(hits, [], `keys found in ${runDir}`);
    assert.ok(countFiles(runDir) > 10, `the scan found almost nothing to read in ${runDir}`);
  });
});
