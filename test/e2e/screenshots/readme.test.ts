import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import { useFakeService } from '../harness/fakeServiceHooks';
import { repoRoot, vsixPath } from '../harness/paths';
import { useWorkbench } from '../harness/session';
import { chatFrame, fillInputBox, runCommand, webviewFrame } from '../harness/workbench';
import { replies, sendPrompt, waitForReplyEnd, waitForReplyText } from '../ui/chatHelpers';
import { encyclopediaFrame, hoverOver, openFile } from '../ui/encyclopediaHelpers';

/** Where the README's screenshots go (excluded from the .vsix by .vscodeignore). */
const outDir = path.join(repoRoot, 'media', 'screenshots');
/** Above this a screenshot is reported: the README should stay light. */
const MAX_BYTES = 150 * 1024;
const VIEWPORT = { width: 1280, height: 800 };

/** A rectangle around `locators` (their union), grown by `margin` and kept inside the viewport. */
async function around(
  locators: Locator[],
  margin = 8,
): Promise<{ x: number; y: number; width: number; height: number }> {
  const boxes = [];
  for (const locator of locators) {
    const box = await locator.boundingBox();
    assert.ok(box, 'an element to capture is not visible');
    boxes.push(box);
  }
  const x = Math.max(0, Math.min(...boxes.map((b) => b.x)) - margin);
  const y = Math.max(0, Math.min(...boxes.map((b) => b.y)) - margin);
  const right = Math.min(VIEWPORT.width, Math.max(...boxes.map((b) => b.x + b.width)) + margin);
  const bottom = Math.min(VIEWPORT.height, Math.max(...boxes.map((b) => b.y + b.height)) + margin);
  return { x, y, width: right - x, height: bottom - y };
}

/** Saves `media/screenshots/<name>.png` of `clip` (the whole window without one) and logs its size. */
async function save(page: Page, name: string, clip?: Awaited<ReturnType<typeof around>>): Promise<void> {
  fs.mkdirSync(outDir, { recursive: true });
  const file = path.join(outDir, `${name}.png`);
  await page.screenshot({ path: file, clip, animations: 'disabled', caret: 'hide' });
  const bytes = fs.statSync(file).size;
  console.log(`    ${path.relative(repoRoot, file)}: ${Math.round(bytes / 1024)} KiB`);
  assert.ok(bytes < MAX_BYTES, `${name}.png is ${Math.round(bytes / 1024)} KiB (keep it under ${MAX_BYTES / 1024})`);
}

/**
 * The chat in an editor tab, opened anew: the side bar closed (its chat view, hidden, stays in the page), so the
 * frame found is the one on screen.
 */
async function editorChat(page: Page): Promise<FrameLocator> {
  await runCommand(page, 'View: Close All Editors');
  if (await page.locator('.part.sidebar').isVisible()) {
    await runCommand(page, 'View: Close Primary Side Bar'); // offered only while it is open
  }
  await runCommand(page, 'ALPHA: Open Chat in Editor');
  const visible = (f: FrameLocator) => f.getByRole('textbox', { name: 'Message ALPHA' }).filter({ visible: true });
  // The page's own button: the palette's "New Conversation" would reveal the side bar's chat.
  await (await webviewFrame(page, visible)).getByRole('button', { name: 'New conversation' }).click();
  // Found again: a frame is found by its place among the webviews, which the side bar's closing may change.
  return webviewFrame(page, visible);
}

/** Drags the sash on the side bar's right edge until the side bar is `width` pixels wide. */
async function widenSidebar(page: Page, width: number): Promise<void> {
  const sidebar = await page.locator('.part.sidebar').boundingBox();
  assert.ok(sidebar, 'the side bar is not visible');
  const edge = sidebar.x + sidebar.width;
  const sashes = page.locator('.monaco-sash.vertical');
  for (let i = 0; i < (await sashes.count()); i++) {
    const box = await sashes.nth(i).boundingBox();
    if (box && box.height > 100 && Math.abs(box.x + box.width / 2 - edge) < 6) {
      const y = box.y + box.height / 2;
      await page.mouse.move(box.x + box.width / 2, y);
      await page.mouse.down();
      await page.mouse.move(sidebar.x + width, y, { steps: 8 });
      await page.mouse.up();
      return;
    }
  }
  throw new Error('no sash on the side bar edge');
}

/**
 * The README's screenshots, taken from the packaged extension in code-server against the fake service: run by
 * `npm run screenshots` (scripts/screenshots.mjs), not by `npm test`.
 */
