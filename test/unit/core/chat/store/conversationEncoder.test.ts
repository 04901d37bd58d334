import * as assert from 'node:assert/strict';
import { newConversation, type Conversation } from '../../../../../src/core/chat/conversation/conversation';
import { ConversationEncoder } from '../../../../../src/core/chat/store/conversationEncoder';

function long(messages: number): Conversation {
  const c = newConversation(1);
  for (let i = 0; i < messages; i++) {
    const content = `Message ${i}: ${'some text with `code` and é '.repeat(40)}`;
    c.messages.push({ id: `m${i}`, role: i % 2 ? 'assistant' : 'user', content, createdAt: i });
  }
  c.branches = [{ id: 'b0', role: 'assistant', content: 'another version', createdAt: 2, parentId: 'm0' }];
  return c;
}

describe('chat core: encoding a long conversation for its first save', () => {
  it('gives the bytes encode gives, and lets the event loop run while it encodes thousands of messages', async () => {
    const c = long(5_000);
    let turns = 0;
    const tick = setInterval(() => turns++, 0);
    const soon = Buffer.concat(await new ConversationEncoder().encodeSoon(c, 'r1'));
    clearInterval(tick);
    assert.equal(soon.toString(), Buffer.concat(new ConversationEncoder().encode(c, 'r1')).toString());
    assert.ok(turns > 0, 'a timer ran while the messages were encoded');
    // A message changed while it was being encoded is taken as it is at the end.
    const encoder = new ConversationEncoder();
    const pending = encoder.encodeSoon(c, 'r2');
    c.messages[4_999] = { ...c.messages[4_999], content: 'changed' };
    assert.match(Buffer.concat(await pending).toString(), /"content":"changed"/);
  });

  it('encodes a message again when a field is added, removed, swapped for another or changed in place', () => {
    const c = long(3);
    const encoder = new ConversationEncoder();
    const text = () => JSON.parse(Buffer.concat(encoder.encode(c, 'r')).toString()).messages[1];
    assert.equal(text().status, undefined);
    const m = c.messages[1];
    m.status = 'done';
    assert.equal(text().status, 'done');
    delete m.status;
    assert.ok(!('status' in text()));
    m.content = 'new';
    assert.equal(text().content, 'new');
    // As many fields as before, one of them another.
    const fields = Object.keys(text()).length;
    delete (m as { createdAt?: number }).createdAt;
    m.status = 'stopped';
    const swapped = text();
    assert.equal(Object.keys(swapped).length, fields);
    assert.deepEqual([swapped.status, 'createdAt' in swapped], ['stopped', false]);
  });
});
