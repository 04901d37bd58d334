import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { replyDirective } from '../../fakeService/chatContent';
import { useFakeService } from '../harness/fakeServiceHooks';
import { vsixPath } from '../harness/paths';
import { useWorkbench } from '../harness/session';
import { chatFrame, poll } from '../harness/workbench';
import { recordAnnouncements, setUserSettings, takeAnnouncements, waitForAnnouncement } from './a11yHelpers';
import { openChat, replies, sendPrompt, waitForReplyEnd, waitForReplyText } from './chatHelpers';

describe('Accessibility of the chat: what a screen reader hears', function () {
  this.timeout(180_000);
  const chatKey = `fkc_${randomBytes(12).toString('hex')}`;
  const service = useFakeService({ chatKey });
  const session = useWorkbench('accessibility', () => ({
    vsix: vsixPath,
    baseUrl: service().url,
    env: { ALPHA_API_KEY: chatKey },
    settings: { 'alphaAxo.requestTimeoutSeconds': 10, 'workbench.colorTheme': 'Default Dark Modern' },
    workspaceFiles: { 'scratch.ts': '// scratch\n' },
  }));

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
});
