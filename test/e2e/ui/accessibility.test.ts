import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { replyDirective } from '../../fakeService/chatContent';

declare const getComputedStyle: (e: unknown) => { fontSize: string };
import type { FrameLocator } from 'playwright-core';
import { chatFrame, fillInputBox, poll, runCommand, screenshot } from '../harness/workbench';
import {
  focusedName,
  focusRingVisible,
  AXE_THEMES,
  recordAnnouncements,
  runAxe,
  setUserSettings,
  switchTheme,
  tabTo,
  takeAnnouncements,
  waitForAnnouncement,
} from './a11yHelpers';
import { encyclopediaFrame, openFile } from './encyclopediaHelpers';
import {
  newConversation,
  notNew,
  openChat,
  prompts,
  replies,
  sendPrompt,
  waitForLastPrompt,
  waitForReplyEnd,
  waitForReplyText,
} from './chatHelpers';
import { useChatGroup } from './chatGroup';

describe('Accessibility: screen readers, keyboard only, text size', function () {
  this.timeout(180_000);
  const { service, session } = useChatGroup('accessibility');

  /** Sets `alphaAxo.chat.announceReplies` and waits until the page follows it. */
  async function announceMode(mode: string): Promise<void> {
    setUserSettings(session.server.userDataDir, { 'alphaAxo.chat.announceReplies': mode });
    const frame = await chatFrame(session.page);
    await poll(
      async () => (await frame.locator('.announcer').getAttribute('data-mode')) === mode,
      15_000,
      `the chat did not follow alphaAxo.chat.announceReplies = ${mode}`,
    );
  }

  it('a reply is announced when it starts and when it ends (its first sentence), never per delta', async () => {
    const frame = await openChat(session.page);
    await recordAnnouncements(frame);
    await sendPrompt(frame, 'Write at length #long:400 #fault:slow');
    const early = await waitForReplyText(frame, 5);
    await waitForReplyText(frame, early.length + 40);
    await waitForReplyEnd(frame, 60_000);
    const said = await waitForAnnouncement(frame, /ALPHA replied/);
    assert.deepEqual(said, [
      'polite: ALPHA is replying.',
      'polite: ALPHA replied: This is a long reply from the fake ALPHA service.',
    ]);
  });

  it('a reply of 300 characters or less is read whole; "whole" reads a long one whole; "startAndEnd" no text', async () => {
    const frame = await chatFrame(session.page);
    await sendPrompt(
      frame,
      `Short please ${replyDirective('Short **answer**. See `code` and [docs](https://x.test).')}`,
    );
    assert.deepEqual(await waitForAnnouncement(frame, /ALPHA replied/), [
      'polite: ALPHA is replying.',
      'polite: ALPHA replied: Short answer. See code and docs.',
    ]);

    await announceMode('whole');
    await sendPrompt(frame, 'Write at length #long:900');
    const whole = (await waitForAnnouncement(frame, /ALPHA replied/)).at(-1) ?? '';
    assert.match(whole, /^polite: ALPHA replied: This is a long reply from the fake ALPHA service\. .*\(code block\)/);
    assert.ok(whole.length > 500, `the whole reply is read (${whole.length} characters)`);

    await announceMode('startAndEnd');
    await sendPrompt(frame, 'Write at length #long:900');
    assert.deepEqual(await waitForAnnouncement(frame, /ALPHA replied/), [
      'polite: ALPHA is replying.',
      'polite: ALPHA replied.',
    ]);
    await announceMode('firstSentence');
  });

  it('a stopped reply is announced politely; an error assertively, with the action that fixes it', async () => {
    const frame = await chatFrame(session.page);
    await takeAnnouncements(frame);
    await sendPrompt(frame, 'Write at length #long:20000 #fault:slow');
    await waitForReplyText(frame, 30);
    await frame.getByRole('button', { name: 'Stop generating' }).click();
    const stopped = await waitForAnnouncement(frame, /stopped/);
    assert.deepEqual(stopped, ['polite: ALPHA is replying.', 'polite: ALPHA stopped. The partial reply is kept.']);

    await sendPrompt(frame, 'Please fail #fault:401');
    await waitForReplyEnd(frame);
    const failed = await waitForAnnouncement(frame, /^assertive:/);
    assert.equal(failed.length, 2, JSON.stringify(failed));
    assert.equal(failed[0], 'polite: ALPHA is replying.');
    assert.match(
      failed[1],
      /^assertive: ALPHA could not finish: .*chat API key.* Use the “Set Chat API Key” button below the reply\.$/,
    );
    await replies(frame).last().getByRole('button', { name: 'Set Chat API Key' }).waitFor();
  });

  it('works from the keyboard alone: send, stop, recall, move between messages, regenerate, copy, insert, history', async () => {
    const page = session.page;
    const code = 'export function greet(name: string): string {\n  return `Hello, ${name}! 👋`;\n}';
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: new URL(session.server.url).origin,
    });
    const editor = await openFile(page, 'scratch.ts');
    await editor.locator('.view-line', { hasText: '// scratch' }).first().click();
    await page.keyboard.press('Control+Home');
    await openChat(page);
    // A conversation of its own, so the history below has one to go back to (set up with the palette).
    const frame = await newConversation(page);
    const input = frame.getByRole('textbox', { name: 'Message ALPHA' });
    await input.focus();

    // Send with Enter; stop with Escape.
    const before = await prompts(frame).count();
    await page.keyboard.type('Keyboard only: a long one #long:20000 #fault:slow');
    await page.keyboard.press('Enter');
    await poll(async () => (await prompts(frame).count()) > before, 15_000, 'Enter did not send');
    await waitForReplyText(frame, 20);
    await page.keyboard.press('Escape');
    await replies(frame).last().getByText('Stopped.').waitFor({ timeout: 10_000 });

    // Up in the empty composer brings the last prompt back; Ctrl+A, Delete empties it again.
    assert.equal(await input.inputValue(), '');
    await page.keyboard.press('ArrowUp');
    assert.equal(await input.inputValue(), 'Keyboard only: a long one #long:20000 #fault:slow');
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');
    // The page handles keys in its own process: wait for each step to show before the next.
    await poll(async () => (await input.inputValue()) === '', 5_000, 'the composer was not emptied');

    // A draft stays where it is while Ctrl+Up / Ctrl+Down visit the messages, named exactly "ALPHA" and "You".
    // Typed into the composer (key events on the box that has the focus: what this part checks is the draft kept below).
    await input.pressSequentially('half a thought');
    await poll(async () => (await input.inputValue()) === 'half a thought', 5_000, 'the draft was not typed').catch(
      async (error: Error) => {
        throw new Error(`${error.message}; the composer holds ${JSON.stringify(await input.inputValue())}`);
      },
    );
    await page.keyboard.press('Control+ArrowUp');
    assert.equal(await focusedName(frame), 'ALPHA');
    assert.ok(await focusRingVisible(frame), 'the focused message shows a focus ring');
    await page.keyboard.press('Control+ArrowUp');
    assert.equal(await focusedName(frame), 'You');
    await page.keyboard.press('Control+ArrowDown');
    await page.keyboard.press('Control+ArrowDown');
    assert.equal(await focusedName(frame), 'Message ALPHA');
    assert.equal(await input.inputValue(), 'half a thought');
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');

    // Regenerate from the reply's toolbar, reached with Tab; Escape stops it again.
    await page.keyboard.press('Control+ArrowUp');
    await tabTo(page, frame, 'Regenerate');
    assert.ok(await focusRingVisible(frame), 'Regenerate shows a focus ring');
    await page.keyboard.press('Enter');
    await frame.getByRole('button', { name: 'Stop generating' }).waitFor({ state: 'visible', timeout: 10_000 });
    await waitForReplyText(frame, 20);
    await page.keyboard.press('Escape');
    await waitForReplyEnd(frame);

    // Copy code and Insert at cursor, reached with Tab from the reply.
    await input.focus();
    await page.keyboard.type('Show me a greeting function');
    await page.keyboard.press('Enter');
    await waitForReplyEnd(frame);
    await page.keyboard.press('Control+ArrowUp');
    await tabTo(page, frame, 'Copy code');
    assert.ok(await focusRingVisible(frame), 'Copy code shows a focus ring');
    await page.keyboard.press('Enter');
    await poll(
      async () => (await page.evaluate<string>('navigator.clipboard.readText()').catch(() => '')) === code,
      10_000,
      'the clipboard does not hold the code block',
    );
    await tabTo(page, frame, 'Insert at cursor');
    await page.keyboard.press('Enter');
    await page.locator('.monaco-editor .view-lines', { hasText: 'export function greet' }).first().waitFor();

    // Insert at cursor left the focus in the editor: back to the chat with its command, from the palette (F1, its
    // title, the arrow keys to its row: Enter on the first row as typed could run another command of the list while
    // the palette still filtered, such as "ALPHA: Open Chat in Editor").
    await runCommand(page, 'ALPHA: Open Chat');
    await poll(
      async () => (await focusedName(frame)) === 'Message ALPHA',
      10_000,
      'the composer did not get focus',
    ).catch(async (error: Error) => {
      // Where the focus is instead: the workbench's element, and whether the chat's page has it at all.
      const workbench = await page.evaluate<string>(
        `(() => { const e = document.activeElement; return e ? e.tagName + '.' + [...e.classList].join('.') : 'none'; })()`,
      );
      throw new Error(
        `${error.message}; the workbench's focus: ${workbench}, the page's: "${await focusedName(frame)}"`,
      );
    });

    // A new conversation, then the history list: open it, pick the first conversation with the arrows and Enter.
    await page.keyboard.press('Control+ArrowUp');
    await tabTo(page, frame, 'New conversation', true, 400);
    await page.keyboard.press('Enter');
    // 30 s: the command reveals the view, stops nothing, saves and redraws; on a machine kept busy that once took
    // longer than 10 s (the failure now says what the chat showed instead).
    await poll(
      async () => (await prompts(frame).count()) === 0,
      30_000,
      () => notNew(frame),
    );
    await input.focus();
    await page.keyboard.type('Second conversation');
    await page.keyboard.press('Enter');
    await waitForReplyEnd(frame);
    await tabTo(page, frame, 'Show conversations', true);
    await page.keyboard.press('Enter');
    const older = frame.locator('button.history-item', { hasText: /Keyboard only/ });
    await older.waitFor({ timeout: 10_000 });
    const focused = () =>
      older.evaluate(
        (e: unknown) => e === (globalThis as { document?: { activeElement?: unknown } }).document?.activeElement,
      );
    // One ArrowDown per check, each after the page has drawn the last one (the list fills as the host answers).
    await poll(
      async () => {
        if (await focused()) {
          return true;
        }
        await page.keyboard.press('ArrowDown');
        return false;
      },
      10_000,
      'ArrowDown did not reach the older conversation',
    );
    await page.keyboard.press('Enter');
    await waitForLastPrompt(frame, /Show me a greeting function/);
    const file = path.join(session.server.workspaceDir, 'scratch.ts');
    assert.ok(fs.existsSync(file));
  });

  it('Alt+F2 opens the focused reply as a read-only Markdown document; the command opens the last one', async () => {
    const page = session.page;
    const frame = await newConversation(page);
    await sendPrompt(frame, `One ${replyDirective('The **first** reply, to be read as text.')}`);
    await waitForReplyEnd(frame);
    await sendPrompt(frame, `Two ${replyDirective('The second reply.')}`);
    await waitForReplyEnd(frame);
    await frame.getByRole('textbox', { name: 'Message ALPHA' }).focus();
    for (let i = 0; i < 3; i++) {
      await page.keyboard.press('Control+ArrowUp');
    }
    assert.equal(await focusedName(frame), 'ALPHA');
    await page.keyboard.press('Alt+F2');
    const tab = page.locator('.tabs-container .tab', { hasText: /^ALPHA reply \d\d\.\d\d\.md/ });
    await tab.first().waitFor({ timeout: 15_000 });
    const lines = page.locator('.editor-instance .monaco-editor .view-lines').first();
    await lines.getByText('The **first** reply, to be read as text.').waitFor({ timeout: 10_000 });

    await page.keyboard.press('Control+W');
    await runCommand(page, 'ALPHA: Open Reply as Text');
    await page
      .locator('.editor-instance .monaco-editor .view-lines', { hasText: 'The second reply.' })
      .first()
      .waitFor({
        timeout: 15_000,
      });
    await screenshot(page, 'accessibility-reply-as-text');
  });

  it('alphaAxo.chat.fontSize sizes both views live (code keeps the editor font); the footer never overlaps at 240 px', async () => {
    const page = session.page;
    await runCommand(page, 'ALPHA: Open Chat');
    const frame = await chatFrame(page);
    await sendPrompt(frame, 'Show me some code');
    await waitForReplyEnd(frame);
    const encyclopedia = await encyclopediaFrame(page);
    const size = (f: typeof frame, selector: string) =>
      f
        .locator(selector)
        .first()
        .evaluate((e: unknown) => parseFloat(getComputedStyle(e).fontSize));
    const base = await size(frame, 'body');
    const code = await size(frame, 'pre code');
    setUserSettings(session.server.userDataDir, { 'alphaAxo.chat.fontSize': base * 2 });
    await poll(async () => (await size(frame, 'body')) === base * 2, 15_000, 'the chat did not take the text size');
    await poll(
      async () => (await size(encyclopedia, 'body')) === base * 2,
      15_000,
      'the encyclopedia did not take the text size',
    );
    assert.equal(await size(frame, 'pre code'), code, 'code blocks keep the editor font size');

    // Narrow the side bar until the chat is 240 px wide, by dragging its edge.
    const width = () => frame.locator('body').evaluate((e: unknown) => (e as { clientWidth: number }).clientWidth);
    for (let i = 0; i < 5 && Math.abs((await width()) - 240) > 2; i++) {
      const bar = await page.locator('.part.sidebar').boundingBox();
      assert.ok(bar);
      const x = bar.x + bar.width;
      await page.mouse.move(x + 1, bar.y + bar.height / 2);
      await page.mouse.down();
      await page.mouse.move(x + 1 - ((await width()) - 240), bar.y + bar.height / 2, { steps: 5 });
      await page.mouse.up();
    }
    assert.ok(Math.abs((await width()) - 240) <= 2, `the chat is ${await width()} px wide`);
    for (const fontSize of [base * 2, 0]) {
      setUserSettings(session.server.userDataDir, { 'alphaAxo.chat.fontSize': fontSize });
      const wanted = fontSize || base;
      await poll(async () => (await size(frame, 'body')) === wanted, 15_000, `the chat did not take ${wanted} px`);
      const boxes = await footerBoxes(frame);
      assert.deepEqual(boxes.problems, [], `the footer at 240 px and ${wanted} px text: ${JSON.stringify(boxes)}`);
      await screenshot(page, `accessibility-footer-240px-${wanted}px`);
    }
  });

  it('axe finds no serious or critical violation in the chat and the encyclopedia, in Dark, Light and High Contrast', async function () {
    this.timeout(300_000);
    const page = session.page;
    setUserSettings(session.server.userDataDir, { 'alphaAxo.chat.fontSize': 0 });
    const found: string[] = [];
    const check = async (frame: FrameLocator, state: string) => {
      for (const v of await runAxe(frame)) {
        found.push(`${state}: ${v.impact} ${v.id} (${v.help}) at ${v.targets.slice(0, 3).join(', ')}`);
      }
    };
    for (const [theme, cls] of AXE_THEMES) {
      await switchTheme(page, session.server.userDataDir, theme, cls);
      // Welcome states: a new conversation, and the encyclopedia before any lookup (first theme only shows it).
      await runCommand(page, 'ALPHA: New Conversation');
      let frame = await chatFrame(page);
      await frame.getByRole('heading', { name: 'Chat with ALPHA' }).waitFor({ timeout: 10_000 });
      await check(frame, `${theme}, chat welcome`);
      const encyclopedia = await encyclopediaFrame(page);
      await check(encyclopedia, `${theme}, encyclopedia`);

      // A long reply with code blocks, one with math, an error notice, a reply streaming, then the history open.
      await sendPrompt(frame, 'Show me code');
      await waitForReplyEnd(frame);
      await sendPrompt(frame, 'Show me math #math');
      await waitForReplyEnd(frame);
      await sendPrompt(frame, 'Please fail #fault:500');
      await waitForReplyEnd(frame);
      await sendPrompt(frame, 'Write at length #long:4000 #fault:slow');
      await waitForReplyText(frame, 20);
      await check(frame, `${theme}, chat streaming with code and an error`);
      await frame.getByRole('button', { name: 'Stop generating' }).click();
      await waitForReplyEnd(frame);
      await frame.getByRole('button', { name: 'Show conversations' }).click();
      await frame.getByRole('button', { name: 'Hide conversations' }).waitFor();
      await check(frame, `${theme}, chat with the history open`);
      await frame.getByRole('button', { name: 'Hide conversations' }).click();

      // An article with its facts table and citations.
      await runCommand(page, 'AXO: Open Article…');
      await fillInputBox(page, 'Alan Turing');
      frame = await encyclopediaFrame(page);
      await frame.getByRole('table', { name: 'Facts' }).waitFor({ timeout: 20_000 });
      await check(frame, `${theme}, encyclopedia article`);
      if (cls === 'hc-black') {
        await screenshot(page, 'accessibility-high-contrast-dark');
      }
    }
    assert.deepEqual(found, []);
  });

  it('the encyclopedia from the keyboard: open an article, Tab to its source link, Enter opens its page', async () => {
    const page = session.page;
    await runCommand(page, 'AXO: Open Article…');
    await fillInputBox(page, 'Alan Turing');
    const frame = await encyclopediaFrame(page);
    await frame.getByRole('table', { name: 'Facts' }).waitFor({ timeout: 20_000 });
    // From the top of the view, as after focusing it: Tab moves on through the article.
    await frame.getByRole('button', { name: 'Back' }).first().focus();
    await tabTo(page, frame, 'Read the article on the web');
    assert.ok(await focusRingVisible(frame), 'the link shows a focus ring');
    const before = service().requests.length;
    const opened = Promise.race([
      page
        .context()
        .waitForEvent('page', { timeout: 15_000 })
        .then((p) => `tab ${p.url()}`),
      page
        .locator('.monaco-dialog-box', { hasText: 'axo.example' })
        .waitFor({ timeout: 15_000 })
        .then(() => 'dialog'),
    ]);
    await page.keyboard.press('Enter');
    const how = await opened;
    assert.match(how, /dialog|tab .*axo\.example/);
    assert.equal(service().requests.length, before, 'the link opens its page, not a lookup');
    await page.keyboard.press('Escape');
  });
});

