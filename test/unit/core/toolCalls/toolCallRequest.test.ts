import * as assert from 'node:assert/strict';
import type { ChatMessage } from '../../../../src/core/service/alphaClient';
import { fitRequest, messageTokens } from '../../../../src/core/toolCalls/toolRequest';
import { encodeConversation, encodeHistory } from '../../../../src/core/toolCalls/toolHistory';
import { historyMessage } from '../../../../src/features/nativeChat/toolParts';

// toolParts.ts imports only types from chatApi (which imports vscode), so it runs in plain Node.

describe('tool calls: the request', () => {
  const system: ChatMessage = { role: 'system', content: 'VS Code says how to behave.' };
  const turns: ChatMessage[] = Array.from({ length: 6 }, (_, i) => ({
    role: i % 2 ? 'assistant' : 'user',
    content: `turn ${i} ${'word '.repeat(40)}`,
  }));

  it('puts the tools message after the system messages and keeps everything that fits', () => {
    const fitted = fitRequest([system, ...turns], 'TOOLS', 1_000_000);
    assert.deepEqual(fitted.messages, [system, { role: 'system', content: 'TOOLS' }, ...turns]);
    assert.equal(fitted.dropped, 0);
  });

  it('drops the oldest turns first, never the system messages, the tools message or the last user message', () => {
    const conversation = [system, ...turns, { role: 'user' as const, content: 'last question' }];
    const keep = [system, { role: 'system' as const, content: 'TOOLS' }, conversation.at(-1) as ChatMessage];
    const budget = keep.reduce((sum, m) => sum + messageTokens(m), 0) + messageTokens(turns[5]);
    const fitted = fitRequest(conversation, 'TOOLS', budget);
    assert.deepEqual(fitted.messages, [...keep.slice(0, 2), turns[5], keep[2]]);
    assert.equal(fitted.dropped, 5);
    const none = fitRequest(conversation, 'TOOLS', 1);
    assert.deepEqual(none.messages, keep);
  });

  it('keeps the last prompt and the calls and results after it (results come as user messages)', () => {
    const encoded = encodeConversation([
      { role: 'user', parts: [{ kind: 'text', text: 'create it' }] },
      { role: 'assistant', parts: [{ kind: 'call', callId: 'c', name: 'create_file', input: {} }] },
      { role: 'user', parts: [{ kind: 'result', callId: 'c', items: [] }] },
    ]);
    assert.equal(encoded.lastPrompt, 0);
    const conversation: ChatMessage[] = [
      ...turns,
      { role: 'user', content: 'create it' },
      { role: 'assistant', content: 'call' },
      { role: 'user', content: 'result' },
    ];
    const fitted = fitRequest(conversation, '', 1, turns.length);
    assert.deepEqual(
      fitted.messages.map((m) => m.content),
      ['create it', 'call', 'result'],
    );
  });
});

describe('tool calls: VS Code parts', () => {
  it('reads text, call, result, data and prompt-tsx parts by their fields', () => {
    const assistant = historyMessage({
      role: 2,
      content: [{ value: 'On it.' }, { callId: 'c1', name: 'read_file', input: { filePath: '/a' } }],
    });
    const result = historyMessage({
      role: 1,
      content: [
        {
          callId: 'c1',
          content: [
            { value: 'line 1' },
            { mimeType: 'image/png', data: new Uint8Array(10) },
            { mimeType: 'application/json', data: new TextEncoder().encode('{"ok":true}') },
            {
              value: {
                node: {
                  type: 1,
                  children: [
                    { type: 2, text: 'from ' },
                    { type: 2, text: 'tsx' },
                  ],
                },
              },
            },
            { something: 'else' },
          ],
        },
      ],
    });
    const [call, answer] = encodeHistory([assistant, result]);
    assert.equal(call.role, 'assistant');
    assert.match(
      call.content,
      /^On it\.\n\n```tool_call\n\{"name":"read_file","arguments":\{"filePath":"\/a"\}\}\n```$/,
    );
    assert.equal(answer.role, 'user');
    assert.match(answer.content, /^Result of read_file \(call c1\)/);
    assert.match(
      answer.content,
      /line 1\n\[A image\/png part of 10 bytes was left out: it is not text\.\]\n\{"ok":true\}\nfrom tsx\n\[A part of a kind ALPHA cannot read was left out\.\]/,
    );
  });

  it('takes a string content and the system role', () => {
    assert.deepEqual(historyMessage({ role: 3, content: 'sys' }), {
      role: 'system',
      parts: [{ kind: 'text', text: 'sys' }],
    });
  });
});
