import * as assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FrameLocator } from 'playwright-core';
import { chatReply } from '../../fakeService/chatContent';
import { useFakeService } from '../harness/fakeServiceHooks';
import { vsixPath } from '../harness/paths';
import { useWorkbench } from '../harness/session';
import {
  chatFrame,
  clearNotifications,
  fillInputBox,
  notificationButton,
  poll,
  runCommand,
  screenshot,
  waitForToast,
} from '../harness/workbench';
import {
  conversationFiles,
  openChat,
  prompts,
  reloadWindow,
  replies,
  sendPrompt,
  storedConversation,
  waitForLastPrompt,
  waitForReplyEnd,
} from './chatHelpers';

/** The titles the conversation list shows, in order. */
async function listedTitles(frame: FrameLocator): Promise<string[]> {
  return (await frame.locator('.history-list .history-title').allTextContents()).map((t) => t.trim());
}

/** The stored file of the conversation whose first prompt contains `marker`, as JSON. */
function storedFile(userDataDir: string, marker: string): { title?: string; pinned?: boolean } | undefined {
  for (const file of conversationFiles(userDataDir)) {
    const value = JSON.parse(fs.readFileSync(file, 'utf8')) as {
      title?: string;
      pinned?: boolean;
      messages: { role: string; content: string }[];
    };
    if (value.messages[0]?.role === 'user' && value.messages[0].content.includes(marker)) {
      return value;
    }
  }
  return undefined;
}

/** What getBoundingClientRect gives (the webview's DOM types are not the test's). */
interface DOMRectLike {
  top: number;
  bottom: number;
}

/** The stored file of the conversation whose path or branches start with `marker`: its path and its branches. */
function storedBranches(
  userDataDir: string,
  marker: string,
): { messages: { id: string; content: string }[]; branches?: { id: string; content: string }[] } | undefined {
  for (const file of conversationFiles(userDataDir)) {
    const value = JSON.parse(fs.readFileSync(file, 'utf8')) as {
      messages: { id: string; content: string }[];
      branches?: { id: string; content: string }[];
    };
    if ([...value.messages, ...(value.branches ?? [])].some((m) => m.content.startsWith(marker))) {
      return value;
    }
  }
  return undefined;
}

/** Opens the conversation list (when closed) and waits until it lists `title`. */
async function openList(frame: FrameLocator, title: string): Promise<void> {
  const toggle = frame.getByRole('button', { name: 'Show conversations' });
  if ((await toggle.count()) > 0) {
    await toggle.click();
  }
  await frame.locator('.history-list .history-title', { hasText: title }).first().waitFor({ timeout: 10_000 });
}

/** The prices the group sets, in INR per million tokens. */
const PRICE_IN = 150;
const PRICE_OUT = 600;

/** An amount in INR as the page writes it in English. */
function rupees(amount: number): string {
  return new Intl.NumberFormat('en', {
    style: 'currency',
    currency: 'INR',
    minimumFractionDigits: 2,
    maximumFractionDigits: amount < 1 ? 4 : 2,
  }).format(amount);
}

