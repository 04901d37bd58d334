import * as assert from 'node:assert/strict';
import { AlphaClient, type ChatMessage } from '../../../../src/core/service/alphaClient';
import { newId, type StoredMessage } from '../../../../src/core/chat/conversation/conversation';
import { runReply, type ReplySource } from '../../../../src/core/chat/runs/replyRunner';
import { HttpClient } from '../../../../src/core/net/http';
import { silentLogger } from '../../../../src/core/logger';
import { readContentDeltas } from '../../../../src/core/service/sse';
import { estimateTokens } from '../../../../src/core/service/tokenEstimate';
import { costInr, parseUsage, reportedUsage, type TokenUsage } from '../../../../src/core/service/usage';
import { chatReply } from '../../../fakeService/chatContent';
import { startFakeService, type FakeService } from '../../../fakeService/fakeService';

async function* bytes(...chunks: string[]): AsyncGenerator<Uint8Array> {
  for (const chunk of chunks) {
    yield Buffer.from(chunk);
  }
}

function reply(): StoredMessage {
  return { id: newId(), role: 'assistant', content: '', createdAt: 0, status: 'streaming' };
}

describe('token usage: reported by the service, else estimated', () => {
  it('reads both shapes services use, and nothing else', () => {
    assert.deepEqual(reportedUsage({ usage: { prompt_tokens: 12, completion_tokens: 34, total_tokens: 46 } }), {
      input: 12,
      output: 34,
    });
    assert.deepEqual(reportedUsage({ usage: { input_tokens: 5, output_tokens: 6 } }), { input: 5, output: 6 });
    for (const odd of [
      undefined,
      null,
      { usage: null },
      { usage: { prompt_tokens: 1 } },
      { usage: { prompt_tokens: -1, completion_tokens: 2 } },
      { usage: { prompt_tokens: 1.5, completion_tokens: 2 } },
      { usage: { prompt_tokens: '1', completion_tokens: 2 } },
      { usage: [1, 2] },
    ]) {
      assert.equal(reportedUsage(odd), undefined, JSON.stringify(odd));
    }
    assert.deepEqual(parseUsage({ input: 1, output: 2, reported: true }), { input: 1, output: 2, reported: true });
    assert.deepEqual(parseUsage({ input: 1, output: 2, reported: 'yes' }), { input: 1, output: 2 });
    assert.equal(parseUsage({ input: 1 }), undefined);
  });

  it('costs INR only with both prices', () => {
    assert.equal(costInr({ input: 1_000_000, output: 500_000 }, { input: 100, output: 300 }), 250);
    assert.equal(costInr({ input: 10, output: 10 }, { input: 100 }), undefined);
    assert.equal(costInr({ input: 10, output: 10 }, {}), undefined);
  });

  it('the stream reader hears a usage event (alone or beside content) and skips nothing for it', async () => {
    const heard: TokenUsage[] = [];
    const skipped: string[] = [];
    let text = '';
    const body = bytes(
      'data: {"content":"Hel"}\n',
      'data: {"content":"lo","usage":{"prompt_tokens":3,"completion_tokens":1}}\n\n',
      'data: {"usage":{"input_tokens":7,"output_tokens":2}}\n',
      'data: [DONE]\n',
    );
    for await (const delta of readContentDeltas(body, {
      onUsage: (u) => heard.push(u),
      onSkipped: (reason) => skipped.push(reason),
    })) {
      text += delta;
    }
    assert.equal(text, 'Hello');
    assert.deepEqual(heard, [
      { input: 3, output: 1 },
      { input: 7, output: 2 },
    ]);
    assert.deepEqual(skipped, []);
  });

  it('a reply keeps the reported usage, marked reported; else the estimate; none when nothing arrived', async () => {
    const request = { model: 'alpha', messages: [{ role: 'user' as const, content: 'What is a monad, briefly?' }] };
    const reporting: ReplySource = {
      async *stream(_r, _s, onUsage) {
        yield 'A monoid in the category of endofunctors.';
        onUsage?.({ input: 11, output: 9 });
      },
      complete: () => Promise.resolve(''),
    };
    const reported = reply();
    await runReply({
      source: reporting,
      request,
      stream: true,
      reply: reported,
      signal: new AbortController().signal,
      onDelta: () => undefined,
    });
    assert.deepEqual(reported.usage, { input: 11, output: 9, reported: true });

    const silent: ReplySource = {
      async *stream() {
        yield 'A monoid in the category of endofunctors.';
      },
      complete: () => Promise.resolve(''),
    };
    const estimated = reply();
    await runReply({
      source: silent,
      request,
      stream: true,
      reply: estimated,
      signal: new AbortController().signal,
      onDelta: () => undefined,
    });
    assert.equal(estimated.usage?.reported, undefined);
    assert.equal(estimated.usage?.output, estimateTokens('A monoid in the category of endofunctors.'));
    assert.ok((estimated.usage?.input ?? 0) >= estimateTokens('What is a monad, briefly?'));

    const failing: ReplySource = {
      async *stream() {
        throw new Error('refused');
      },
      complete: () => Promise.reject(new Error('refused')),
    };
    const empty = reply();
    await runReply({
      source: failing,
      request,
      stream: true,
      reply: empty,
      signal: new AbortController().signal,
      onDelta: () => undefined,
    });
    assert.equal(empty.status, 'error');
    assert.equal(empty.usage, undefined, 'nothing arrived: no usage');
  });

  describe('against the fake service', () => {
    let fake: FakeService;
    let alpha: AlphaClient;
    before(async () => {
      fake = await startFakeService({ tokenDelayMs: 0 });
      const http = new HttpClient(() => ({ timeoutMs: 5000, proxy: { strictSSL: true, noProxy: [] } }), silentLogger);
      alpha = new AlphaClient(
        { http, baseUrl: () => fake.url, keys: () => Promise.resolve(fake.chatKey), log: silentLogger },
        () => 5000,
      );
    });
    after(async () => fake.close());

    const messages = (content: string): ChatMessage[] => [{ role: 'user', content }];

    it('hears the usage of a streamed reply and of one in one piece, in both forms', async () => {
      for (const prompt of ['Count me #usage', 'Count me too #usage:io']) {
        const expected = { input: prompt.length, output: chatReply(messages(prompt)).length };
        const heard: TokenUsage[] = [];
        let text = '';
        for await (const delta of alpha.stream({ model: 'alpha', messages: messages(prompt) }, undefined, (u) =>
          heard.push(u),
        )) {
          text += delta;
        }
        assert.equal(text, chatReply(messages(prompt)));
        assert.deepEqual(heard, [expected], `streamed: ${prompt}`);
        const whole: TokenUsage[] = [];
        await alpha.complete({ model: 'alpha', messages: messages(prompt) }, undefined, (u) => whole.push(u));
        assert.deepEqual(whole, [expected], `in one piece: ${prompt}`);
      }
      const none: TokenUsage[] = [];
      await alpha.complete({ model: 'alpha', messages: messages('No count') }, undefined, (u) => none.push(u));
      assert.deepEqual(none, [], 'a service that reports nothing');
    });
  });
});
