import * as assert from 'node:assert/strict';
import type { StoredMessage } from '../../../../../src/core/chat/conversation/conversation';
import { estimateMessagesTokens } from '../../../../../src/core/chat/request/contextBudget';
import { requestMessages } from '../../../../../src/core/chat/request/promptMessages';
import { nextRequestBudget } from '../../../../../src/core/chat/request/requestBudget';
import { assertGrowth } from '../../../../support/growth';

/** The conversation part of the gauge, as the budget makes it (kept estimates) and as the request would be sent. */
function parts(messages: StoredMessage[]): { kept: number; sent: number } {
  const budget = nextRequestBudget({ messages, pending: [], instructions: undefined, groundingTokens: 0, model: 'x' });
  return { kept: budget.parts.conversation, sent: estimateMessagesTokens(requestMessages(messages)) };
}

describe('the gauge keeps each message’s estimate while the message is the same (requestBudget)', () => {
  it('counts what the request sends, after every kind of change to a message', () => {
    const messages: StoredMessage[] = [
      { id: 'u1', role: 'user', content: 'Read this file', createdAt: 1 },
      { id: 'a1', role: 'assistant', content: '', createdAt: 2, status: 'streaming' },
    ];
    const check = (what: string) => {
      const { kept, sent } = parts(messages);
      assert.equal(kept, sent, what);
    };
    check('a reply still streaming is not sent');
    messages[1].content = 'Here it is: ```ts\nconst a = 1;\n```';
    check('its text grew');
    messages[1].status = 'done';
    check('it ended');
    messages[0].context = [{ id: 'c1', label: 'a.ts', content: 'export const a = 1;\n', language: 'ts' }];
    check('the prompt got an attachment');
    messages[0].content = 'Read this file, please';
    check('the prompt was edited');
    messages[1].content = '   ';
    check('a reply of blanks is not sent');
    messages.push({ id: 'u2', role: 'user', content: 'And the summary?', createdAt: 3 });
    check('a message was added');
    messages.splice(0, 2);
    check('messages left the path');
  });

  it('counts a summary standing for compacted turns once, before the path', () => {
    const messages: StoredMessage[] = [{ id: 'u1', role: 'user', content: 'Go on', createdAt: 1 }];
    const summary = { role: 'user' as const, content: 'Earlier: we wrote a parser.' };
    const budget = nextRequestBudget({
      messages,
      summary,
      pending: [],
      instructions: undefined,
      groundingTokens: 0,
      model: 'x',
    });
    assert.equal(budget.parts.conversation, estimateMessagesTokens([summary, ...requestMessages(messages)]));
  });

  it('estimates a conversation of many messages, each new (none kept yet), in linear time', () => {
    const conversation = (n: number): StoredMessage[] =>
      Array.from({ length: n / 100 }, (_, i) => ({
        id: `m${i}`,
        role: i % 2 ? ('assistant' as const) : ('user' as const),
        content: `message ${i} `.padEnd(100, 'x'),
        createdAt: i,
        status: i % 2 ? ('done' as const) : undefined,
      }));
    assertGrowth('nextRequestBudget', conversation, (messages) => parts(messages.map((m) => ({ ...m }))).kept, {
      n: 200_000,
    });
  });
});