describe('Conversations you organise and afford', function () {
  this.timeout(120_000);
  const chatKey = `fkc_${randomBytes(12).toString('hex')}`;
  const service = useFakeService({ chatKey });
  const session = useWorkbench('organise', () => ({
    vsix: vsixPath,
    baseUrl: service().url,
    env: { ALPHA_API_KEY: chatKey },
    workspaceFiles: {
      'notes.md': '# Notes\n',
      'docs/attach-me.md': '# Attached notes\n\nThe secret word is marmalade.\n',
      'logo.bin': 'PNG\u0000\u0000\u0001binary',
    },
    settings: {
      'alphaAxo.chat.inrPerMillionInputTokens': PRICE_IN,
      'alphaAxo.chat.inrPerMillionOutputTokens': PRICE_OUT,
    },
  }));

  it('renames, pins and duplicates from the list; a delete offers Undo, which brings the conversation back', async () => {
    const page = session.page;
    const frame = await openChat(page);
    await sendPrompt(frame, 'First topic');
    await waitForReplyEnd(frame);
    await frame.getByRole('button', { name: 'New conversation' }).click();
    await frame.getByRole('region', { name: 'Welcome' }).waitFor({ timeout: 10_000 });
    await sendPrompt(frame, 'Second topic');
    await waitForReplyEnd(frame);
    await openList(frame, 'First topic');
    assert.deepEqual((await listedTitles(frame)).slice(0, 2), ['Second topic', 'First topic'], 'newest first');

    // Rename a conversation that is not shown, in place.
    await frame.getByRole('button', { name: 'Rename conversation First topic' }).click();
    const field = frame.getByRole('textbox', { name: 'New title for First topic' });
    await field.fill('Renamed topic');
    await field.press('Enter');
    await frame.locator('.history-title', { hasText: 'Renamed topic' }).waitFor({ timeout: 10_000 });
    await poll(
      async () => storedFile(session.server.userDataDir, 'First topic')?.title === 'Renamed topic',
      10_000,
      'the new title was not saved',
    );
    assert.equal(await frame.locator('h1.title').innerText(), 'Second topic', 'the conversation shown keeps its title');

    // Pin it: it goes to the top, and its pin button says it is pressed.
    const pin = frame.getByRole('button', { name: 'Pin conversation Renamed topic' });
    assert.equal(await pin.getAttribute('aria-pressed'), 'false');
    await pin.click();
    await poll(async () => (await listedTitles(frame))[0] === 'Renamed topic', 10_000, 'the pinned one is not on top');
    assert.equal(await pin.getAttribute('aria-pressed'), 'true');
    assert.equal(storedFile(session.server.userDataDir, 'First topic')?.pinned, true);

    // Duplicate it: the copy is shown, with the same messages.
    await frame.getByRole('button', { name: 'Duplicate conversation Renamed topic' }).click();
    await poll(
      async () => (await frame.locator('h1.title').innerText()) === 'Renamed topic (copy)',
      10_000,
      'the copy is not shown',
    );
    await waitForLastPrompt(frame, /First topic/);
    assert.equal(await prompts(frame).count(), 1);

    // Delete the copy: it goes, a notification offers Undo, and Undo brings it back (shown again). Undo lasts 8 s
    // from the notification: a click that a busy machine delays past that gets the sentence saying so instead.
    await clearNotifications(page);
    await openList(frame, 'Renamed topic (copy)');
    const deletedAt = Date.now();
    await frame.getByRole('button', { name: 'Delete conversation Renamed topic (copy)' }).click();
    await poll(
      async () => !(await listedTitles(frame)).includes('Renamed topic (copy)'),
      10_000,
      'the deleted conversation is still listed',
    );
    await waitForToast(page, /Deleted the conversation “Renamed topic \(copy\)”/, 8_000);
    await notificationButton(page, /Deleted the conversation/, 'Undo').click();
    const clickedAfter = Date.now() - deletedAt;
    const restored = async () => (await frame.locator('h1.title').innerText()) === 'Renamed topic (copy)';
    if (clickedAfter > 6_000) {
      // Near or past the 8 s: either outcome is right, as long as one shows.
      const tooLate = page.getByText(/can no longer be restored: Undo lasts 8 seconds/);
      await poll(async () => (await restored()) || (await tooLate.count()) > 0, 15_000, 'Undo showed nothing');
      if (!(await restored())) {
        console.log(`    Undo was clicked ${clickedAfter} ms after the delete: too late, as the notice says`);
        return;
      }
    }
    await poll(restored, 10_000, 'Undo did not bring the conversation back');
    await openList(frame, 'Renamed topic (copy)');
    assert.deepEqual(
      (await listedTitles(frame)).slice(0, 3).sort(),
      ['Renamed topic', 'Renamed topic (copy)', 'Second topic'],
      'all three are listed again',
    );
  });

  it('renames the conversation shown from the palette', async () => {
    const page = session.page;
    await runCommand(page, 'ALPHA: Rename Conversation');
    await fillInputBox(page, 'Named from the palette');
    const frame = await chatFrame(page);
    await poll(
      async () => (await frame.locator('h1.title').innerText()) === 'Named from the palette',
      10_000,
      'the header did not show the new title',
    );
  });

  it('shows this workspace’s conversations or all of them, remembered after a reload', async () => {
    const page = session.page;
    // A conversation started in another workspace, written as another window would.
    const folder = path.dirname(conversationFiles(session.server.userDataDir)[0]);
    const id = randomUUID();
    const now = Date.now();
    fs.writeFileSync(
      path.join(folder, `${id}.json`),
      JSON.stringify({
        version: 2,
        id,
        title: 'From another project',
        createdAt: now,
        updatedAt: now,
        workspace: 'file:///somewhere/else',
        messages: [{ id: 'm1', role: 'user', content: 'Elsewhere', createdAt: now }],
      }),
    );
    let frame = await chatFrame(page);
    await openList(frame, 'Second topic');
    const thisWorkspace = frame.getByRole('radio', { name: 'This workspace' });
    const all = frame.getByRole('radio', { name: 'All' });
    assert.equal(await thisWorkspace.getAttribute('aria-checked'), 'true', 'this workspace by default');
    assert.ok(!(await listedTitles(frame)).includes('From another project'));
    await all.click();
    await frame.locator('.history-title', { hasText: 'From another project' }).waitFor({ timeout: 10_000 });
    assert.equal(await all.getAttribute('aria-checked'), 'true');

    await reloadWindow(page);
    frame = await chatFrame(page, 60_000);
    await openList(frame, 'From another project');
    assert.equal(await frame.getByRole('radio', { name: 'All' }).getAttribute('aria-checked'), 'true', 'remembered');
    await frame.getByRole('radio', { name: 'This workspace' }).click();
    await poll(
      async () => !(await listedTitles(frame)).includes('From another project'),
      10_000,
      'the other workspace’s conversation is still listed',
    );
  });

  it('shows each reply’s tokens and cost, reported or estimated, and the conversation’s total; names stay "ALPHA"', async () => {
    const page = session.page;
    const frame = await chatFrame(page);
    const hide = frame.getByRole('button', { name: 'Hide conversations' });
    if ((await hide.count()) > 0) {
      await hide.click(); // the list from the test before: the replies get the room
    }
    await frame.getByRole('button', { name: 'New conversation' }).click();
    await frame.getByRole('region', { name: 'Welcome' }).waitFor({ timeout: 10_000 });
    const before = service().requests.length;
    await sendPrompt(frame, 'What does this cost? #usage');
    await waitForReplyEnd(frame);
    // The fake reports the request's and the reply's characters as tokens (see reportedUsage in chatHandler.ts).
    const request = service()
      .requests.slice(before)
      .find((r) => r.path === '/v1/alpha');
    const sent = (request?.body as { messages: { content: string }[] }).messages;
    const input = sent.reduce((sum, m) => sum + m.content.length, 0);
    const reply = replies(frame).last();
    const output = chatReply(sent as { role: 'user' | 'assistant'; content: string }[]).length;
    const line = reply.locator('.usage-line');
    await line.waitFor({ timeout: 10_000 });
    const text = await line.innerText();
    assert.match(text, /tokens in, .* out \(reported by the service\)/);
    const [reportedIn, reportedOut] = (text.match(/\d[\d,]*/g) ?? []).map((n) => Number(n.replace(/,/g, '')));
    assert.equal(reportedIn, input, 'the reported input tokens');
    assert.equal(reportedOut, output, 'the reported output tokens');
    // The cost, to the paisa's hundredth (how a browser and Node round the last digit may differ).
    const shown = Number(/₹([\d.,]+)(?: · first token|$)/.exec(text)?.[1]?.replace(/,/g, ''));
    const cost = (reportedIn * PRICE_IN + reportedOut * PRICE_OUT) / 1_000_000;
    assert.ok(Math.abs(shown - cost) < 0.0001, `${text} shows about ${rupees(cost)}`);

    await sendPrompt(frame, 'And an estimate, please');
    await waitForReplyEnd(frame);
    const estimated = replies(frame).last().locator('.usage-line');
    await estimated.waitFor({ timeout: 10_000 });
    assert.match(await estimated.innerText(), /^≈ [\d,]+ tokens in, [\d,]+ out \(estimated\) · ≈ ₹/);
    assert.match(await frame.locator('.conversation-total').innerText(), /^≈ [\d,]+ tokens · ≈ ₹/);
    // The lines are inside the articles, whose names stay exactly "You" and "ALPHA".
    assert.equal(await replies(frame).count(), 2);
    assert.equal(await prompts(frame).count(), 2);
    await screenshot(page, 'chat-cost-line');
  });

  it('reads the first-token and tokens-per-second line under a reply, stored with it, and the medians', async () => {
    const frame = await chatFrame(session.page);
    const lines = replies(frame).locator('.usage-line');
    assert.equal(await lines.count(), 2, 'one footer line under each reply');
    const [reported, estimated] = [await lines.nth(0).innerText(), await lines.nth(1).innerText()];
    // Tokens, cost, then the speed, in one line (one paragraph a screen reader reads with the rest of the footer).
    const SPEED = / · first token ([\d.,]+) (ms|s) · (≈ )?([\d.,]+) tokens\/s$/;
    const first = SPEED.exec(reported);
    assert.ok(first, `the reported reply's line: "${reported}"`);
    assert.equal(first[3], undefined, 'a rate of reported tokens has no "≈"');
    const second = SPEED.exec(estimated);
    assert.ok(second, `the estimated reply's line: "${estimated}"`);
    assert.equal(second[3], '≈ ', 'a rate of estimated tokens says so');
    assert.equal(await replies(frame).locator('.usage-line .speed').count(), 2);

    // What the line shows is what the reply stored: its first token and its reported tokens over the time after it.
    const stored = storedConversation(session.server.userDataDir, 'What does this cost? #usage');
    const reply = stored?.messages[1] as
      { usage?: { output: number }; timing?: { sentAt: number; firstTokenAt: number; endedAt: number } } | undefined;
    const timing = reply?.timing;
    assert.ok(timing && reply?.usage, `the reply's timing is stored with it: ${JSON.stringify(reply)}`);
    assert.ok(timing.sentAt <= timing.firstTokenAt && timing.firstTokenAt <= timing.endedAt);
    const firstMs = timing.firstTokenAt - timing.sentAt;
    const shownMs = Number(first[1].replace(/,/g, '')) * (first[2] === 's' ? 1000 : 1);
    assert.ok(Math.abs(shownMs - firstMs) <= (first[2] === 's' ? 50 : 0.5), `${first[0]} for ${firstMs} ms`);
    const streamed = timing.endedAt - timing.firstTokenAt;
    const span = streamed >= 250 ? streamed : timing.endedAt - timing.sentAt;
    const rate = (reply.usage.output * 1000) / span;
    const shownRate = Number(first[4].replace(/,/g, ''));
    assert.ok(Math.abs(shownRate - rate) <= Math.max(0.05, rate * 0.01) + 0.5, `${first[0]} for ${rate} tokens/s`);

    // The conversation's footer: the medians of the two replies beside the total.
    const total = await frame.locator('.conversation-total').innerText();
    assert.match(total, /^≈ [\d,]+ tokens · ≈ ₹[\d.,]+ · median first token [\d.,]+ m?s · ≈ [\d.,]+ tokens\/s$/);
  });
  it('edits the first prompt into a branch and switches back: ‹ 1 / 2 ›, each version kept once, names stay "You"', async () => {
    const page = session.page;
    const fake = service();
    const frame = await chatFrame(page);
    const hide = frame.getByRole('button', { name: 'Hide conversations' });
    if ((await hide.count()) > 0) {
      await hide.click();
    }
    await frame.getByRole('button', { name: 'New conversation' }).click();
    await frame.getByRole('region', { name: 'Welcome' }).waitFor({ timeout: 10_000 });
    await sendPrompt(frame, 'Branch root question #echo');
    await waitForReplyEnd(frame);
    await sendPrompt(frame, 'Branch follow-up #echo');
    await waitForReplyEnd(frame);

    // Edit the first prompt: the conversation continues from the new version, the old one is kept.
    const first = prompts(frame).first();
    await first.hover();
    await first.getByRole('button', { name: 'Edit and resend' }).click();
    const box = frame.getByRole('textbox', { name: 'Edit message' });
    await box.fill('Branch edited question #echo');
    await box.press('Enter');
    await waitForLastPrompt(frame, /Branch edited question/);
    await waitForReplyEnd(frame);
    assert.equal(await prompts(frame).count(), 1, 'the edited version is shown, without the old follow-up');
    const versions = frame.getByRole('group', { name: 'Version 2 of 2' });
    await versions.waitFor({ timeout: 10_000 });
    assert.equal(await prompts(frame).first().locator('.branch-index').innerText(), '2 / 2');
    assert.equal(await versions.getByRole('button', { name: 'Next version' }).isDisabled(), true);

    // Back to the first version: the whole original branch comes back, and the focus stays on the switcher.
    await versions.getByRole('button', { name: 'Previous version' }).click();
    const versionOne = frame.getByRole('group', { name: 'Version 1 of 2' });
    await versionOne.waitFor({ timeout: 10_000 });
    // The switched prompt stays in view (the view does not jump to the end of the branch that came back). Checked
    // before anything here scrolls (waitForLastPrompt scrolls the last prompt into view).
    const inView = await versionOne.evaluate((group) => {
      const box = (group as unknown as { getBoundingClientRect(): DOMRectLike }).getBoundingClientRect();
      const doc = (globalThis as unknown as { document: { querySelector(s: string): unknown } }).document;
      const log = (doc.querySelector('main.log') as { getBoundingClientRect(): DOMRectLike }).getBoundingClientRect();
      return box.top >= log.top && box.bottom <= log.bottom;
    });
    assert.ok(inView, 'the version switcher is in view after the switch');
    await poll(async () => (await prompts(frame).count()) === 2, 10_000, 'the original branch did not come back');
    await waitForLastPrompt(frame, /Branch follow-up/);
    assert.match(await prompts(frame).first().innerText(), /Branch root question/);
    assert.equal(await frame.locator('h1.title').innerText(), 'Branch root question #echo', 'the title follows');
    await screenshot(page, 'chat-branches');
    assert.equal(
      await frame.locator(':focus').getAttribute('aria-label'),
      'Next version',
      'the focus is on the switcher (its Previous is now disabled)',
    );
    // Stored once: the path shown in `messages`, the other version in `branches`, no message twice.
    await poll(
      async () => {
        const file = storedBranches(session.server.userDataDir, 'Branch root question');
        return file !== undefined && file.messages[0]?.content.startsWith('Branch root question') === true;
      },
      10_000,
      'the switch was not saved',
    );
    const file = storedBranches(session.server.userDataDir, 'Branch root question');
    assert.deepEqual(
      file?.branches?.map((m) => m.content.replace(/ #echo$/, '').slice(0, 30)).slice(0, 1),
      ['Branch edited question'],
      'the edited version is kept as a branch',
    );
    const ids = [...(file?.messages ?? []), ...(file?.branches ?? [])].map((m) => m.id);
    assert.equal(new Set(ids).size, ids.length, 'each message stored once');

    // The conversation continues from the branch on screen.
    const before = fake.requests.length;
    await sendPrompt(frame, 'Branch third #echo');
    await waitForReplyEnd(frame);
    const sent = fake.requests.slice(before).find((r) => r.path === '/v1/alpha');
    const contents = (sent?.body as { messages: { content: string }[] }).messages.map((m) => m.content);
    assert.ok(
      contents.some((c) => c.includes('Branch follow-up')),
      'the original follow-up went along',
    );
    assert.ok(!contents.some((c) => c.includes('Branch edited question')), 'the other version did not');

    // And forth again, with the keyboard.
    await frame.getByRole('group', { name: 'Version 1 of 2' }).getByRole('button', { name: 'Next version' }).focus();
    await page.keyboard.press('Enter');
    await waitForLastPrompt(frame, /Branch edited question/);
    await poll(async () => (await prompts(frame).count()) === 1, 10_000, 'the edited version did not come back');
  });
  it('Ctrl+F in the side view finds text in the conversation and steps through it; Esc closes the bar', async () => {
    const page = session.page;
    const frame = await chatFrame(page);
    // Its own conversation: a prompt the fake echoes, so the word is in the prompt and in the reply.
    await frame.getByRole('button', { name: 'New conversation' }).click();
    await frame.getByRole('region', { name: 'Welcome' }).waitFor({ timeout: 10_000 });
    await sendPrompt(frame, 'Where is the pomegranate? #echo');
    await waitForReplyEnd(frame);
    await poll(
      async () => /pomegranate/.test(await replies(frame).last().innerText()),
      10_000,
      'the reply did not echo the prompt',
    );
    await frame.locator('main.log').focus();
    await page.keyboard.press('Control+F');
    const input = frame.getByRole('textbox', { name: 'Find in conversation' });
    await input.waitFor({ state: 'visible', timeout: 10_000 });
    await page.keyboard.type('POMEGRANATE');
    // The prompt and its echoed reply (case ignored).
    const count = frame.locator('.find-bar .find-count');
    await poll(async () => (await count.innerText()) === '1 of 2', 10_000, 'the find bar did not count 2 matches');
    await page.keyboard.press('Enter');
    await poll(async () => (await count.innerText()) === '2 of 2', 10_000, 'Enter did not step to the next match');
    await screenshot(page, 'chat-find');
    await page.keyboard.press('Escape');
    await frame.locator('.find-bar').waitFor({ state: 'hidden', timeout: 10_000 });
  });
  it('attaches a file with #: a chip with its tokens, its text sent with its path; a drop attaches, a binary is refused', async () => {
    const page = session.page;
    const fake = service();
    const frame = await chatFrame(page);
    await frame.getByRole('button', { name: 'New conversation' }).click();
    await frame.getByRole('region', { name: 'Welcome' }).waitFor({ timeout: 10_000 });
    const input = frame.getByRole('textbox', { name: 'Message ALPHA' });
    await input.focus();
    await page.keyboard.type('#attachme');
    const option = frame.getByRole('option', { name: /attach-me\.md/ });
    await option.first().waitFor({ timeout: 15_000 });
    assert.equal(await frame.getByRole('listbox', { name: 'Attach' }).isVisible(), true);
    assert.match((await input.getAttribute('aria-activedescendant')) ?? '', /^attach-option-0$/);
    await page.keyboard.press('Enter');
    const chip = frame.locator('.chips.pending .chip', { hasText: 'docs/attach-me.md' });
    await chip.waitFor({ timeout: 10_000 });
    assert.match(await chip.innerText(), /≈\d+ tokens/, 'the chip shows its size in tokens');
    assert.equal(await input.inputValue(), '', 'the #query left the message box');
    await screenshot(page, 'chat-attachments');

    const before = fake.requests.length;
    await page.keyboard.type('What is the secret word?');
    await page.keyboard.press('Enter');
    await poll(
      async () => fake.requests.slice(before).some((r) => r.path === '/v1/alpha'),
      15_000,
      'the prompt with its attachment was not sent',
    );
    await waitForReplyEnd(frame);
    const sent = fake.requests.slice(before).find((r) => r.path === '/v1/alpha');
    const last = (sent?.body as { messages: { role: string; content: string }[] }).messages.at(-1);
    assert.match(
      last?.content ?? '',
      /^docs\/attach-me\.md:\n```\w*\n# Attached notes\n\nThe secret word is marmalade\.\n```/,
    );
    assert.match(last?.content ?? '', /What is the secret word\?$/);

    // A drop carries the file's URI (VS Code's own list, as an editor tab or the explorer gives it).
    const uri = pathToFileURL(path.join(session.server.workspaceDir, 'notes.md')).toString();
    await frame.locator('main.log').evaluate((log, text) => {
      // The page's globals (this runs in the webview, whose DOM types the test's compiler does not know).
      const page = globalThis as unknown as {
        DataTransfer: new () => { setData(type: string, value: string): void };
        DragEvent: new (type: string, init: object) => unknown;
      };
      const data = new page.DataTransfer();
      data.setData('application/vnd.code.uri-list', text);
      for (const type of ['dragover', 'drop']) {
        (log as unknown as { dispatchEvent(event: unknown): boolean }).dispatchEvent(
          new page.DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: data }),
        );
      }
    }, uri);
    await frame.locator('.chips.pending .chip', { hasText: 'notes.md' }).waitFor({ timeout: 10_000 });

    // A binary file is refused, with the reason.
    await input.focus();
    await page.keyboard.type('#logo');
    await frame
      .getByRole('option', { name: /logo\.bin/ })
      .first()
      .waitFor({ timeout: 15_000 });
    await page.keyboard.press('Enter');
    await waitForToast(page, /logo\.bin is a binary file: only text can be attached/, 10_000);
    assert.equal(await frame.locator('.chips.pending .chip', { hasText: 'logo.bin' }).count(), 0);
  });
});