/** The composer footer's parts and what is wrong with them: overlaps, or parts outside the bar. */
async function footerBoxes(frame: import('playwright-core').FrameLocator): Promise<{ problems: string[] }> {
  return frame.locator('.composer-bar').evaluate((bar: unknown) => {
    type Box = { left: number; right: number; top: number; bottom: number };
    type El = { getBoundingClientRect(): Box; querySelector(s: string): El | null };
    const b = bar as El;
    const outer = b.getBoundingClientRect();
    const parts: [string, Box][] = ['.model-label', '.model-picker', '.budget'].map((s) => [
      s,
      (b.querySelector(s) as El).getBoundingClientRect(),
    ]);
    const problems: string[] = [];
    for (const [name, box] of parts) {
      if (box.left < outer.left - 0.5 || box.right > outer.right + 0.5) {
        problems.push(`${name} is cut off (${box.left}–${box.right} in ${outer.left}–${outer.right})`);
      }
    }
    const budget = parts[2][1];
    for (const [name, box] of parts.slice(0, 2)) {
      const across = box.left < budget.right && budget.left < box.right;
      const down = box.top < budget.bottom && budget.top < box.bottom;
      if (across && down) {
        problems.push(`${name} overlaps the token count`);
      }
    }
    return { problems };
  });
}
