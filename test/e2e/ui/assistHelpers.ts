import type { Locator, Page } from 'playwright-core';
import { poll } from '../harness/workbench';

/** The text editor (not a diff editor) of the active editor group. */
export function activeEditor(page: Page): Locator {
  // A diff editor's two sides are `.monaco-editor`s too, deeper down; a hidden editor may stay in the page.
  return page.locator('.editor-group-container.active .editor-instance > .monaco-editor:visible').first();
}

/**
 * The whole text of a (small) editor as it renders it: its view lines in order of their position, with the
 * non-breaking spaces Monaco renders turned back into spaces. Every line must be in view.
 */
export async function editorText(editor: Locator): Promise<string> {
  // Only the text's own lines: an inline diff shows deleted lines in view zones, which hold view lines too.
  const lines = await editor.locator('.lines-content > .view-lines > .view-line').evaluateAll((elements) =>
    elements
      .map((element) => {
        const el = element as unknown as { style: { top: string }; textContent: string | null };
        return { top: parseFloat(el.style.top), text: el.textContent ?? '' };
      })
      .sort((a, b) => a.top - b.top)
      .map((line) => line.text.replace(/\u00a0/g, ' ')),
  );
  return lines.join('\n');
}

/** Waits until `editor` shows exactly `expected`; the error shows what it showed instead. */
export async function waitForEditorText(editor: Locator, expected: string, timeoutMs = 15_000): Promise<void> {
  let seen = '';
  try {
    await poll(
      async () => {
        seen = await editorText(editor).catch(() => seen);
        return seen === expected;
      },
      timeoutMs,
      'the editor did not show the expected text',
    );
  } catch (error) {
    throw new Error(`the editor shows:\n${seen}\n--- instead of:\n${expected}`, { cause: error });
  }
}

/**
 * Puts the cursor at the start of line `line` (1-based) of `editor` and, when `lines` > 0, selects that many whole
 * lines from there (the selection ends at the start of the line after them). It clicks the line number, which selects
 * the line: the text area is as wide as the longest line, so a click there may land anywhere.
 */
export async function selectLines(page: Page, editor: Locator, line: number, lines = 0): Promise<void> {
  const number = editor.locator('.margin-view-overlays .line-numbers', { hasText: new RegExp(`^${line}$`) }).first();
  await number.waitFor({ state: 'visible', timeout: 10_000 });
  await number.click();
  if (lines === 0) {
    await page.keyboard.press('ArrowLeft');
  }
  for (let i = 1; i < lines; i++) {
    await page.keyboard.press('Shift+ArrowDown');
  }
}

/**
 * Clicks a button of the notification whose message matches: on its toast, or (when the toast has already hidden
 * itself) in the notification centre.
 */
export async function clickNotificationButton(page: Page, message: RegExp, button: string): Promise<void> {
  const inToast = page
    .locator('.notifications-toasts .notification-toast')
    .filter({ hasText: message })
    .getByRole('button', { name: button, exact: true })
    .first();
  if (await inToast.isVisible()) {
    await inToast.click();
    return;
  }
  await page.keyboard.press('Escape');
  const center = page.locator('.notifications-center');
  if (!(await center.isVisible())) {
    await page.keyboard.press('F1');
    const input = page.locator('.quick-input-widget .quick-input-box input');
    await input.fill('>Notifications: Show Notifications');
    await page
      .locator('.quick-input-widget .monaco-list-row', { hasText: 'Notifications: Show Notifications' })
      .first()
      .click();
  }
  const item = center.locator('.notification-list-item').filter({ hasText: message }).first();
  await item.waitFor({ state: 'visible', timeout: 10_000 });
  await item.hover();
  await item.getByRole('button', { name: button, exact: true }).first().click();
}

/** A button of the active editor group's title bar (the editor actions), by its accessible name. */
export function titleBarButton(page: Page, name: string): Locator {
  return page.locator('.editor-group-container.active .editor-actions').getByRole('button', { name });
}

/** The open editor tabs' labels (their `aria-label`s) in every group, read at one moment (tabs may be closing). */
export async function tabLabels(page: Page): Promise<string[]> {
  return page
    .locator('.tabs-container .tab')
    .evaluateAll((tabs) => tabs.map((tab) => tab.getAttribute('aria-label') ?? ''));
}

/**
 * Waits for a notification whose message matches, as a toast or in the notification centre (which takes new
 * notifications while it is open), and returns its message text.
 */
export async function waitForNotification(page: Page, message: RegExp, timeoutMs = 30_000): Promise<string> {
  const item = page
    .locator(
      '.notifications-toasts .notification-toast .notification-list-item-message, ' +
        '.notifications-center .notification-list-item-message',
    )
    .filter({ hasText: message })
    .first();
  await item.waitFor({ state: 'visible', timeout: timeoutMs });
  return (await item.innerText()).replace(/\s+/g, ' ').trim();
}

