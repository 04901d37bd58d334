import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import { screenshotsDir } from './paths';

const QUICK_INPUT = '.quick-input-widget';
const QUICK_INPUT_BOX = `${QUICK_INPUT} .quick-input-box input`;
const QUICK_INPUT_ROW = `${QUICK_INPUT} .monaco-list-row`;
const TOAST = '.notifications-toasts .notification-toast';
const CENTER = '.notifications-center.visible';

/** Opens the workbench and waits until it has rendered. */
export async function openWorkbench(page: Page, url: string, timeoutMs = 60_000): Promise<void> {
  await page.goto(url, { timeout: timeoutMs });
  await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: timeoutMs });
}

/**
 * Runs a command from the palette by its full title ("ALPHA & AXO: Test Connection"). Extension commands appear
 * a few seconds after the workbench loads, and the widget may still be closing from a previous input: when the row
 * is missing after 2 s (or the palette did not take the text), close the palette and try again.
 */
export async function runCommand(page: Page, title: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const widget = page.locator(QUICK_INPUT);
  const input = page.locator(QUICK_INPUT_BOX);
  const label = page.locator('.label-name', { hasText: exactText(title) });
  const row = page.locator(QUICK_INPUT_ROW).filter({ has: label }).first();
  const anyRow = page.locator(QUICK_INPUT_ROW).first();
  for (;;) {
    try {
      await page.keyboard.press('Escape');
      await widget.waitFor({ state: 'hidden', timeout: 2_000 });
      await page.keyboard.press('F1');
      await input.fill(`>${title}`, { timeout: 3_000 });
      // The first time, the palette gathers every command: on a busy machine that takes seconds. A palette opened
      // before the extension's contributions were read lists other commands (or "similar commands") and never ours
      // until it is opened again: once it lists anything, give our row a second, then try again (waiting the 10 s
      // meant for a slow list was 10 s of every UI file's first command).
      await anyRow.waitFor({ state: 'visible', timeout: 10_000 });
      await row.waitFor({ state: 'visible', timeout: 1_000 });
      // Enter on the row once it is the palette's active one, moved to with the arrow keys: a click can land on
      // another row of a list that is still being drawn, and a recently used command may be listed first.
      await focusRow(page, input, label);
      await input.press('Enter', { timeout: 3_000 });
      break;
    } catch (error) {
      if (Date.now() > deadline) {
        const why = error instanceof Error ? error.message.split('\n')[0] : String(error);
        throw new Error(`could not run "${title}" from the palette within ${timeoutMs} ms (last: ${why})`, {
          cause: error,
        });
      }
    }
  }
  // The palette closes (or turns into the command's own input box): wait until it no longer shows the `>` query.
  await poll(
    // Short timeouts: a command like Reload Window takes the page away under the check.
    async () =>
      !(await input.isVisible()) || !(await input.inputValue({ timeout: 1_000 }).catch(() => '')).startsWith('>'),
    10_000,
    `the palette did not close after choosing "${title}"`,
  );
}

/** Moves the palette's active row down to the one with `label` (at most 20 rows); throws when it is not reached. */
async function focusRow(page: Page, input: Locator, label: Locator): Promise<void> {
  const focused = page.locator(`${QUICK_INPUT_ROW}.focused`);
  for (let moves = 0; moves <= 20; moves++) {
    if ((await focused.filter({ has: label }).count()) > 0) {
      return;
    }
    const before = await focused.getAttribute('data-index', { timeout: 1_000 }).catch(() => null);
    await input.press('ArrowDown', { timeout: 3_000 });
    // The list answers the key in its own time: wait for the active row to move before looking again.
    await poll(
      async () => (await focused.getAttribute('data-index', { timeout: 1_000 }).catch(() => null)) !== before,
      2_000,
      'the palette did not move to the next row',
    );
  }
  throw new Error('the command is not among the first rows of the palette');
}

