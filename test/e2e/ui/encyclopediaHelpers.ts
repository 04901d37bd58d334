import type { FrameLocator, Locator, Page } from 'playwright-core';
import { webviewFrame } from '../harness/workbench';

/** The Encyclopedia webview (its page marks its body with `data-view="encyclopedia"`). */
export async function encyclopediaFrame(page: Page, timeoutMs = 30_000): Promise<FrameLocator> {
  return webviewFrame(page, (frame) => frame.locator('body[data-view="encyclopedia"]'), timeoutMs);
}

/** The row of the open quick pick whose label is exactly `label`. */
export function quickPickRow(page: Page, label: string): Locator {
  const exact = new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
  return page
    .locator('.quick-input-widget .monaco-list-row')
    .filter({ has: page.locator('.label-name', { hasText: exact }) })
    .first();
}

/** The labels of the rows of the open quick pick. */
export async function quickPickLabels(page: Page): Promise<string[]> {
  await page.locator('.quick-input-widget .monaco-list-row').first().waitFor({ state: 'visible', timeout: 15_000 });
  return page.locator('.quick-input-widget .monaco-list-row .label-name').allInnerTexts();
}

/** A button of a notification toast whose message matches. */
export function toastButton(page: Page, message: RegExp, button: string): Locator {
  return page
    .locator('.notifications-toasts .notification-toast')
    .filter({ hasText: message })
    .getByRole('button', { name: button })
    .first();
}

/** Opens a workspace file by name through Quick Open and waits for its editor. */
export async function openFile(page: Page, name: string): Promise<Locator> {
  await page.keyboard.press('Escape');
  await page.keyboard.press('Control+P');
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await input.waitFor({ state: 'visible', timeout: 10_000 });
  await input.fill(name);
  await quickPickRow(page, name).waitFor({ state: 'visible', timeout: 10_000 });
  await input.press('Enter');
  const editor = page.locator('.editor-instance .monaco-editor').first();
  await editor.locator('.view-lines').waitFor({ state: 'visible', timeout: 10_000 });
  return editor;
}

/**
 * Hovers the mouse over the middle of the first occurrence of `text` in the visible lines of `editor` and returns
 * the hover widget once it shows `expected`.
 */
export async function hoverOver(page: Page, editor: Locator, text: string, expected: RegExp): Promise<Locator> {
  const line = editor.locator('.view-line', { hasText: text }).first();
  await line.waitFor({ state: 'visible', timeout: 10_000 });
  // Monospace text: the needle's middle is at its share of the rendered line's width (ASCII lines only).
  const content = line.locator(':scope > span').first();
  const lineText = (await content.innerText()).replace(/\u00a0/g, ' ');
  const at = lineText.indexOf(text);
  const rect = await content.boundingBox();
  if (at < 0 || !rect || !lineText.length) {
    throw new Error(`"${text}" is not in the editor line "${lineText}"`);
  }
  const charWidth = rect.width / lineText.length;
  const box = { x: rect.x + (at + text.length / 2) * charWidth, y: rect.y + rect.height / 2 };
  const hover = page.locator('.monaco-hover').filter({ hasText: expected }).first();
  for (let attempt = 0; attempt < 3; attempt++) {
    await page.mouse.move(box.x - 40, box.y + 40);
    await page.mouse.move(box.x, box.y, { steps: 4 });
    try {
      await hover.waitFor({ state: 'visible', timeout: 5_000 });
      return hover;
    } catch {
      // The hover may have opened before the extension was ready; move away and try again.
    }
  }
  await hover.waitFor({ state: 'visible', timeout: 5_000 });
  return hover;
}
