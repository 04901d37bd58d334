import * as assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FrameLocator } from 'playwright-core';
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
  waitForToast,
} from '../harness/workbench';
import {
  conversationFiles,
  openChat,
  prompts,
  reloadWindow,
  sendPrompt,
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

/** Opens the conversation list (when closed) and waits until it lists `title`. */
async function openList(frame: FrameLocator, title: string): Promise<void> {
  const toggle = frame.getByRole('button', { name: 'Show conversations' });
  if ((await toggle.count()) > 0) {
    await toggle.click();
  }
  await frame.locator('.history-list .history-title', { hasText: title }).first().waitFor({ timeout: 10_000 });
}

describe('Conversations you organise', function () {
  this.timeout(120_000);
  const chatKey = `fkc_${randomBytes(12).toString('hex')}`;
  const service = useFakeService({ chatKey });
  const session = useWorkbench('organise', () => ({
    vsix: vsixPath,
    baseUrl: service().url,
    env: { ALPHA_API_KEY: chatKey },
    workspaceFiles: { 'notes.md': '# Notes\n' },
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

    // Delete the copy: it goes, a notification offers Undo, and Undo brings it back (shown again).
    await clearNotifications(page);
    await openList(frame, 'Renamed topic (copy)');
    await frame.getByRole('button', { name: 'Delete conversation Renamed topic (copy)' }).click();
    await poll(
      async () => !(await listedTitles(frame)).includes('Renamed topic (copy)'),
      10_000,
      'the deleted conversation is still listed',
    );
    await waitForToast(page, /Deleted the conversation “Renamed topic \(copy\)”/, 8_000);
    await notificationButton(page, /Deleted the conversation/, 'Undo').click();
    await poll(
      async () => (await frame.locator('h1.title').innerText()) === 'Renamed topic (copy)',
      10_000,
      'Undo did not bring the conversation back',
    );
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
});
