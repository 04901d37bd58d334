import * as assert from 'node:assert/strict';
import { collectAssistReply, type AssistReplySource } from '../../../../src/core/assist/assistReply';
import type { ChatRequest } from '../../../../src/core/service/alphaClient';

/** About `tokens` tokens of text in lines of 20 characters (5 tokens a line). */
function text(tokens: number, word = 'abcd'): string {
  return `${word} ${word} ${word} ${word}\n`.repeat(Math.ceil(tokens / 5));
}

/** A source that answers `pieces` (streamed one by one, or joined) and keeps the requests it was sent. */
function source(pieces: string[]): AssistReplySource & { sent: ChatRequest[] } {
  const sent: ChatRequest[] = [];
  return {
    sent,
    complete: (request) => {
      sent.push(request);
      return Promise.resolve(pieces.join(''));
    },
    async *stream(request) {
      sent.push(request);
      for (const piece of pieces) {
        await Promise.resolve();
        yield piece;
      }
    },
  };
}

describe("assist: an assistance command's reply (src/core/assist/assistReply)", () => {
  const signal = new AbortController().signal;

  it('sends the instructions first and the prompt last, and streams the reply to the listener', async () => {
    const alpha = source(['He', 'llo']);
    const seen: string[] = [];
    const reply = await collectAssistReply(
      alpha,
      { model: 'skyflash', stream: true, instructions: { message: 'Always answer in haiku.' } },
      'Explain',
      signal,
      (soFar) => void seen.push(soFar),
    );
    assert.equal(reply.text, 'Hello');
    assert.deepEqual(seen, ['He', 'Hello']);
    assert.deepEqual(
      alpha.sent[0].messages.map((m) => m.content),
      ['Always answer in haiku.', 'Explain'],
    );
    assert.equal(reply.notice, undefined, 'nothing was trimmed');
    assert.equal(reply.trim, undefined);
  });

  for (const stream of [true, false]) {
    it(`says when the instructions were left out to make room (${stream ? 'streamed' : 'one piece'})`, async () => {
      const alpha = source(['// tests']);
      const prompt = text(24_000, 'code');
      const reply = await collectAssistReply(
        alpha,
        { model: 'skyflash', stream, instructions: { message: text(6_000, 'rule') } },
        prompt,
        signal,
      );
      assert.equal(reply.text, '// tests');
      assert.deepEqual(
        alpha.sent[0].messages.map((m) => m.content),
        [prompt],
        'the instructions were left out',
      );
      assert.deepEqual(reply.trim, { limit: 32_000, instructions: true });
      assert.match(reply.notice ?? '', /The repository's instructions were left out to make room\./);
    });
  }
});
