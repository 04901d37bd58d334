import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ConsoleMessage, Dialog, Frame, FrameLocator, Locator, Page } from 'playwright-core';
import { filesUnder } from '../harness/paths';
import { chatFrame, poll, runCommand, waitForToast } from '../harness/workbench';

/** The chat webview after opening it from the palette (it is found by its "Message ALPHA" textbox). */
export async function openChat(page: Page): Promise<FrameLocator> {
  await runCommand(page, 'ALPHA: Open Chat');
  const frame = await chatFrame(page);
  await frame.getByRole('log').waitFor({ state: 'attached', timeout: 15_000 });
  return frame;
}

/**
 * Types a prompt into "Message ALPHA", presses Enter and waits until the prompt shows in the log (the reply's article
 * and "Stop generating" appear with it), so what follows reads the new reply, not the one before.
 */
export async function sendPrompt(frame: FrameLocator, text: string): Promise<void> {
  const input = frame.getByRole('textbox', { name: 'Message ALPHA' });
  const before = await prompts(frame).count();
  await input.fill(text);
  await input.press('Enter');
  await poll(async () => (await prompts(frame).count()) > before, 15_000, `the prompt "${text}" did not appear`);
}

/** The reply articles ("ALPHA"), in order. */
export function replies(frame: FrameLocator): Locator {
  return frame.getByRole('log').getByRole('article', { name: 'ALPHA', exact: true });
}

/** The prompt articles ("You"), in order. */
export function prompts(frame: FrameLocator): Locator {
  return frame.getByRole('log').getByRole('article', { name: 'You', exact: true });
}

/**
 * Waits until the last prompt in the log holds text matching `pattern`, and returns that text. After a reload or a
 * switch the page is still drawing (older messages arrive in idle slices, a pinned view follows the newest message's
 * height), and a message off screen is not rendered (`content-visibility`), so its `innerText` is empty: an earlier
 * version scrolled to it and read `innerText`, and on a busy machine the scroll could keep failing (Playwright waits
 * for the element to be stable) while the prompt was there. The prompt's text in the page (`textContent`) does not
 * depend on the scroll; a prompt that is missing still fails, with an outline of the log.
 */
export async function waitForLastPrompt(frame: FrameLocator, pattern: RegExp, timeoutMs = 15_000): Promise<string> {
  const last = prompts(frame).last();
  let text = '';
  await poll(
    async () => {
      text = (await last.textContent({ timeout: 2_000 }).catch(() => '')) ?? '';
      return pattern.test(text);
    },
    timeoutMs,
    async () =>
      `the last prompt did not show ${pattern} (it showed ${JSON.stringify(text.slice(0, 80))}); the log: ${await logOutline(frame)}`,
  );
  return text;
}

const LOG_OUTLINE = `(log) => {
  const describe = (el) => {
    const box = el.getBoundingClientRect();
    const hidden = el.getAttribute('aria-hidden') === 'true' ? ' aria-hidden' : '';
    return el.tagName.toLowerCase() + '.' + [...el.classList].join('.') + hidden + ' "' + (el.getAttribute('aria-label') ?? '') +
      '" top ' + Math.round(box.top) + ' h ' + Math.round(box.height) + ' text ' + (el.innerText ?? '').length;
  };
  const rows = [...log.children].map((child) =>
    child.matches('.older-messages') ? '[' + [...child.children].map(describe).join('; ') + ']' : describe(child));
  return 'scrollTop ' + Math.round(log.scrollTop) + ' of ' + log.scrollHeight + ' (view ' + log.clientHeight + '): ' +
    rows.join(' | ');
}`;

/**
 * What the chat's log holds, for a failure message: its scroll box, and each child (and each message in an older
 * slice) with its classes, whether it is hidden from the accessibility tree, its place and its text's length.
 */
async function logOutline(frame: FrameLocator): Promise<string> {
  return frame
    .locator('main.log')
    .evaluate(LOG_OUTLINE)
    .then(String)
    .catch((error: unknown) => `(not read: ${String(error)})`);
}

/** Waits until no reply is being written (the Send button is back). */
export async function waitForReplyEnd(frame: FrameLocator, timeoutMs = 30_000): Promise<void> {
  await frame.getByRole('button', { name: 'Stop generating' }).waitFor({ state: 'hidden', timeout: timeoutMs });
}

/** Waits until the last reply has at least `chars` characters of text, and returns its text. */
export async function waitForReplyText(frame: FrameLocator, chars: number, timeoutMs = 20_000): Promise<string> {
  const body = replies(frame).last().locator('.content');
  let text = '';
  await poll(
    async () => {
      text = (await body.innerText().catch(() => '')) ?? '';
      return text.length >= chars;
    },
    timeoutMs,
    () => `the reply did not reach ${chars} characters (it has ${text.length})`,
  );
  return text;
}

/** The conversation files the extension wrote under the run's user data (global storage). */
export function conversationFiles(userDataDir: string): string[] {
  return filesUnder(
    userDataDir,
    (file) =>
      path.basename(path.dirname(file)) === 'conversations' &&
      file.endsWith('.json') &&
      path.basename(file) !== 'index.json',
  );
}

/** A stored conversation message, as the test reads it back. */
export interface StoredMessageShape {
  role: string;
  content: string;
  status?: string;
}

/** The stored conversation whose messages include a prompt containing `marker`. */
export function storedConversation(
  userDataDir: string,
  marker: string,
): { messages: StoredMessageShape[] } | undefined {
  for (const file of conversationFiles(userDataDir)) {
    const value = JSON.parse(fs.readFileSync(file, 'utf8')) as { messages: StoredMessageShape[] };
    if (value.messages.some((m) => m.role === 'user' && m.content.includes(marker))) {
      return value;
    }
  }
  return undefined;
}