/** The input of the quick-input widget once it is visible: after {@link runCommand}, the command's own input box. */
export async function inputBox(page: Page, timeoutMs = 15_000): Promise<Locator> {
  const input = page.locator(QUICK_INPUT_BOX);
  await input.waitFor({ state: 'visible', timeout: timeoutMs });
  return input;
}

/** Types into the visible input box and accepts it with Enter; waits for the box to close. */
export async function fillInputBox(page: Page, text: string, timeoutMs = 15_000): Promise<void> {
  const input = await inputBox(page, timeoutMs);
  // A file dialog writes its own default into the box as it opens, and lists the folder of what is typed while it
  // is typed: Enter pressed before that listing came back was once refused ("Please select a file") with the path of
  // an existing file in the box. The box is filled until it holds the text, and a refusal is tried once more.
  for (let attempt = 1; ; attempt++) {
    await poll(
      async () => {
        await input.fill(text);
        return (await input.inputValue()) === text;
      },
      timeoutMs,
      async () => `the input box holds ${JSON.stringify(await input.inputValue())}, not ${JSON.stringify(text)}`,
    );
    await input.press('Enter');
    const hidden = () =>
      page
        .locator(QUICK_INPUT)
        .waitFor({ state: 'hidden', timeout: timeoutMs })
        .then(() => true)
        .catch(() => false);
    if (await hidden()) {
      return;
    }
    const message = await page
      .locator(`${QUICK_INPUT} .quick-input-message`)
      .innerText({ timeout: 1_000 })
      .catch(() => '');
    if (attempt > 1 || message === '') {
      throw new Error(`the input box did not accept the text: ${message || '(no message)'}`);
    }
  }
}

/**
 * Waits for a notification whose message matches and returns the message's text. It is looked for as a toast; VS Code
 * does not always draw one (it drops toasts that come more than three in 0.8 s, and none show while the notification
 * center is open), so after half the time the notification center is opened and looked in too (and left open: a
 * later {@link clearNotifications} or {@link runCommand} closes it). When neither has it, the error says what the
 * toasts, the notification center and the quick input show.
 */
export async function waitForToast(page: Page, textRegex: RegExp, timeoutMs = 30_000): Promise<string> {
  const toast = page.locator(`${TOAST} .notification-list-item-message`).filter({ hasText: textRegex }).first();
  const listed = page.locator(`${CENTER} .notification-list-item-message`).filter({ hasText: textRegex }).first();
  const textOf = async (message: Locator) => (await message.innerText()).replace(/\s+/g, ' ').trim();
  try {
    await toast.waitFor({ state: 'visible', timeout: timeoutMs / 2 });
    return await textOf(toast);
  } catch {
    // Not as a toast (yet): look in the notification center as well.
  }
  let found: Locator | undefined;
  try {
    await poll(
      async () => {
        if (!(await toast.isVisible()) && !(await page.locator(CENTER).isVisible())) {
          await page.keyboard.press('Escape');
          await page
            .locator(QUICK_INPUT)
            .waitFor({ state: 'hidden', timeout: 2_000 })
            .catch(() => undefined);
          await runCommand(page, 'Notifications: Show Notifications').catch(() => undefined);
        }
        found = (await toast.isVisible()) ? toast : (await listed.isVisible()) ? listed : undefined;
        return found !== undefined;
      },
      timeoutMs / 2,
      `no notification matches ${String(textRegex)}`,
    );
  } catch (error) {
    throw new Error(`${(error as Error).message}; ${await notificationState(page)}`, { cause: error });
  }
  return textOf(found as Locator);
}

/** What the notifications and the quick input show, for an error message. */
async function notificationState(page: Page): Promise<string> {
  const texts = async (selector: string) =>
    (
      await page
        .locator(selector)
        .allInnerTexts()
        .catch(() => [])
    ).map((t) => JSON.stringify(t.replace(/\s+/g, ' ').trim()));
  const toasts = await texts(`${TOAST} .notification-list-item-message`);
  const listed = await texts(`${CENTER} .notification-list-item-message`);
  const quick = (await page.locator(QUICK_INPUT).isVisible())
    ? `visible, title ${JSON.stringify(
        await page
          .locator(`${QUICK_INPUT} .quick-input-title`)
          .innerText()
          .catch(() => ''),
      )}, ` +
      `value ${JSON.stringify(
        await page
          .locator(QUICK_INPUT_BOX)
          .inputValue()
          .catch(() => ''),
      )}`
    : 'hidden';
  return `toasts: [${toasts.join(', ')}]; notification center: [${listed.join(', ')}]; quick input: ${quick}`;
}

