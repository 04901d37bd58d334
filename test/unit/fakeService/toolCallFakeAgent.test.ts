import * as assert from 'node:assert/strict';
import { CallParser } from '../../../src/core/toolCalls/callParser';
import { encodeTools } from '../../../src/core/toolCalls/toolEncoder';
import { encodeResult } from '../../../src/core/toolCalls/toolHistory';
import { retryPrompt } from '../../../src/core/toolCalls/toolReply';
import type { CallEvent, ToolSpec } from '../../../src/core/toolCalls/toolSpec';
import { PIECE_BREAK, agentReply, argsDirective, listedTools } from '../../fakeService/agentScript';
import type { ChatMessage } from '../../fakeService/chatContent';
import { startFakeService, type FakeService } from '../../fakeService/fakeService';
import { ssePayloads } from '../../fakeService/sseTestReader';
import { CREATE_FILE } from '../../support/toolSpecs';

const TOOLS: ToolSpec[] = [
  CREATE_FILE,
  {
    name: 'axo_ask',
    description: 'Ask AXO.',
    inputSchema: { type: 'object', properties: { query: { type: 'string' } } },
  },
];
const ARGS = { filePath: '/w/hello.txt', content: 'Hello from ALPHA' };

function request(prompt: string, form: 'compact' | 'full' = 'compact'): ChatMessage[] {
  return [
    { role: 'system', content: 'VS Code system message' },
    { role: 'system', content: encodeTools(TOOLS, form) },
    { role: 'user', content: prompt },
  ];
}

function events(reply: string): CallEvent[] {
  const parser = new CallParser(TOOLS);
  return [...reply.split(PIECE_BREAK).flatMap((piece) => parser.feed(piece)), ...parser.end()];
}

function calls(reply: string): unknown[] {
  return events(reply).flatMap((e) => (e.type === 'call' ? [e.call] : []));
}

describe('fake service: the scripted agent', () => {
  it('reads the tools from the tools message in both forms', () => {
    assert.deepEqual(listedTools(request('x')), ['create_file', 'axo_ask']);
    assert.deepEqual(listedTools(request('x', 'full')), ['create_file', 'axo_ask']);
  });

  it('answers only requests that carry the tools message and name a mode', () => {
    assert.equal(agentReply([{ role: 'user', content: '#agent:call' }]), undefined);
    assert.equal(agentReply(request('hello')), undefined);
  });

  it('call and two: text and one call, or two calls in one reply', () => {
    const one = agentReply(request(`make it #agent:call ${argsDirective(ARGS)}`)) ?? '';
    assert.deepEqual(calls(one), [{ name: 'create_file', input: ARGS }]);
    assert.match(one, /^I will call create_file\./);
    const two = agentReply(request(`#agent:two #tool:axo_ask ${argsDirective({ query: 'Turing' })}`)) ?? '';
    assert.deepEqual(calls(two), [
      { name: 'axo_ask', input: { query: 'Turing' } },
      { name: 'axo_ask', input: { query: 'Turing' } },
    ]);
  });

  it('split: one call for every position of the marker line, each cut there', () => {
    const reply = agentReply(request(`#agent:split ${argsDirective(ARGS)}`)) ?? '';
    const pieces = reply.split(PIECE_BREAK);
    assert.equal(pieces.length, 24);
    assert.deepEqual(
      pieces.filter((_, i) => i % 2 === 0).map((p) => p.length - p.lastIndexOf('\n') - 1),
      Array.from({ length: 12 }, (_, i) => i + 1),
    );
    assert.equal(calls(reply).length, 12);
    assert.ok(events(reply).every((e) => e.type !== 'malformed'));
  });

  it('fix: broken JSON first, the right call when asked again; broken: broken both times', () => {
    const ask = request(`#agent:fix ${argsDirective(ARGS)}`);
    const first = agentReply(ask) ?? '';
    const bad = events(first).find((e) => e.type === 'malformed');
    assert.equal(bad?.type === 'malformed' && bad.problem.kind, 'json');
    const again = [
      ...ask,
      { role: 'assistant', content: first },
      { role: 'user', content: retryPrompt({ kind: 'json', detail: 'x' }) },
    ];
    assert.deepEqual(calls(agentReply(again) ?? ''), [{ name: 'create_file', input: ARGS }]);
    const stays = request('#agent:broken');
    const stillBad =
      agentReply([
        ...stays,
        { role: 'assistant', content: 'x' },
        { role: 'user', content: retryPrompt({ kind: 'json', detail: 'x' }) },
      ]) ?? '';
    assert.ok(events(stillBad).some((e) => e.type === 'malformed'));
  });

  it('quotes a tool result when the last message is one', () => {
    const result = encodeResult('c1', 'create_file', [{ kind: 'text', text: 'Created /w/hello.txt' }]);
    const reply = agentReply([
      ...request('#agent:call'),
      { role: 'assistant', content: 'call' },
      { role: 'user', content: result },
    ]);
    assert.equal(reply, 'The create_file tool answered:\n\n> Created /w/hello.txt\n\nDone.');
  });

  describe('over HTTP', () => {
    let fake: FakeService;
    before(async () => {
      fake = await startFakeService({ tokenDelayMs: 0 });
    });
    after(() => fake.close());

    it('streams a split reply one event per piece, and sends it whole when not streaming', async () => {
      const messages = request(`#agent:split ${argsDirective(ARGS)}`);
      const post = (stream: boolean) =>
        fetch(`${fake.url}/v1/alpha`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${fake.chatKey}` },
          body: JSON.stringify({ model: 'alpha', messages, stream }),
        });
      const streamed = ssePayloads(await (await post(true)).text()).filter((p) => p !== '[DONE]');
      const pieces = (agentReply(messages) ?? '').split(PIECE_BREAK);
      assert.deepEqual(
        streamed.map((p) => (JSON.parse(p) as { content: string }).content),
        pieces,
      );
      const whole = (await (await post(false)).json()) as { message: { content: string } };
      assert.equal(whole.message.content, pieces.join(''));
    });
  });
});
