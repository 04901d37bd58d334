import * as assert from 'node:assert/strict';
import type { FrameLocator, Page } from 'playwright-core';
import type { FakeService, RecordedRequest } from '../../fakeService/fakeService';
import { fillInputBox, poll, runCommand } from '../harness/workbench';
import { openChat, prompts, replies, sendPrompt, waitForLastPrompt, waitForReplyEnd } from './chatHelpers';
import { useChatGroup } from './chatGroup';
import { encyclopediaFrame } from './encyclopediaHelpers';

/** The messages of a recorded chat request. */
function messagesOf(request: RecordedRequest): { role: string; content: string }[] {
  return ((request.body as { messages?: { role: string; content: string }[] } | undefined)?.messages ?? []).slice();
}

/** Waits for a completed chat request made after `before` (the requests recorded until then). */
async function nextChat(fake: FakeService, before: readonly RecordedRequest[]): Promise<RecordedRequest> {
  const old = new Set(before);
  return fake.waitFor((r) => r.path === '/v1/alpha' && r.completed && !old.has(r), 20_000);
}

/** How far the chat's log is from its end, in pixels, and its scroll position. */
async function logPosition(frame: FrameLocator): Promise<{ fromEnd: number; top: number; height: number }> {
  return frame.getByRole('log').evaluate((log) => ({
    fromEnd: log.scrollHeight - log.scrollTop - log.clientHeight,
    top: log.scrollTop,
    height: log.scrollHeight,
  }));
}

/** The chat page whose webview lies over the element `part` (the side bar's view, or an editor tab). */
async function chatOver(page: Page, part: string): Promise<FrameLocator> {
  let found: FrameLocator | undefined;
  await poll(
    async () => {
      const area = await page.locator(part).boundingBox();
      const outer = page.locator('iframe.webview.ready');
      for (let i = 0; area && i < (await outer.count()); i++) {
        const box = await outer.nth(i).boundingBox();
        const frame = outer.nth(i).contentFrame().locator('iframe#active-frame').contentFrame();
        const inside =
          box &&
          box.width > 0 &&
          box.x >= area.x - 1 &&
          box.y >= area.y - 1 &&
          box.x + box.width <= area.x + area.width + 1;
        if (inside && (await frame.getByRole('textbox', { name: 'Message ALPHA' }).count()) > 0) {
          found = frame;
          return true;
        }
      }
      return false;
    },
    30_000,
    `no chat page over ${part}`,
  );
  return found as FrameLocator;
}