/** A button of the notification whose message matches, as a toast or in the notification center. */
export function notificationButton(page: Page, message: RegExp, button: string): Locator {
  return page
    .locator(`${TOAST}, ${CENTER} .notification-list-item`)
    .filter({ hasText: message })
    .getByRole('button', { name: button })
    .first();
}

/**
 * Clears every notification, so the next {@link waitForToast} sees only new ones, and leaves the notification
 * center closed (new notifications show as toasts only while it is).
 */
export async function clearNotifications(page: Page): Promise<void> {
  await runCommand(page, 'Notifications: Clear All Notifications');
  await page.locator(TOAST).first().waitFor({ state: 'detached', timeout: 5_000 });
  if (await page.locator(CENTER).isVisible()) {
    await runCommand(page, 'Notifications: Hide Notifications');
    await page.locator(CENTER).waitFor({ state: 'hidden', timeout: 5_000 });
  }
}

/**
 * The content frame of the first webview whose content has `probe`'s element (webviews nest two iframes:
 * `iframe.webview.ready` > `iframe#active-frame`).
 */
export async function webviewFrame(
  page: Page,
  probe: (frame: FrameLocator) => Locator,
  timeoutMs = 30_000,
): Promise<FrameLocator> {
  const deadline = Date.now() + timeoutMs;
  const outer = page.locator('iframe.webview.ready');
  for (;;) {
    const count = await outer.count();
    for (let i = 0; i < count; i++) {
      const frame = outer.nth(i).contentFrame().locator('iframe#active-frame').contentFrame();
      if ((await probe(frame).count()) > 0) {
        return frame;
      }
    }
    if (Date.now() > deadline) {
      throw new Error(`no webview with the expected content within ${timeoutMs} ms (${count} webviews)`);
    }
    await page.waitForTimeout(250);
  }
}

/** The chat webview: the one with the "Message ALPHA" textbox. */
export async function chatFrame(page: Page, timeoutMs = 30_000): Promise<FrameLocator> {
  return webviewFrame(page, (frame) => frame.getByRole('textbox', { name: 'Message ALPHA' }), timeoutMs);
}

/** Saves a full-page screenshot as `.vscode-test/screenshots/<name>.png` and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(screenshotsDir, { recursive: true });
  const file = path.join(screenshotsDir, `${slug(name)}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/**
 * A mocha `afterEach` hook: when the test failed, saves a screenshot named after the group and the test.
 * `getPage` may return undefined (the page is not open yet).
 */
export function screenshotOnFailure(name: string, getPage: () => Page | undefined): Mocha.AsyncFunc {
  return async function (this: Mocha.Context) {
    const page = getPage();
    const test = this.currentTest;
    if (!page || !test || test.state !== 'failed') {
      return;
    }
    try {
      const file = await screenshot(page, `${name}-${test.title}`);
      console.log(`    screenshot: ${path.relative(process.cwd(), file)}`);
    } catch (error) {
      console.log(`    (no screenshot: ${String(error)})`);
    }
  };
}

/** Polls `condition` every 100 ms until it holds; throws `message` after `timeoutMs`. */
export async function poll(
  condition: () => Promise<boolean>,
  timeoutMs: number,
  message: string | (() => string | Promise<string>),
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) {
      // A function says what was seen last, when it failed (a string is written before the first try).
      throw new Error(`${typeof message === 'string' ? message : await message()} (within ${timeoutMs} ms)`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 100);
}

function exactText(text: string): RegExp {
  return new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
}
