import * as assert from 'node:assert/strict';
import { REFERENCE_URLS } from '../../fakeService/chatContent';
import { chatFrame, poll } from '../harness/workbench';
import { openChat, reloadWindow, replies, sendPrompt, storedConversation, waitForReplyEnd } from './chatHelpers';
import { useChatGroup } from './chatGroup';

/** The reply's Markdown as drawn: its blocks' HTML, without the chunks a streamed reply groups them in. */
function drawnHtml(content: unknown): string {
  const element = content as { querySelector(s: string): unknown; innerHTML: string };
  const blocks = element.querySelector('.blocks') as { querySelectorAll(s: string): { innerHTML: string }[] } | null;
  return blocks
    ? Array.from(blocks.querySelectorAll('.chunk'), (chunk) => chunk.innerHTML).join('')
    : element.innerHTML;
}

describe('Streamed Markdown in the chat', function () {
  this.timeout(120_000);
  const { session } = useChatGroup('chat-markdown');

  it('reference links defined at the end of a streamed reply end as real links, as the whole reply renders', async () => {
    let frame = await openChat(session.page);
    const prompt = 'Cite your sources #refs #fault:slow';
    await sendPrompt(frame, prompt);
    const reply = replies(frame).last();
    const content = reply.locator('.content');
    // Drawn while its definitions are still to come: the first paragraph shows the reference as text.
    await poll(
      async () => (await content.innerText().catch(() => '')).includes('[the guide][1]'),
      30_000,
      'the paragraph using [the guide][1] was not drawn before its definition came',
    );
    assert.ok(await frame.getByRole('button', { name: 'Stop generating' }).isVisible(), 'still streaming');
    await waitForReplyEnd(frame, 60_000);

    const text = await content.innerText();
    assert.doesNotMatch(text, /\]\[|\[1\]:|\[api\]/, 'no reference or definition is left as text');
    const guide = content.getByRole('link', { name: 'the guide', exact: true });
    assert.equal(await guide.count(), 2, 'both uses of [the guide][1] are links');
    for (const link of await guide.all()) {
      assert.equal(await link.getAttribute('data-url'), REFERENCE_URLS['the guide']);
    }
    const api = content.getByRole('link', { name: 'the API reference' });
    assert.equal(await api.getAttribute('data-url'), REFERENCE_URLS['the API reference']);
    await content.getByRole('button', { name: 'Load image: the diagram' }).waitFor({ timeout: 5_000 });
    assert.equal(await content.locator('ol').count(), 1, 'the numbered list is one list');
    const streamed = await content.evaluate(drawnHtml);

    // The same reply loaded from history is rendered whole, in one go: the streamed one ended exactly as it.
    await poll(
      async () => storedConversation(session.server.userDataDir, prompt)?.messages.at(-1)?.status === 'done',
      10_000,
      'the finished reply was not saved',
    );
    await reloadWindow(session.page);
    frame = await chatFrame(session.page, 60_000);
    const restored = replies(frame).last().locator('.content');
    await restored.getByRole('link', { name: 'the API reference' }).waitFor({ timeout: 20_000 });
    assert.equal(await restored.evaluate(drawnHtml), streamed);
  });
});