/** Chat features that no test reached before: each through the real UI of the packaged extension. */
describe('Chat flows: edit and resend, open code, the pinned view, Ask ALPHA about an article, the editor tab', function () {
  this.timeout(120_000);
  const { service, session } = useChatGroup('chat-flows');

  it('Edit and resend sends the edited prompt in its place and replaces the reply', async () => {
    const fake = service();
    const frame = await openChat(session.page);
    await sendPrompt(frame, 'The first question #echo');
    await waitForReplyEnd(frame);
    const promptCount = await prompts(frame).count();
    const prompt = prompts(frame).last();
    await prompt.hover();
    await prompt.getByRole('button', { name: 'Edit and resend' }).click();
    const box = frame.getByRole('textbox', { name: 'Edit message' });
    await box.fill('The edited question #echo');
    const before = [...fake.requests];
    await box.press('Enter');
    const sent = await nextChat(fake, before);
    const messages = messagesOf(sent);
    assert.equal(messages.at(-1)?.content, 'The edited question #echo');
    assert.ok(!messages.some((m) => m.content.includes('The first question')), 'the original prompt was not sent');
    await waitForReplyEnd(frame);
    await waitForLastPrompt(frame, /The edited question/);
    assert.equal(await prompts(frame).count(), promptCount, 'the edit took the prompt’s place');
    await poll(
      async () => /The edited question/.test(await replies(frame).last().innerText()),
      10_000,
      'the reply is not the new one',
    );
    assert.ok(!/The first question/.test(await frame.getByRole('log').innerText()), 'the old turn is gone');
  });

  it('a code block’s "Open in new editor" opens its code in an untitled editor in its language', async () => {
    const page = session.page;
    const frame = await openChat(page);
    await sendPrompt(frame, 'Show me a greeting function');
    await waitForReplyEnd(frame);
    const block = replies(frame).last().locator('.code-block').first();
    await block.hover();
    await block.getByRole('button', { name: 'Open in new editor' }).click();
    const editor = page.locator('.editor-instance .monaco-editor .view-lines', { hasText: 'export function greet' });
    await editor.first().waitFor({ timeout: 15_000 });
    await page
      .locator('.part.editor .tab.active', { hasText: /Untitled/ })
      .first()
      .waitFor({ timeout: 10_000 });
    await page
      .locator('.part.statusbar .statusbar-item', { hasText: /^TypeScript$/ })
      .first()
      .waitFor({ timeout: 10_000 });
    await runCommand(page, 'View: Revert and Close Editor');
  });

  it('follows a streaming reply to its end, stays put once scrolled up, and Jump to latest pins it again', async () => {
    const page = session.page;
    const frame = await openChat(page);
    const earlier = await replies(frame).count();
    await sendPrompt(frame, 'Write a lot #long:12000 #fault:slow');
    const reply = replies(frame).nth(earlier);
    const log = frame.getByRole('log');
    // Pinned: while the reply itself grows past a few screens (the earlier messages of the suite do not count), the
    // view stays at its end (a sample may catch it a frame behind the newest lines, never a screen: unpinned, it
    // would fall further behind with every line).
    const screen = await log.evaluate((l) => l.clientHeight);
    await poll(
      async () => {
        const at = await logPosition(frame);
        assert.ok(at.fromEnd < screen / 2, `the view left the end while pinned (${at.fromEnd} px from it)`);
        return ((await reply.boundingBox())?.height ?? 0) > 2 * screen;
      },
      60_000,
      'the reply did not grow past two screens',
    );
    // The user scrolls up: the view stays where it was while the reply goes on growing. Growth is read in the
    // reply's text: below the view, a chunk of blocks off screen keeps the height it was last drawn at
    // (content-visibility: auto) until it is shown again, so the log's height grows by fits and starts.
    const box = await log.boundingBox();
    assert.ok(box);
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, -600);
    const jump = frame.getByRole('button', { name: 'Jump to latest' });
    await jump.waitFor({ state: 'visible', timeout: 10_000 });
    const scrolled = await logPosition(frame);
    const textLength = () => reply.evaluate((article) => article.textContent?.length ?? 0);
    const before = await textLength();
    await poll(async () => (await textLength()) > before + 300, 60_000, 'the reply stopped growing');
    const later = await logPosition(frame);
    assert.ok(Math.abs(later.top - scrolled.top) <= 2, `the view moved from ${scrolled.top} to ${later.top} px`);
    assert.ok(later.fromEnd > screen, `the end is in view again (${later.fromEnd} px below the view)`);
    // Jump to latest: back at the end, and following again.
    await jump.click();
    await poll(async () => (await logPosition(frame)).fromEnd <= 30, 10_000, 'Jump to latest did not reach the end');
    await jump.waitFor({ state: 'hidden', timeout: 10_000 });
    await frame.getByRole('button', { name: 'Stop generating' }).click();
    await waitForReplyEnd(frame);
  });

  it('Ask ALPHA about this article puts the article into the chat as context, and the request carries it', async () => {
    const page = session.page;
    const fake = service();
    await runCommand(page, 'AXO: Open Article…');
    await fillInputBox(page, 'Alan Turing');
    const encyclopedia = await encyclopediaFrame(page);
    await encyclopedia.getByRole('heading', { name: 'Alan Turing', exact: true }).waitFor({ timeout: 20_000 });
    await encyclopedia.getByRole('button', { name: 'Ask ALPHA about this' }).click();
    const frame = await openChat(page);
    await frame.getByText('Alan Turing', { exact: false }).first().waitFor({ timeout: 15_000 });
    const before = [...fake.requests];
    await sendPrompt(frame, 'Summarise this article in one sentence.');
    const sent = await nextChat(fake, before);
    const last = messagesOf(sent).at(-1)?.content ?? '';
    assert.match(last, /Alan Turing/);
    assert.match(last, /English mathematician/, 'the article’s text went along');
    assert.ok(last.endsWith('Summarise this article in one sentence.'), last.slice(-80));
    await waitForReplyEnd(frame);
  });

  it('the chat in an editor tab streams a reply there', async () => {
    const page = session.page;
    const fake = service();
    await runCommand(page, 'ALPHA: Open Chat in Editor');
    await page.locator('.part.editor .tab', { hasText: 'ALPHA Chat' }).first().waitFor({ timeout: 15_000 });
    // The tab's page: the chat webview over the editor part (webviews are drawn in an overlay, not inside the part).
    const frame = await chatOver(page, '.part.editor');
    const before = [...fake.requests];
    await sendPrompt(frame, 'Hello from the editor tab #echo');
    await nextChat(fake, before);
    await waitForReplyEnd(frame);
    await poll(
      async () => /Hello from the editor tab/.test(await replies(frame).last().innerText()),
      10_000,
      'the reply did not show in the editor tab',
    );
    // Ctrl+F there is VS Code's own find widget, not a second bar of the page's.
    await frame.locator('main.log').focus();
    await page.keyboard.press('Control+F');
    // VS Code's widget lies over the tab in the workbench's own document (the page's bar would be in the frame).
    await page.getByRole('textbox', { name: 'Find', exact: true }).first().waitFor({ timeout: 10_000 });
    assert.equal(await frame.locator('.find-bar').isVisible(), false, "the page's find bar stays closed in a tab");
    await page.keyboard.press('Escape');
  });
});
