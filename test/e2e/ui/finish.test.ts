import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { startFakeService, type FakeService } from '../../fakeService/fakeService';
import { freePort } from '../harness/codeServer';
import { filesUnder, vsixPath, vscodeTestDir } from '../harness/paths';
import { countFiles, scanForSecrets } from '../harness/secretScan';
import { useWorkbench } from '../harness/session';
import { chatFrame, clearNotifications, fillInputBox, poll, runCommand, waitForToast } from '../harness/workbench';
import { openChat, prompts, sendPrompt, waitForReplyEnd, waitForReplyText } from './chatHelpers';
import { encyclopediaFrame, hoverOver, openFile, quickPickRow } from './encyclopediaHelpers';

/** Where the measured activation time goes, for docs/performance.md to cite. */
const activationFile = path.join(vscodeTestDir, 'results', 'activation.json');
/** The target for `activate()` (measured inside activate(), so code-server's own start-up does not count). */
const ACTIVATION_TARGET_MS = 50;

const WALKTHROUGH_TITLE = 'Get started with ALPHA & AXO';
const STEPS = ['baseUrl', 'chatKey', 'encyclopediaKey', 'testConnection', 'openChat', 'lookUp'];

/** The outer HTML of a page's root element (run in the page). */
function outerHtml(element: unknown): string {
  return (element as { outerHTML: string }).outerHTML;
}