describe('README screenshots', function () {
  this.timeout(120_000);
  const chatKey = `fkc_${randomBytes(12).toString('hex')}`;
  const axoKey = `fke_${randomBytes(12).toString('hex')}`;
  const service = useFakeService({ chatKey, axoKey });
  const session = useWorkbench('screenshots', () => ({
    vsix: vsixPath,
    baseUrl: service().url,
    env: { ALPHA_API_KEY: chatKey, AXO_API_KEY: axoKey },
    settings: {
      'workbench.colorTheme': 'Default Dark Modern',
      'workbench.activityBar.location': 'default',
      'editor.minimap.enabled': false,
      'breadcrumbs.enabled': false,
      'window.commandCenter': false,
    },
    workspaceFiles: {
      'notes.md': '# Reading list\n\n- TypeScript handbook, chapter on generics\n- Photosynthesis basics\n',
    },
  }));

  before(async () => {
    await session.page.setViewportSize(VIEWPORT);
  });

  it('chat streaming', async () => {
    const page = session.page;
    await runCommand(page, 'ALPHA: Open Chat in Editor');
    const frame = await chatFrame(page);
    // The fake's canned reply has emoji, which this machine's headless Chromium draws as boxes: the long reply
    // (paragraphs and highlighted code) has none. `slow` makes it stream visibly.
    service().setFault('slow', { path: '/v1/alpha' });
    await sendPrompt(frame, 'Show me a loop in TypeScript and in Python #long:900');
    await waitForReplyText(frame, 330, 30_000);
    await save(page, 'chat-streaming', await around([page.locator('.part.editor')], 0));
    await waitForReplyEnd(frame, 60_000);
  });

  it('code-block actions', async () => {
    const page = session.page;
    const frame = await chatFrame(page);
    const block = replies(frame).last().locator('.code-block').last();
    await block.scrollIntoViewIfNeeded();
    await block.hover();
    await block.getByRole('button', { name: 'Insert at cursor' }).hover();
    await page.waitForTimeout(500); // the toolbar's hover styles
    // Bounding boxes of elements in frames are in the page's coordinates.
    await save(page, 'code-block-actions', await around([block], 6));
  });

  it('encyclopedia article with facts', async () => {
    const page = session.page;
    await runCommand(page, 'View: Close All Editors');
    await runCommand(page, 'AXO: Open Article…');
    await fillInputBox(page, 'TypeScript');
    const frame = await encyclopediaFrame(page);
    await frame.getByRole('table', { name: 'Facts' }).waitFor({ timeout: 20_000 });
    // Give the article the side bar: the Chat view folded, the side bar wider.
    const chatHeader = page.locator('.part.sidebar .pane-header', { hasText: /^Chat/ }).first();
    if ((await chatHeader.getAttribute('aria-expanded')) === 'true') {
      await chatHeader.click();
    }
    await widenSidebar(page, 560);
    await page.waitForTimeout(500);
    await save(page, 'encyclopedia-article', await around([page.locator('.part.sidebar')], 0));
  });

  it('hover over a looked-up term', async () => {
    const page = session.page;
    await runCommand(page, 'View: Close Primary Side Bar'); // the editor gets the width the hover wants
    const editor = await openFile(page, 'notes.md');
    const hover = await hoverOver(page, editor, 'TypeScript', /Anders Hejlsberg/);
    await page.waitForTimeout(300);
    const line = editor.locator('.view-line', { hasText: 'TypeScript' }).first();
    await save(page, 'hover', await around([hover, line], 24));
  });

  it('grounded answer with its sources', async () => {
    const page = session.page;
    // The article looked up before: its cached facts go along with AXO's answer.
    await runCommand(page, 'AXO: Open Article…');
    await fillInputBox(page, 'TypeScript');
    await (await encyclopediaFrame(page)).getByRole('table', { name: 'Facts' }).waitFor({ timeout: 20_000 });
    const frame = await editorChat(page);
    const toggle = frame.getByRole('button', { name: 'Ground with AXO', exact: true });
    if ((await toggle.getAttribute('aria-pressed')) !== 'true') {
      await toggle.click();
    }
    await sendPrompt(frame, 'When did TypeScript first appear, and who designed it?');
    await waitForReplyEnd(frame, 60_000);
    const reply = replies(frame).last();
    await reply.getByRole('region', { name: 'Sources' }).waitFor({ timeout: 20_000 });
    await save(page, 'grounded-answer', await around([page.locator('.part.editor')], 0));
  });

  it('math in a reply', async () => {
    const page = session.page;
    const frame = await editorChat(page);
    const toggle = frame.getByRole('button', { name: 'Ground with AXO', exact: true });
    if ((await toggle.getAttribute('aria-pressed')) === 'true') {
      await toggle.click();
    }
    await sendPrompt(frame, 'Solve the quadratic, then integrate #math');
    await waitForReplyEnd(frame, 60_000);
    const reply = replies(frame).last();
    await reply.locator('math').first().waitFor({ timeout: 20_000 });
    await save(page, 'chat-math', await around([reply], 6));
  });

  it('prompt queue', async () => {
    const page = session.page;
    const frame = await editorChat(page);
    await sendPrompt(frame, 'Write a debounce helper in TypeScript #long:900 #fault:slow');
    await waitForReplyText(frame, 200, 30_000);
    const input = frame.getByRole('textbox', { name: 'Message ALPHA' });
    const queue = frame.getByRole('region', { name: 'Queued prompts' });
    for (const [i, text] of ['Now add a cancel() method', 'And write tests for it with fake timers'].entries()) {
      await input.fill(text);
      await input.press('Enter');
      await queue.locator('.queue-text').nth(i).waitFor({ timeout: 15_000 });
    }
    await save(page, 'chat-queue', await around([page.locator('.part.editor')], 0));
    await frame.getByRole('button', { name: 'Stop generating' }).click();
    await waitForReplyEnd(frame, 30_000);
  });

  it('instructions and the context gauge', async () => {
    const page = session.page;
    fs.writeFileSync(
      path.join(session.server.workspaceDir, 'AGENTS.md'),
      '# Conventions\n\nUse TypeScript strict mode. Prefer small pure functions. Every change comes with a test.\n',
    );
    const frame = await editorChat(page);
    await frame.getByRole('button', { name: /^Instructions: AGENTS\.md, ≈\d+ tokens$/ }).waitFor({ timeout: 20_000 });
    await sendPrompt(frame, 'Show me a loop in TypeScript and in Python #long:1500');
    await waitForReplyEnd(frame, 60_000);
    await sendPrompt(frame, 'And the same loop in Rust #long:1500');
    await waitForReplyEnd(frame, 60_000);
    const gauge = frame.locator('details.budget');
    if ((await gauge.getAttribute('open')) === null) {
      await gauge.locator('summary').click();
    }
    await gauge.locator('dd[data-part="instructions"]').waitFor({ timeout: 10_000 });
    const composer = frame.locator('.composer');
    await save(page, 'chat-gauge', await around([gauge, composer], 8));
  });
});
