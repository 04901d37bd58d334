import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { chatReply } from '../../fakeService/chatContent';
import { useFakeService } from '../harness/fakeServiceHooks';
import { vsixPath } from '../harness/paths';
import { useWorkbench } from '../harness/session';
import { poll } from '../harness/workbench';
import { openChat, replies, sendPrompt, storedConversation, waitForReplyEnd, waitForReplyText } from './chatHelpers';

/**
 * A service that frames its stream exactly as the spec's section 6 reads: one `data:` line per event, no blank line
 * anywhere, and the connection held open for 3 s after `data: [DONE]` (the fake's `lines` framing, service-wide).
 */
describe('ALPHA chat against a stream framed as the spec says', function () {
  this.timeout(120_000);
  const chatKey = `fkc_${randomBytes(12).toString('hex')}`;
  const service = useFakeService({ chatKey, framing: 'lines' });
  const session = useWorkbench('chat-lines', () => ({
    vsix: vsixPath,
    baseUrl: service().url,
    env: { ALPHA_API_KEY: chatKey },
    settings: { 'alphaAxo.requestTimeoutSeconds': 10 },
  }));

  it('shows the reply while it streams and ends it at [DONE], though the service keeps the connection open', async () => {
    const frame = await openChat(session.page);
    const prompt = 'Lines without blank ones, café 🚀 #fault:slow';
    await sendPrompt(frame, prompt);
    const stop = frame.getByRole('button', { name: 'Stop generating' });
    await stop.waitFor({ state: 'visible', timeout: 10_000 });
    const request = await service().waitFor((r) => r.path === '/v1/alpha' && r.status === 200, 10_000);

    const early = await waitForReplyText(frame, 5);
    assert.equal(request.doneAt, undefined, `partial text (${early.length} characters) showed before [DONE]`);
    assert.ok(await stop.isVisible(), 'still streaming while partial');

    await waitForReplyEnd(frame, 60_000);
    const ended = Date.now();
    assert.ok(request.doneAt !== undefined, 'the service sent [DONE]');
    const afterDone = ended - request.doneAt;
    assert.ok(afterDone < 1000, `the reply ended ${afterDone} ms after [DONE] (the connection stays open 3 s)`);

    await frame.getByRole('button', { name: 'Send', exact: true }).waitFor({ state: 'visible', timeout: 1_000 });
    const last = replies(frame).last();
    assert.equal(await last.locator('.notice').count(), 0, 'no error, stopped or interrupted notice');
    const expected = chatReply([{ role: 'user', content: prompt }]);
    assert.ok((await last.locator('.content').innerText()).includes('Messages received: 1.'), 'the whole reply shows');
    await poll(
      async () => storedConversation(session.server.userDataDir, prompt)?.messages.at(-1)?.status === 'done',
      5_000,
      'the finished reply was not saved as done',
    );
    assert.equal(storedConversation(session.server.userDataDir, prompt)?.messages.at(-1)?.content, expected);
  });
});
