import * as assert from 'node:assert/strict';
import type { StoredMessage } from '../../../../../src/core/chat/conversation/conversation';
import type { ReplySource } from '../../../../../src/core/chat/runs/replyRunner';
import { runToolLoop } from '../../../../../src/core/chat/tools/toolLoop';
import type { ChatRequest } from '../../../../../src/core/service/alphaClient';
import { PIECE_BREAK, agentReply, argsDirective } from '../../../../fakeService/agentScript';
import { readTool } from '../../../../support/toolLoopHarness';

/** The fake service's scripted agent as a reply source: its reply to each request, cut where it says. */
function fakeAgent(): ReplySource & { requests: ChatRequest[] } {
  const requests: ChatRequest[] = [];
  return {
    requests,
    async *stream(request) {
      requests.push(request);
      const reply = agentReply(request.messages) ?? 'No agent.';
      for (const piece of reply.split(PIECE_BREAK)) {
        yield piece;
        await Promise.resolve();
      }
    },
    complete(request) {
      requests.push(request);
      return Promise.resolve((agentReply(request.messages) ?? 'No agent.').split(PIECE_BREAK).join(''));
    },
  };
}

async function ask(prompt: string): Promise<{ reply: StoredMessage; service: ReturnType<typeof fakeAgent> }> {
  const service = fakeAgent();
  const reply: StoredMessage = { id: 'r', role: 'assistant', content: '', createdAt: 0 };
  await runToolLoop({
    source: service,
    model: 'alpha',
    stream: true,
    messages: [{ role: 'user', content: prompt }],
    tools: [readTool('the first line')],
    maxCalls: 8,
    reply,
    signal: new AbortController().signal,
    confirm: () => Promise.resolve(false),
    listener: { text: () => undefined, stepStarted: () => undefined, stepChanged: () => undefined },
  });
  return { reply, service };
}

describe("chat tools: the fake service's scripted agent reads our chat's tools message", () => {
  const args = argsDirective({ path: 'src/app.ts' });

  it('calls the tool named, then quotes its result', async () => {
    const { reply, service } = await ask(`What is in it? #agent:call #tool:read_file ${args}`);
    assert.equal(service.requests.length, 2);
    assert.deepEqual(
      reply.steps?.map((s) => [s.tool, s.status, s.result]),
      [['read_file', 'done', 'src/app.ts: the first line']],
    );
    assert.equal(
      reply.content,
      'I will call read_file.\n\nThe read_file tool answered:\n\n> src/app.ts: the first line\n\nDone.',
    );
  });

  it('runs two calls of one reply, and the calls split at every byte of their marker', async () => {
    const two = await ask(`Twice. #agent:two #tool:read_file ${args}`);
    assert.equal(two.reply.steps?.length, 2);
    const split = await ask(`Split. #agent:split #tool:read_file ${args}`);
    assert.equal(split.reply.steps?.length, '```tool_call\n'.length - 1);
    // Twelve calls in one reply: the cap of 8 runs, the rest are refused.
    assert.deepEqual(
      split.reply.steps?.map((s) => s.status),
      [...Array<string>(8).fill('done'), ...Array<string>(4).fill('refused')],
    );
    assert.ok(!split.reply.content.includes('```tool_call'));
  });

  it('mends a broken call on the second try', async () => {
    const { reply, service } = await ask(`Fix it. #agent:fix #tool:read_file ${args}`);
    assert.equal(service.requests.length, 3);
    assert.equal(reply.steps?.[0].status, 'done');
  });
});
