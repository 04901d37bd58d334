import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { FrameLocator } from 'playwright-core';
import { SUMMARY_PROMPT } from '../../../src/core/chat/conversation/compaction';
import { estimateMessagesTokens } from '../../../src/core/chat/request/contextBudget';
import type { ChatMessage } from '../../../src/core/service/alphaClient';
import type { FakeService } from '../../fakeService/fakeService';
import { useFakeService } from '../harness/fakeServiceHooks';
import { vsixPath } from '../harness/paths';
import { useWorkbench } from '../harness/session';
import { poll, runCommand } from '../harness/workbench';
import { openChat, sendPrompt, waitForReplyEnd } from './chatHelpers';

const AGENTS = '# Conventions\n\nAlways answer in haiku.\nUse tabs for indentation.\n';

/** The messages of the last chat request the fake received. */
function lastChatRequest(fake: FakeService): ChatMessage[] {
  const chat = fake.requests.filter((r) => r.path === '/v1/alpha').at(-1);
  assert.ok(chat, `a chat request: ${fake.requests.map((r) => r.path).join(', ')}`);
  return (chat.body as { messages: ChatMessage[] }).messages;
}

/** The gauge's number for `part`, from its disclosure (opened when closed). */
async function gaugeNumber(frame: FrameLocator, part: string): Promise<number> {
  const gauge = frame.locator('details.budget');
  if ((await gauge.getAttribute('open')) === null) {
    await gauge.locator('summary').click();
  }
  const text = await gauge.locator(`dd[data-part="${part}"]`).innerText();
  return Number(text.replace(/\D/g, ''));
}

describe('Workspace instructions and the context gauge', function () {
  this.timeout(180_000);
  const chatKey = `fkc_${randomBytes(12).toString('hex')}`;
  const service = useFakeService({ chatKey });
  const session = useWorkbench('instructions', () => ({
    vsix: vsixPath,
    baseUrl: service().url,
    env: { ALPHA_API_KEY: chatKey },
    workspaceFiles: { 'AGENTS.md': AGENTS },
  }));

  it('shows the instructions chip, opens the file, and sends them first in every request', async () => {
    const fake = service();
    const frame = await openChat(session.page);
    const chip = frame.getByRole('button', { name: /^Instructions: AGENTS\.md, ≈\d+ tokens$/ });
    await chip.waitFor({ timeout: 20_000 });
    fake.reset();
    await sendPrompt(frame, 'Name a colour.');
    await waitForReplyEnd(frame);
    const sent = lastChatRequest(fake);
    assert.equal(sent.length, 2, 'the instructions, then the prompt');
    assert.equal(sent[0].role, 'user');
    assert.match(sent[0].content, /^The repository's instructions for this workspace/);
    assert.ok(sent[0].content.includes(AGENTS), 'the whole file');
    assert.equal(sent[1].content, 'Name a colour.');

    await chip.click();
    await session.page.locator('.tab', { hasText: 'AGENTS.md' }).first().waitFor({ timeout: 15_000 });
  });

  it("the gauge's numbers are the next request's, as the fake counts them", async () => {
    const fake = service();
    const frame = await openChat(session.page);
    const conversation = await gaugeNumber(frame, 'conversation');
    const instructions = await gaugeNumber(frame, 'instructions');
    const limit = await gaugeNumber(frame, 'limit');
    assert.equal(limit, 200_000);
    fake.reset();
    await sendPrompt(frame, 'And another?');
    await waitForReplyEnd(frame);
    const sent = lastChatRequest(fake);
    assert.equal(instructions, estimateMessagesTokens(sent.slice(0, 1)), 'the instructions as sent');
    assert.equal(conversation, estimateMessagesTokens(sent.slice(1, -1)), 'the earlier turns as sent');
    assert.ok(conversation > 0);
    const total = await frame.locator('details.budget .budget-total').innerText();
    assert.match(total, /^≈\d+(K)? \/ 200K tokens$/);
    await poll(
      async () => (await gaugeNumber(frame, 'conversation')) > conversation,
      10_000,
      'the gauge did not grow with the new turn',
    );
  });

  it('Compact, then Undo: the summary is sent instead of the older turns, then the originals again', async () => {
    const fake = service();
    const frame = await openChat(session.page);
    fake.reset();
    await runCommand(session.page, 'ALPHA: Compact Conversation');
    const marker = frame.getByRole('note', { name: 'Compacted' });
    await marker.waitFor({ timeout: 30_000 });
    const summaryRequest = lastChatRequest(fake);
    assert.match(summaryRequest[0].content, /^The repository's instructions/);
    assert.deepEqual(
      summaryRequest.slice(1).map((m) => m.content),
      ['Name a colour.', summaryRequest[2].content, SUMMARY_PROMPT],
      'every turn but the last, then the request for a summary',
    );
    assert.match(await marker.innerText(), /The 2 messages above are sent as a summary/);
    const total = frame.locator('.conversation-total');
    await poll(
      async () => /\(summaries included\)(?: · median|$)/.test(await total.innerText()),
      10_000,
      async () => `the total does not count the summary: "${await total.innerText()}"`,
    );

    await sendPrompt(frame, 'Third question');
    await waitForReplyEnd(frame);
    const compacted = lastChatRequest(fake);
    assert.match(compacted[1].content, /^Summary of the earlier conversation \(2 messages\)/);
    assert.deepEqual(
      compacted.slice(2).map((m) => m.content)[0],
      'And another?',
      'the last turn before the compaction follows the summary',
    );
    assert.ok(!compacted.some((m) => m.content === 'Name a colour.'), 'the summarised prompt is not sent');
    const firstPrompt = frame.getByRole('log').getByRole('article', { name: 'You', exact: true }).first();
    assert.match((await firstPrompt.textContent()) ?? '', /Name a colour\./, 'but stays in the conversation');

    await marker.getByRole('button', { name: 'Undo' }).click();
    await poll(async () => (await marker.count()) === 0, 15_000, 'the marker did not go');
    assert.match(
      await total.innerText(),
      /\(summaries included\)(?: · median|$)/,
      'an undone summary was billed: it still counts',
    );
    await sendPrompt(frame, 'Fourth question');
    await waitForReplyEnd(frame);
    const undone = lastChatRequest(fake);
    assert.equal(undone[1].content, 'Name a colour.', 'the originals are sent again');
    assert.ok(!undone.some((m) => m.content.startsWith('Summary of the earlier conversation')));
  });
});

describe('Workspace instructions in an untrusted window', function () {
  this.timeout(180_000);
  const chatKey = `fkc_${randomBytes(12).toString('hex')}`;
  const service = useFakeService({ chatKey });
  const session = useWorkbench('instructions-untrusted', () => ({
    vsix: vsixPath,
    baseUrl: service().url,
    env: { ALPHA_API_KEY: chatKey },
    workspaceFiles: { 'AGENTS.md': AGENTS },
    untrusted: true,
  }));

  it('reads none: no chip, and the request is the prompt alone', async () => {
    const fake = service();
    const frame = await openChat(session.page);
    fake.reset();
    await sendPrompt(frame, 'Name a colour.');
    await waitForReplyEnd(frame);
    const sent = lastChatRequest(fake);
    assert.deepEqual(sent, [{ role: 'user', content: 'Name a colour.' }]);
    assert.equal(await frame.getByRole('button', { name: /^Instructions:/ }).count(), 0);
    assert.equal(await gaugeNumber(frame, 'instructions'), 0);
  });
});