/**
 * Runs a palette command without touching the editor's selection first (the harness's `runCommand` presses Escape,
 * which in an editor collapses the selection). Escape goes only to an open palette, to try again.
 */
export async function runCommandOnSelection(page: Page, title: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const widget = page.locator('.quick-input-widget');
  const input = page.locator('.quick-input-widget .quick-input-box input');
  const exact = new RegExp(`^${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
  const row = page
    .locator('.quick-input-widget .monaco-list-row')
    .filter({ has: page.locator('.label-name', { hasText: exact }) })
    .first();
  for (;;) {
    try {
      await page.keyboard.press('F1');
      await input.fill(`>${title}`, { timeout: 3_000 });
      await row.waitFor({ state: 'visible', timeout: 2_000 });
      await row.click({ timeout: 3_000 });
      // The palette closes, or turns into the command's own input box (Refactor asks what to change).
      await poll(
        async () =>
          !(await widget.isVisible()) || !(await input.inputValue({ timeout: 1_000 }).catch(() => '')).startsWith('>'),
        5_000,
        `the palette did not close after choosing "${title}"`,
      );
      return;
    } catch (error) {
      if (await input.isVisible()) {
        await input.press('Escape');
      }
      if (Date.now() > deadline) {
        throw new Error(`could not run "${title}" from the palette within ${timeoutMs} ms`, { cause: error });
      }
    }
  }
}

/** Opens a workspace file (its tab, else or on every other try Quick Open) and waits until its tab is the active one. */
export async function openWorkspaceFile(page: Page, name: string): Promise<void> {
  const input = page.locator('.quick-input-widget .quick-input-box input');
  const exact = new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
  const row = page
    .locator('.quick-input-widget .monaco-list-row')
    .filter({ has: page.locator('.label-name', { hasText: exact }) })
    .first();
  // A file already open in the group: its tab (Quick Open may close under a focus change and lose its Enter).
  const openTab = page
    .locator('.editor-group-container.active .tab')
    .filter({ has: page.locator('.label-name', { hasText: exact }) })
    .first();
  const activeTab = page.locator('.editor-group-container.active .tab.active').first();
  const isActive = async (): Promise<boolean> => {
    // Exactly the file's tab: a proposal's diff tab is named "<file>: ALPHA's proposal (…)".
    const label = (await activeTab.getAttribute('aria-label', { timeout: 1_000 }).catch(() => null)) ?? '';
    return label.startsWith(name) && !label.startsWith(`${name}:`);
  };
  // Sixty seconds: right after a proposal's diff opened, neither a click on the file's tab nor Quick Open's Enter on
  // its row made it the active editor for 5–25 s in about one run of the file in three (no progress bar, no dialog,
  // the proposal's diff stays the active tab), once for over 30 s; then the next try works.
  const deadline = Date.now() + 60_000;
  for (let attempt = 0; ; attempt++) {
    try {
      // Every other try goes through Quick Open even when the tab is there: once in a full run thirty seconds of
      // clicks on the file's tab left the proposal's diff beside it the active one (the pointer was found on it).
      if (attempt % 2 === 0 && (await openTab.count()) > 0) {
        await openTab.click({ timeout: 3_000 });
      } else {
        if (!(await input.isVisible())) {
          await page.keyboard.press('Control+P');
        }
        await input.fill(name, { timeout: 3_000 });
        await row.waitFor({ state: 'visible', timeout: 5_000 });
        await input.press('Enter');
      }
      await poll(isActive, 5_000, `${name} did not become the active tab`);
      break;
    } catch (error) {
      if (Date.now() > deadline) {
        // What the workbench showed instead, for the failure's message: each group's tabs (* active), the focus.
        const seen = await page.evaluate(`(() => {
          const groups = Array.from(document.querySelectorAll('.editor-group-container'), (g) =>
            (g.classList.contains('active') ? 'active ' : '') + '[' + Array.from(g.querySelectorAll('.tab'),
              (t) => (t.classList.contains('active') ? '*' : '') + t.getAttribute('aria-label')).join(' | ') + ']');
          const f = document.activeElement;
          return groups.join(' ; ') + '; focus: ' + (f ? f.tagName + '.' + f.className : 'none');
        })()`);
        throw new Error(`could not open ${name}; groups: ${String(seen)}`, { cause: error });
      }
      if (await input.isVisible()) {
        await input.press('Escape');
      }
    }
  }
  await activeEditor(page).locator('.view-lines').waitFor({ state: 'visible', timeout: 10_000 });
}
