import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { FrameLocator, Page } from 'playwright-core';
import { chatFrame, poll } from '../harness/workbench';
import {
  openChat,
  prompts,
  reloadWindow,
  replies,
  sendPrompt,
  storedConversation,
  waitForReplyEnd,
} from './chatHelpers';
import { useChatGroup } from './chatGroup';

/** Every prompt the page shows, in order (text content: a message scrolled out of view is not laid out). */
async function promptTexts(frame: FrameLocator): Promise<string[]> {
  return (await prompts(frame).allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim());
}

/** Waits until the page shows exactly `expected` as its prompts, in order. */
async function waitForPrompts(frame: FrameLocator, expected: string[], timeoutMs = 5_000): Promise<void> {
  let shown: string[] = [];
  await poll(
    async () => {
      shown = await promptTexts(frame).catch(() => []);
      return expected.every((text, i) => shown[i]?.includes(text)) && shown.length === expected.length;
    },
    timeoutMs,
    () => `the page does not show the prompts ${JSON.stringify(expected)} (it shows ${JSON.stringify(shown)})`,
  );
}

/** Opens the conversation list and picks the conversation titled by `title`. */
async function openConversation(frame: FrameLocator, title: string): Promise<void> {
  await frame.getByRole('button', { name: 'Show conversations' }).click();
  const item = frame.getByRole('button', { name: new RegExp(`^${title}`) }).first();
  await item.waitFor({ state: 'visible', timeout: 10_000 });
  await item.click();
}

describe('Two windows on one conversation', function () {
  this.timeout(180_000);
  const { session } = useChatGroup('two-windows');
  const marker = `shared-${randomBytes(4).toString('hex')}`;
  const turns = [`${marker} one from window 1`, 'two from window 2', 'three from window 1', 'four from window 2'];
  let first: FrameLocator;
  let second: FrameLocator;
  let secondPage: Page;

  it('shows a turn written in one window in the other without a reload (the unit tests time it: within a second)', async () => {
    first = await openChat(session.page);
    await sendPrompt(first, turns[0]);
    await waitForReplyEnd(first);
    secondPage = await session.openAnotherWindow();
    second = await openChat(secondPage);
    await openConversation(second, marker);
    await waitForPrompts(second, turns.slice(0, 1), 10_000);

    await sendPrompt(second, turns[1]);
    await waitForReplyEnd(second);
    await waitForPrompts(first, turns.slice(0, 2));
  });

  it('shows a setting of the conversation changed in the other window: Ground with AXO, on in one, off in the other', async () => {
    const pressed = (frame: FrameLocator, value: 'true' | 'false', where: string) =>
      poll(
        async () =>
          (await frame.getByRole('button', { name: 'Ground with AXO', exact: true }).getAttribute('aria-pressed')) ===
          value,
        5_000,
        `Ground with AXO is not ${value === 'true' ? 'on' : 'off'} in ${where}`,
      );
    await pressed(first, 'false', 'window 1');
    await second.getByRole('button', { name: 'Ground with AXO', exact: true }).click();
    await pressed(second, 'true', 'window 2, where it was clicked');
    await pressed(first, 'true', 'window 1');
    await first.getByRole('button', { name: 'Ground with AXO', exact: true }).click();
    await pressed(first, 'false', 'window 1, where it was clicked');
    await pressed(second, 'false', 'window 2');
  });

  it('takes turns: every prompt and reply of both windows is in both, and stays after a reload', async () => {
    await sendPrompt(first, turns[2]);
    await waitForReplyEnd(first);
    await waitForPrompts(second, turns.slice(0, 3));
    await sendPrompt(second, turns[3]);
    await waitForReplyEnd(second);
    await waitForPrompts(first, turns);

    await poll(
      async () => storedConversation(session.server.userDataDir, marker)?.messages.length === 8,
      10_000,
      'the stored conversation does not hold all eight messages',
    );
    const stored = storedConversation(session.server.userDataDir, marker);
    assert.deepEqual(
      stored?.messages.filter((m) => m.role === 'user').map((m) => m.content),
      turns,
    );
    assert.ok(stored?.messages.every((m) => m.role === 'user' || (m.status === 'done' && m.content.length > 0)));

    await reloadWindow(session.page);
    first = await chatFrame(session.page);
    await waitForPrompts(first, turns, 30_000);
    assert.equal(await replies(first).count(), 4, 'all four replies are shown after the reload');
  });

  it('lists a conversation created in the other window without a reload', async () => {
    await second.getByRole('button', { name: 'New conversation' }).click();
    await waitForPrompts(second, []);
    const created = `created in window 2 ${marker}`;
    await sendPrompt(second, created);
    await waitForReplyEnd(second);
    await first.getByRole('button', { name: 'Show conversations' }).click();
    await first
      .getByRole('list', { name: 'Conversations' })
      .getByRole('button', { name: /^created in window 2/ })
      .waitFor({ state: 'visible', timeout: 5_000 });
  });
});
