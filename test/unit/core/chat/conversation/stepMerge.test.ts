import * as assert from 'node:assert/strict';
import { newConversation, type Conversation } from '../../../../../src/core/chat/conversation/conversation';
import { mergeConversations } from '../../../../../src/core/chat/conversation/conversationMerge';
import type { ToolStep } from '../../../../../src/core/chat/tools/chatTool';

function step(id: string, status: ToolStep['status'], offset = 8): ToolStep {
  return { id, tool: 'axo_ask', input: { query: id }, title: `Asked AXO about ${id}`, status, offset };
}

/** A conversation whose reply `a1` is being written, with `steps`. */
function writing(steps: ToolStep[], content = 'Looking.', status: 'streaming' | 'done' = 'streaming'): Conversation {
  const c = newConversation(1);
  c.id = 'c1';
  c.messages = [
    { id: 'u1', role: 'user', content: 'Who was Turing?', createdAt: 1 },
    { id: 'a1', role: 'assistant', content, createdAt: 2, status, steps, requests: steps.length + 1 },
  ];
  return c;
}

const base = { ids: new Set(['u1', 'a1']) };

describe('chat core: merging two windows keeps a reply with its steps (conversationMerge)', () => {
  it('a window that has not seen the newest call keeps the copy with it (the text the same length)', () => {
    // This window read the reply while its first call ran; the window writing it has called again since.
    const mine = writing([step('s1', 'running')]);
    const theirs = writing([step('s1', 'done'), step('s2', 'running')]);
    const merged = mergeConversations(base, mine, theirs);
    assert.equal(merged.messages[1], theirs.messages[1], 'the copy further along, as it is');
    assert.deepEqual(
      merged.messages[1].steps?.map((s) => [s.id, s.status]),
      [
        ['s1', 'done'],
        ['s2', 'running'],
      ],
    );
    assert.equal(merged.messages[1].requests, 3);
    const ended = mergeConversations(base, writing([step('s1', 'running')]), writing([step('s1', 'done')]));
    assert.equal(ended.messages[1].steps?.[0].status, 'done', 'a call that ended is further than one running');
  });

  it('the window writing the reply keeps its own copy, and the finished reply wins with its steps', () => {
    const mine = writing([step('s1', 'done'), step('s2', 'running')]);
    const theirs = writing([step('s1', 'running')]);
    assert.equal(mergeConversations(base, mine, theirs).messages[1], mine.messages[1]);
    const done = writing([step('s1', 'done'), step('s2', 'done')], 'Looking. Turing was a mathematician.', 'done');
    const merged = mergeConversations(base, mine, done);
    assert.equal(merged.messages[1], done.messages[1]);
    assert.equal(merged.messages[1].steps?.length, 2);
  });

  it("the other window's new turn comes with its reply's steps", () => {
    const mine = writing([]);
    const theirs = structuredClone(mine);
    theirs.messages.push(
      { id: 'u2', role: 'user', content: 'And Church?', createdAt: 3 },
      { id: 'a2', role: 'assistant', content: 'He', createdAt: 4, status: 'done', steps: [step('t1', 'done', 0)] },
    );
    const merged = mergeConversations(base, mine, theirs);
    assert.deepEqual(merged.messages[3].steps, [step('t1', 'done', 0)]);
  });
});
