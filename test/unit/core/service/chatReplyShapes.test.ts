import * as assert from 'node:assert/strict';
import { normalizeChatReply } from '../../../../src/core/service/normalize';
import { chunkText } from '../../../../src/core/service/replyShapes';

describe('ALPHA reply shapes beside the spec', () => {
  it('reads a one-response reply in the forms of other servers, and inside an envelope', () => {
    const bodies: unknown[] = [
      { content: 'Hi.' },
      {
        content: [
          { type: 'text', text: 'Hi' },
          { type: 'tool_use', id: 't' },
          { type: 'text', text: '.' },
        ],
      },
      { output_text: 'Hi.' },
      { candidates: [{ content: { parts: [{ text: 'Hi' }, { text: '.' }] } }] },
      { response: 'Hi.' },
      { data: { content: 'Hi.' } },
      { result: { choices: [{ message: { content: 'Hi.' } }] } },
      { response: { message: { content: 'Hi.' } } },
      [{ generated_text: 'Hi.' }],
      { generated_text: 'Hi.' },
      { id: 'r1', message: 'Hi.' },
      { message: 'a status, not the reply', content: 'Hi.' },
      { model: 'alpha', response: 'Hi.', done: true },
    ];
    for (const body of bodies) {
      assert.equal(normalizeChatReply(body), 'Hi.', JSON.stringify(body));
    }
  });

  it('keeps an empty reply empty, and shows an unknown shape whole as JSON', () => {
    assert.equal(normalizeChatReply({ content: '' }), '');
    const unknown = normalizeChatReply({ data: { weird: 1 } });
    assert.match(unknown, /"data"/);
    assert.match(unknown, /"weird": 1/);
    // A list is read only when it holds one reply; else the whole body shows.
    const two = normalizeChatReply([{ generated_text: 'a' }, { generated_text: 'b' }]);
    assert.match(two, /"generated_text": "a"[\s\S]*"generated_text": "b"/);
    assert.match(normalizeChatReply([{ weird: 1 }]), /^```json\n\[/);
  });

  it('reads the text of stream chunks in the forms of other servers, and nothing from the events around it', () => {
    assert.equal(chunkText({ choices: [{ index: 0, delta: { content: 'a' } }] }), 'a');
    assert.equal(chunkText({ choices: [{ text: 'b' }] }), 'b');
    assert.equal(chunkText({ type: 'content_block_delta', delta: { type: 'text_delta', text: 'c' } }), 'c');
    assert.equal(chunkText({ message: { role: 'assistant', content: 'd' }, done: false }), 'd');
    assert.equal(chunkText({ response: 'e', done: false }), 'e');
    assert.equal(chunkText({ candidates: [{ content: { parts: [{ text: 'f' }] } }] }), 'f');
    assert.equal(chunkText({ index: 1, token: { id: 7, text: 'g', special: false }, generated_text: null }), 'g');
    for (const around of [
      { choices: [{ delta: { role: 'assistant' } }] },
      { choices: [{ delta: {}, finish_reason: 'stop' }] },
      { type: 'message_start', message: { content: [] } },
      { type: 'message_delta', delta: { stop_reason: 'end_turn' } },
      { usage: { prompt_tokens: 3 } },
      { token: { id: 2, text: '</s>', special: true }, generated_text: null },
      'text',
      null,
    ]) {
      assert.equal(chunkText(around), undefined, JSON.stringify(around));
    }
  });
});