/**
 * Reloads the window through the palette and waits until the page holds a new workbench.
 *
 * The reload is checked, not assumed: VS Code in a browser vetoes an unload when one of its shutdown participants
 * answers late (a backup still pending, a promise), and the browser then asks "Leave site?". Playwright dismisses
 * such a dialog unless someone handles it, and a dismissed dialog keeps the old page: its extension host runs on and
 * a streaming reply goes on streaming, so the test after would read the old window. Here a `beforeunload` dialog is
 * accepted (as a user choosing Reload would), and the old document carries a marker the new one lacks. When the
 * window has not begun to navigate 10 s after the command (it begins within a second or two when it does), or no new
 * document is there 30 s after that, the page is reloaded as the browser does it; failing that, the error says what
 * the workbench logged about its shutdown. Each look at the page gives up after 2 s: a look at a page that is going
 * away can hang, and the look after it must still come (waiting out 30 s for a reload that never began cost two of
 * the twelve reloads watched half a minute each).
 */
export async function reloadWindow(page: Page): Promise<void> {
  const markOld = () => ((globalThis as Record<string, unknown>).__alphaOldDocument = true);
  const isOld = () => (globalThis as Record<string, unknown>).__alphaOldDocument === true;
  await page.evaluate(markOld);
  const shutdown: string[] = [];
  const onConsole = (message: ConsoleMessage) => {
    if (/lifecycle|veto/i.test(message.text())) {
      shutdown.push(message.text().replace(/%c\s*\S+\s+color:\s*#\w+\s*/g, ''));
    }
  };
  const onDialog = (dialog: Dialog) => {
    shutdown.push(`a "${dialog.type()}" dialog (${dialog.type() === 'beforeunload' ? 'accepted' : 'dismissed'})`);
    void (dialog.type() === 'beforeunload' ? dialog.accept() : dialog.dismiss()).catch(() => undefined);
  };
  page.on('console', onConsole);
  page.on('dialog', onDialog);
  // During the navigation evaluate fails ("execution context was destroyed"): that is not a new document yet.
  let navigations = 0;
  const onNavigated = (frame: Frame) => {
    if (frame === page.mainFrame()) {
      navigations++;
    }
  };
  page.on('framenavigated', onNavigated);
  const reloaded = async () => navigations > 0 && !(await within(page.evaluate(isOld), 2_000).catch(() => true));
  try {
    // Focus the editor area first: the palette helper presses Escape, which in the chat stops a streaming reply.
    await page.locator('.part.editor').click({ position: { x: 40, y: 40 } });
    await runCommand(page, 'Developer: Reload Window');
    try {
      await poll(async () => navigations > 0, 10_000, 'no navigation');
      await poll(reloaded, 30_000, 'no new document');
    } catch {
      // In full runs on a busy machine the command sometimes started no shutdown at all (nothing logged): reload
      // the page as the browser's own reload does, which runs the same shutdown (and the same veto dialog).
      shutdown.push(
        navigations > 0
          ? 'the window navigated but no new document answered within 30 s; reloading the page'
          : 'the command did not begin to reload the window within 10 s; reloading the page',
      );
      // Said in the test's output, so that a full run shows how often it happens and what the workbench said.
      const palette = await page
        .locator('.quick-input-widget')
        .isVisible()
        .catch(() => false);
      console.log(`    (reload: ${shutdown.join(' | ')}${palette ? '; the palette was still open' : ''})`);
      await page.reload({ waitUntil: 'domcontentloaded', timeout: 60_000 }).catch(() => undefined);
      await poll(
        reloaded,
        60_000,
        () => `the window did not reload; the workbench said: ${JSON.stringify(shutdown.slice(-8))}`,
      );
    }
  } finally {
    page.off('console', onConsole);
    page.off('dialog', onDialog);
    page.off('framenavigated', onNavigated);
  }
  await page.waitForLoadState('domcontentloaded');
  await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: 60_000 });
}

/** `promise`, or a rejection after `ms`. */
async function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Waits for the export's notice and returns the file it names: where the extension wrote it, which VS Code's save
 * dialog may have named otherwise than what was typed (seen once in a full run).
 */
export async function exportedFile(page: Page): Promise<{ file: string; notice: string }> {
  const notice = await waitForToast(page, /Exported the conversation to/);
  return { file: /Exported the conversation to (.+\.json)\.?$/.exec(notice)?.[1] ?? '', notice };
}

/** What the chat shows when a new conversation was asked for and did not come: its title and its prompts. */
export async function notNew(frame: FrameLocator): Promise<string> {
  const title = await frame
    .locator('h1.title')
    .textContent({ timeout: 1_000 })
    .catch(() => '?');
  return `no new conversation: the chat shows "${title}" with ${await prompts(frame).count()} prompts`;
}

/**
 * Runs "ALPHA: New Conversation" from the palette and returns the chat once it shows no prompt. Twice in full runs
 * (never alone) the first run left the conversation shown, though the palette ran it: it is run once more after
 * 15 s (noted to be found out), and the failure says what the chat showed.
 */
export async function newConversation(page: Page): Promise<FrameLocator> {
  await runCommand(page, 'ALPHA: New Conversation');
  const frame = await chatFrame(page);
  const fresh = async () => (await prompts(frame).count()) === 0;
  if (
    !(await poll(fresh, 15_000, '').then(
      () => true,
      () => false,
    ))
  ) {
    await runCommand(page, 'ALPHA: New Conversation');
  }
  await poll(fresh, 30_000, () => notNew(frame));
  return frame;
}