/** A settings file's values; undefined while VS Code is writing it (read empty or half written). */
function settingsFile(file: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/**
 * Sets a setting as a user does: in the Settings editor's User tab (the default one). The workbench in code-server is
 * a remote window, where a machine-scoped value in the User settings would not be read; an application-scoped one
 * such as the base URL is. (A file written behind the workbench's back is not always noticed: the editor is the path.)
 * Waits until the editor has written the value to the User settings file.
 */
async function setInSettingsEditor(page: Page, userDataDir: string, key: string, value: string): Promise<void> {
  await runCommand(page, 'Preferences: Open Settings (UI)');
  await page.locator('.settings-editor').waitFor({ timeout: 15_000 });
  await page.keyboard.type(key); // the search box has the focus
  const box = page.locator(`.settings-editor [aria-label="${key}"]`).first();
  await box.waitFor({ timeout: 15_000 });
  await box.fill(value);
  await box.press('Tab');
  // The editor writes after a pause; closing it before then (Escape) would drop the change.
  const file = path.join(userDataDir, 'User', 'settings.json');
  await poll(
    async () => settingsFile(file)?.[key] === value,
    10_000,
    `the Settings editor did not write ${key} to the User settings`,
  );
}

/** The extension's status bar item (found by its accessible label). */
function statusItem(page: Page): Locator {
  return page.locator('.part.statusbar .statusbar-item [aria-label^="ALPHA & AXO:"]').first();
}

/** Waits until the status bar item's accessible label matches `label`; returns its text. */
async function waitForStatus(page: Page, label: RegExp, timeoutMs = 15_000): Promise<string> {
  const item = statusItem(page);
  let seen = '(none)';
  await poll(
    async () => {
      seen = (await item.getAttribute('aria-label').catch(() => null)) ?? '(none)';
      return label.test(seen);
    },
    timeoutMs,
    () => `the status bar item did not match ${String(label)}; it says "${seen}"`,
  ).catch((error: unknown) => {
    throw new Error(`${(error as Error).message}; last label "${seen}"`);
  });
  return (await item.innerText()).trim();
}

/**
 * Sets one user-level setting the way a user does, in "Preferences: Open User Settings (JSON)" (application-scoped
 * settings such as hover lookups are read from there; code-server does not notice the file changing underneath).
 */
async function setUserSetting(page: Page, userDataDir: string, key: string, value: unknown): Promise<void> {
  const file = path.join(userDataDir, 'User', 'settings.json');
  for (let attempt = 1; ; attempt++) {
    let settings: Record<string, unknown> | undefined;
    await poll(async () => (settings = settingsFile(file)) !== undefined, 10_000, 'the user settings are unreadable');
    const text = JSON.stringify({ ...settings, [key]: value });
    await runCommand(page, 'Preferences: Open User Settings (JSON)');
    // It opens focused (in a tab, or over the editors in newer versions): type only once the focused editor is the
    // settings file (it shows the base URL the harness set), never into the editor that had the focus before.
    const editor = page.locator('.monaco-editor.focused');
    await poll(
      async () =>
        /alphaAxo\.baseUrl/.test(
          await editor
            .locator('.view-lines')
            .innerText({ timeout: 1_000 })
            .catch(() => ''),
        ),
      10_000,
      'the focused editor is not the user settings',
    );
    await page.keyboard.press('Control+A');
    // One line, so nothing is indented; whatever the editor closed by itself after the cursor is removed.
    await page.keyboard.insertText(text);
    await page.keyboard.press('Shift+Control+End');
    await page.keyboard.press('Delete');
    await page.keyboard.press('Control+S');
    try {
      await poll(async () => settingsFile(file)?.[key] === value, 10_000, `the user settings did not take ${key}`);
    } catch (error) {
      // Not saved: close it unsaved, so it does not cover the workbench (a modal editor blocks clicks), and again.
      await runCommand(page, 'View: Revert and Close Editor');
      if (attempt === 3) {
        throw error;
      }
      continue;
    }
    await runCommand(page, 'View: Close Editor');
    return;
  }
}

/** The "ALPHA & AXO" log channel's files under the run's user data (code-server writes them under logs/). */
function extensionLogs(userDataDir: string): string[] {
  return filesUnder(path.join(userDataDir, 'logs'), (file) => path.basename(file) === 'ALPHA & AXO.log');
}

describe('Finish: activation time, walkthrough, status bar, workspace settings, conversation search', function () {
  this.timeout(120_000);
  const chatKey = `fkc_${randomBytes(12).toString('hex')}`;
  const axoKey = `fke_${randomBytes(12).toString('hex')}`;
  let port = 0;
  let fake: FakeService | undefined;
  /** What a workspace's `.vscode/settings.json` points `alphaAxo.baseUrl` at: it must see nothing. */
  let decoy: FakeService | undefined;

  before(async () => {
    port = await freePort();
    fake = await startFakeService({ chatKey, axoKey, port });
    decoy = await startFakeService({ chatKey, axoKey });
  });
  after(async () => {
    await fake?.close();
    await decoy?.close();
  });
  const session = useWorkbench('finish', () => ({
    vsix: vsixPath,
    // No base URL and no keys: the walkthrough sets them.
    settings: { 'alphaAxo.requestTimeoutSeconds': 10 },
    workspaceFiles: {
      // A cloned repository trying to change what leaves the machine: none of these may take effect.
      '.vscode/settings.json': `${JSON.stringify(
        {
          'alphaAxo.baseUrl': decoyService().url,
          'alphaAxo.encyclopedia.hoverLookups': 'always',
          'alphaAxo.encyclopedia.cacheTtlHours': 0,
        },
        null,
        2,
      )}\n`,
      'notes.md': '# Notes\n',
      'plants.txt': 'Photosynthesis feeds the plants.\n',
    },
  }));

  function service(): FakeService {
    assert.ok(fake, 'the fake service is not running');
    return fake;
  }
  function decoyService(): FakeService {
    assert.ok(decoy, 'the decoy service did not start');
    return decoy;
  }

  it('activate() logs its time to the log channel, under the target', async () => {
    // A command that opens no view activates the extension (the walkthrough's "Open the chat" step comes later).
    await runCommand(session.page, 'AXO: Clear Encyclopedia Cache');
    let line = '';
    await poll(
      async () => {
        for (const file of extensionLogs(session.server.userDataDir)) {
          line = /Activated in ([\d.]+) ms \(CPU ([\d.]+) ms\)\./.exec(fs.readFileSync(file, 'utf8'))?.[0] ?? line;
        }
        return line !== '';
      },
      15_000,
      'no "Activated in N ms (CPU N ms)." in the ALPHA & AXO log',
    );
    const [, wall, cpu] = (/([\d.]+) ms \(CPU ([\d.]+) ms\)/.exec(line) ?? []).map(Number);
    const ms = cpu;
    fs.mkdirSync(path.dirname(activationFile), { recursive: true });
    fs.writeFileSync(
      activationFile,
      `${JSON.stringify({ activateMs: ms, wallMs: wall, targetMs: ACTIVATION_TARGET_MS, measuredAt: new Date().toISOString(), host: 'code-server, packaged .vsix, first activation' }, null, 2)}\n`,
    );
    console.log(`    activate(): ${ms} ms of CPU, ${wall} ms wall`);
    assert.ok(ms < ACTIVATION_TARGET_MS, `activate() took ${ms} ms of CPU (target ${ACTIVATION_TARGET_MS} ms)`);
    // Wall time may grow when the machine deschedules the host, but not by a wait of its own (synchronous I/O).
    assert.ok(wall < 5 * ACTIVATION_TARGET_MS, `activate() took ${wall} ms (over ${5 * ACTIVATION_TARGET_MS} ms)`);
  });

  it('walkthrough: each step turns done as it is done through the UI', async () => {
    const page = session.page;
    const step = (id: string) => page.locator(`.gettingStartedContainer [data-done-step-id$="#${id}"]`).first();
    const done = async (id: string) => (await step(id).getAttribute('aria-checked')) === 'true';
    // Escape (which the palette helper presses first) takes the walkthrough back to the Welcome page: open it again
    // after each action, which also shows that what is done stays done.
    // Something taking the focus late (a toast, a view) closes the quick pick: try again then.
    const openWalkthrough = async () => {
      for (let attempt = 1; ; attempt++) {
        try {
          await runCommand(page, 'Welcome: Open Walkthrough...');
          await quickPickRow(page, WALKTHROUGH_TITLE).click({ timeout: 5_000 });
          await step('lookUp').waitFor({ state: 'attached', timeout: 15_000 });
          return;
        } catch (error) {
          if (attempt === 3) {
            throw error;
          }
        }
      }
    };
    const waitDone = async (id: string) => {
      await openWalkthrough();
      await poll(() => done(id), 15_000, `the walkthrough step "${id}" did not turn done`);
    };
    await openWalkthrough();
    for (const id of STEPS) {
      assert.equal(await done(id), false, `the step "${id}" is done before it was done`);
    }

    // The base URL set in the User settings (where the step's link leads) reaches this remote window.
    await setInSettingsEditor(page, session.server.userDataDir, 'alphaAxo.baseUrl', service().url);
    await waitDone('baseUrl');
    // The walkthrough redraws as a step turns done and may take the focus late, closing a command's input box before
    // it is typed into (seen once in a CI-like run with a key, once in a full run with the article's title): run the
    // command again then (setting a key twice, or opening an article once it is typed, is harmless).
    const runWithInput = async (command: string, text: string) => {
      for (let attempt = 1; ; attempt++) {
        try {
          await runCommand(page, command);
          await fillInputBox(page, text);
          return;
        } catch (error) {
          if (attempt === 3) {
            throw error;
          }
        }
      }
    };
    await runWithInput('ALPHA: Set Chat API Key', chatKey);
    await waitDone('chatKey');
    await runWithInput('AXO: Set Encyclopedia API Key', axoKey);
    await waitDone('encyclopediaKey');
    await clearNotifications(page);
    await runCommand(page, 'ALPHA & AXO: Test Connection');
    const toast = await waitForToast(page, /Chat: (OK|failed)[\s\S]*Encyclopedia: (OK|failed)/);
    assert.match(toast, /Chat: OK.*Encyclopedia: OK/);
    await waitDone('testConnection');
    await runCommand(page, 'ALPHA: Open Chat');
    await chatFrame(page);
    await waitDone('openChat');
    await runWithInput('AXO: Open Article…', 'TypeScript');
    await waitDone('lookUp');
    for (const id of STEPS) {
      assert.equal(await done(id), true, `the step "${id}" is not done`);
    }
  });

  it('status bar: key missing after the keys are removed, ready once the chat key is set', async () => {
    const page = session.page;
    await waitForStatus(page, /is ready/i);
    await runCommand(page, 'ALPHA & AXO: Clear API Keys');
    await page.locator('.monaco-dialog-box').getByRole('button', { name: 'Remove Keys' }).click({ timeout: 10_000 });
    const missing = await waitForStatus(page, /no chat API key/i);
    assert.match(missing, /ALPHA: no key/);
    await statusItem(page).click();
    await fillInputBox(page, chatKey);
    const ready = await waitForStatus(page, /is ready/i);
    assert.match(ready, /ALPHA/);
    assert.doesNotMatch(ready, /no key|unreachable/);
  });

  it('status bar: streaming while a reply streams, and clicking it stops the reply', async () => {
    const page = session.page;
    const frame = await openChat(page);
    const before = service().requests.length;
    await sendPrompt(frame, 'Write at length #long:20000 #fault:slow');
    await waitForReplyText(frame, 20);
    await waitForStatus(page, /is replying.*stop/i);
    await statusItem(page).click();
    await waitForReplyEnd(frame, 10_000);
    await waitForStatus(page, /is ready/i);
    const request = service()
      .requests.slice(before)
      .find((r) => r.path === '/v1/alpha');
    assert.ok(request, 'the prompt reached the service');
    await poll(async () => request.aborted, 10_000, 'the status bar item did not stop the request');
  });

  it('a workspace .vscode/settings.json cannot redirect requests: they go to the URL in the user settings', async () => {
    const frame = await chatFrame(session.page);
    const before = service().requests.length;
    await sendPrompt(frame, 'Where do I go? #echo');
    await waitForReplyEnd(frame, 30_000);
    assert.ok(
      service()
        .requests.slice(before)
        .some((r) => r.path === '/v1/alpha' && r.keyKind === 'chat'),
      'the prompt reached the service in the user settings',
    );
    assert.deepEqual(
      decoyService().requests.map((r) => `${r.method} ${r.path}`),
      [],
      'the workspace-level URL received requests',
    );
  });

  it('a workspace .vscode/settings.json cannot turn hover lookups on, nor turn the cache off and delete it', async () => {
    const page = session.page;
    const { userDataDir } = session.server;
    // Clear API Keys (above) removed the encyclopedia key too.
    await runCommand(page, 'AXO: Set Encyclopedia API Key');
    await fillInputBox(page, axoKey);

    // The workspace says cacheTtlHours 0; the user's 24 h applies: the lookup is kept on disk and served again.
    await runCommand(page, 'AXO: Open Article…');
    await fillInputBox(page, 'Ada Lovelace');
    const view = await encyclopediaFrame(page);
    await view.getByRole('heading', { name: 'Ada Lovelace' }).first().waitFor({ timeout: 15_000 });
    const cacheFile = path.join(userDataDir, 'User', 'globalStorage', 'alpha-axo.alpha-axo', 'encyclopediaCache.json');
    await poll(
      async () => fs.existsSync(cacheFile) && fs.readFileSync(cacheFile, 'utf8').includes('Ada Lovelace'),
      15_000,
      'the encyclopedia cache was not written, or was deleted',
    );
    const before = service().requests.length;
    await runCommand(page, 'AXO: Open Article…');
    await fillInputBox(page, 'Ada Lovelace');
    await view.getByText(/^Cached · /).waitFor({ timeout: 10_000 });
    assert.deepEqual(service().requests.slice(before), [], 'the second lookup was not served from the cache');

    // The workspace says hoverLookups "always"; the user's "lookedUp" applies: hovering a word sends nothing. The
    // wait is bounded: "always" fetches 400 ms after the mouse stops, so 3 s covers it several times over (the
    // same hover fetches within that time once the user's own setting says "always", below).
    const editor = await openFile(page, 'plants.txt');
    const word = editor.locator('.view-line', { hasText: 'Photosynthesis' }).first();
    const box = await word.locator(':scope > span').first().boundingBox();
    assert.ok(box, 'the line with the word is not on screen');
    const fetched = () =>
      service()
        .requests.slice(before)
        .filter((r) => r.path === '/v1/axo/article' && r.query.title === 'Photosynthesis');
    await page.mouse.move(box.x + 30, box.y + box.height / 2, { steps: 4 });
    await poll(async () => fetched().length > 0, 3_000, 'no request').then(
      () => assert.fail('hovering a word sent it to the service, as the workspace asked'),
      () => undefined,
    );
    await setUserSetting(page, userDataDir, 'alphaAxo.encyclopedia.hoverLookups', 'always');
    await hoverOver(page, await openFile(page, 'plants.txt'), 'Photosynthesis', /Photosynthesis|Chloroplasts/);
    assert.ok(fetched().length > 0, 'the hover with the user setting "always" made no request');
    await setUserSetting(page, userDataDir, 'alphaAxo.encyclopedia.hoverLookups', 'lookedUp');
  });

  it('status bar: unreachable while the service is down, ready again once it answers', async () => {
    const page = session.page;
    await service().close();
    fake = undefined;
    const frame = await chatFrame(page);
    await sendPrompt(frame, 'Anyone there?');
    await waitForReplyEnd(frame, 30_000);
    const down = await waitForStatus(page, /could not be reached/i);
    assert.match(down, /unreachable/);

    fake = await startFakeService({ chatKey, axoKey, port });
    await clearNotifications(page);
    await statusItem(page).click(); // Test Connection
    await waitForToast(page, /Chat: (OK|failed)/);
    await waitForStatus(page, /is ready/i);
  });

  it('conversation search filters the list by title and message text, with a snippet, by keyboard too', async () => {
    const frame = await chatFrame(session.page);
    const newConversation = async () => {
      await frame.getByRole('button', { name: 'New conversation' }).click();
      await poll(async () => (await prompts(frame).count()) === 0, 10_000, 'no new, empty conversation');
    };
    await newConversation();
    await sendPrompt(frame, 'Plan a weekend trip #echo');
    await waitForReplyEnd(frame);
    await sendPrompt(frame, 'Pack a crème brûlée for the quokka #echo');
    await waitForReplyEnd(frame);
    await newConversation();
    await sendPrompt(frame, 'Zebra facts #echo');
    await waitForReplyEnd(frame);

    await frame.getByRole('button', { name: 'Show conversations' }).click();
    const search = frame.getByRole('searchbox', { name: 'Search conversations' });
    await search.waitFor({ state: 'visible' });
    const list = frame.getByRole('list', { name: 'Conversations' });
    const items = list.locator('button.history-item');
    const titles = async () => (await items.locator('.history-title').allInnerTexts()).map((t) => t.trim());
    /** The list is marked busy from typing until the host's answer for the new query is drawn. */
    const busy = async () => (await list.getAttribute('aria-busy')) === 'true';
    const showing = async (expected: string[], query: string) => {
      await poll(
        async () => !(await busy()) && JSON.stringify(await titles()) === JSON.stringify(expected),
        10_000,
        async () =>
          `searching "${query}" did not show ${JSON.stringify(expected)} (shows ${JSON.stringify(await titles())})`,
      );
    };
    assert.ok((await items.count()) >= 3, 'every conversation is listed before searching');

    await search.fill('weekend');
    await showing(['Plan a weekend trip #echo'], 'weekend');

    await search.fill('QUOKKA');
    await showing(['Plan a weekend trip #echo'], 'QUOKKA');
    assert.equal(await items.first().locator('.history-snippet mark').innerText(), 'quokka');
    assert.match(await items.first().locator('.history-snippet').innerText(), /crème brûlée for the quokka/);

    await search.fill('creme brulee');
    await poll(
      async () =>
        !(await busy()) &&
        (await titles()).includes('Plan a weekend trip #echo') &&
        !(await titles()).includes('Zebra facts #echo'),
      10_000,
      'an accent-free query did not find the accented text',
    );

    await search.fill('no conversation has this 7f3k');
    await list.getByText('No conversations match').waitFor({ timeout: 10_000 });
    assert.equal(await items.count(), 0);
    assert.equal((await frame.getByRole('status').filter({ hasText: 'No conversations match' }).count()) > 0, true);

    // Keyboard: down from the box to the first match, Enter opens it.
    await search.fill('quokka');
    await showing(['Plan a weekend trip #echo'], 'quokka');
    await search.press('ArrowDown');
    await session.page.keyboard.press('Enter');
    await poll(
      async () => (await prompts(frame).allTextContents()).some((t) => t.includes('for the quokka')),
      10_000,
      'Enter on the match did not open its conversation',
    );

    // Escape in a filled box clears it and keeps the list open.
    await frame.getByRole('button', { name: 'Show conversations' }).click();
    await search.focus();
    await search.press('Escape');
    assert.equal(await search.inputValue(), '');
    await poll(async () => (await items.count()) >= 3, 5_000, 'clearing the search did not list everything again');
    await search.press('Escape');
    await search.waitFor({ state: 'hidden', timeout: 5_000 });
  });

  it('leaves neither key in any webview page, nor in any file of the run (user data, extensions, workspace, logs)', async () => {
    const page = session.page;
    const outer = page.locator('iframe.webview');
    const count = await outer.count();
    assert.ok(count >= 2, `only ${count} webviews to scan`);
    for (let i = 0; i < count; i++) {
      const html = await outer
        .nth(i)
        .contentFrame()
        .locator('iframe#active-frame')
        .contentFrame()
        .locator('html')
        .evaluate(outerHtml);
      for (const key of [chatKey, axoKey]) {
        assert.ok(!html.includes(key), `webview ${i} holds a key`);
      }
    }
    const { runDir, userDataDir } = session.server;
    await session.close(); // the server flushes its logs and state as it stops
    const hits = scanForSecrets(runDir, [chatKey, axoKey]);
    assert.deepEqual(hits, [], `keys found in ${runDir}`);
    assert.ok(countFiles(runDir) > 10, `the scan found almost nothing to read in ${runDir}`);
    const logs = extensionLogs(userDataDir)
      .map((file) => fs.readFileSync(file, 'utf8'))
      .join('\n');
    assert.match(logs, /Authorization: Bearer \*\*\*/, 'the log shows requests with the key redacted');
  });
});
