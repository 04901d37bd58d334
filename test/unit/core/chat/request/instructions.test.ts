import * as assert from 'node:assert/strict';
import { ChatState } from '../../../../../src/core/chat/runs/chatState';
import type { ChatStateListener, ConversationHolder } from '../../../../../src/core/chat/runs/chatStateTypes';
import {
  newConversation,
  type ContextItem,
  type Conversation,
} from '../../../../../src/core/chat/conversation/conversation';
import {
  INSTRUCTION_FILES,
  MAX_INSTRUCTION_FILE_BYTES,
  buildInstructions,
  type InstructionFile,
} from '../../../../../src/core/chat/request/instructions';
import type { ReplySource } from '../../../../../src/core/chat/runs/replyRunner';
import { buildRequest } from '../../../../../src/core/chat/request/requestBuilder';
import { estimateMessagesTokens } from '../../../../../src/core/chat/request/contextBudget';
import type { ChatRequest } from '../../../../../src/core/service/alphaClient';
import { silentLogger } from '../../../../../src/core/logger';

const file = (label: string, text: string): InstructionFile => ({
  label,
  uri: `file:///ws/${label}`,
  text,
  bytes: Buffer.byteLength(text),
});

/** About `tokens` tokens of text in lines of 20 characters (5 tokens a line). */
function text(tokens: number, word = 'abcd'): string {
  return `${word} ${word} ${word} ${word}\n`.repeat(Math.ceil(tokens / 5));
}

describe("chat: the repository's instructions (src/core/chat/request/instructions)", () => {
  it("reads AGENTS.md, then ALPHA's own file, framed as the repository's, in the order given", () => {
    assert.deepEqual(INSTRUCTION_FILES, ['AGENTS.md', '.alpha/instructions.md']);
    const built = buildInstructions([
      file('api/AGENTS.md', 'Use tabs.\n'),
      file('api/.alpha/instructions.md', '   \n'),
      file('web/AGENTS.md', 'Answer in German.'),
    ]);
    assert.ok(built);
    assert.deepEqual(
      built.files.map((f) => f.label),
      ['api/AGENTS.md', 'web/AGENTS.md'],
      'an empty file is not sent',
    );
    assert.match(built.message, /^The repository's instructions for this workspace/);
    assert.match(built.message, /not by the user/);
    assert.ok(built.message.indexOf('Use tabs.') < built.message.indexOf('Answer in German.'));
    assert.match(built.message, /api\/AGENTS\.md:\n```markdown\nUse tabs\.\n```/);
    assert.equal(built.notice, undefined);
    assert.equal(
      built.files.reduce((sum, f) => sum + f.tokens, 0),
      built.tokens,
      "the chips add up to the gauge's instructions (the framing counts with the first)",
    );
    assert.equal(
      built.tokens,
      estimateMessagesTokens([{ role: 'user', content: built.message }]),
      'as a request counts it',
    );
    assert.equal(buildInstructions([file('AGENTS.md', '\n')]), undefined, 'nothing with text: none');
  });

  it('is bounded: a long file is cut at a line end with a notice, files past the total are left out', () => {
    const long = 'Rule number one is long enough.\n'.repeat(1_000);
    const built = buildInstructions([file('AGENTS.md', long), file('b/AGENTS.md', long), file('c/AGENTS.md', long)]);
    assert.ok(built);
    assert.deepEqual(
      built.files.map((f) => f.label),
      ['AGENTS.md', 'b/AGENTS.md'],
    );
    assert.ok(Buffer.byteLength(built.message) < 2 * MAX_INSTRUCTION_FILE_BYTES + 1_000);
    assert.match(built.message, /long enough\.\n```\n\nb\/AGENTS\.md:/, 'cut at a line end');
    assert.match(built.notice ?? '', /AGENTS\.md was cut to its first 16 KB \(31 KB in all\)\./);
    assert.match(built.notice ?? '', /c\/AGENTS\.md was left out: the instructions are limited to 32 KB\./);
  });

  it('the budget: instructions go after the older attachments and before the newest is cut or the grounding shortened', () => {
    const instructions = { message: text(3_000, 'rule') };
    const older = { id: 'a', label: 'a.ts', content: text(10_000, 'aaaa') };
    const newest = { id: 'b', label: 'b.ts', content: text(26_000, 'bbbb') };
    const built = buildRequest({
      model: 'skyflash',
      earlier: [
        { role: 'user', content: text(1_000) },
        { role: 'assistant', content: text(1_000) },
      ],
      prompt: { content: 'Explain', context: [older, newest] },
      instructions,
    });
    assert.deepEqual(built.trim, { limit: 32_000, messages: 2, attachments: ['a.ts'], instructions: true });
    assert.match(built.notice ?? '', /a\.ts was left out.*The repository's instructions were left out to make room\./);
    assert.equal(built.messages.length, 1, 'only the prompt, with its newest attachment whole');
    assert.ok(built.messages[0].content.includes(newest.content));

    const roomy = buildRequest({ model: 'alpha', earlier: [], prompt: { content: 'Hi' }, instructions });
    assert.equal(roomy.messages[0].content, instructions.message, 'the first message');
    assert.equal(roomy.messages[1].content, 'Hi');
    assert.equal(roomy.parts.instructions, estimateMessagesTokens([{ role: 'user', content: instructions.message }]));
    assert.equal(roomy.tokens, estimateMessagesTokens(roomy.messages));
  });

  it('through the chat state: every request starts with them, and the gauge counts them apart', async () => {
    const requests: ChatRequest[] = [];
    const source: ReplySource = {
      async *stream(request: ChatRequest) {
        requests.push(request);
        await Promise.resolve();
        yield 'Sure.';
      },
      complete: (request: ChatRequest) => {
        requests.push(request);
        return Promise.resolve('Sure.');
      },
    };
    let conversation: Conversation = newConversation();
    const holder = {
      get conversation() {
        return conversation;
      },
      set conversation(c: Conversation) {
        conversation = c;
      },
      pending: [] as ContextItem[],
      saveFailing: false,
      unwritten: false,
      init: () => Promise.resolve(),
      list: () => Promise.resolve([]),
      scheduleSave: () => undefined,
      saveNow: () => Promise.resolve(),
      saveSync: () => undefined,
      onDidChangeExternally: () => ({ dispose: () => undefined }),
    } as unknown as ConversationHolder;
    const quiet = {
      replyStarted: () => Promise.resolve(),
      replyDelta: () => undefined,
      replyNotice: () => undefined,
      replyEnded: () => undefined,
      conversationChanged: () => Promise.resolve(),
      listChanged: () => Promise.resolve(),
      streamingChanged: () => undefined,
    } satisfies ChatStateListener;
    let instructions = buildInstructions([file('AGENTS.md', 'Always answer in haiku.\n')]);
    const state = new ChatState({
      holder,
      source,
      settings: () => ({ model: 'alpha', stream: true, groundByDefault: false }),
      instructions: () => instructions,
      listener: quiet,
      log: silentLogger,
    });
    await state.send('First');
    await state.send('Second');
    assert.equal(requests.length, 2);
    for (const request of requests) {
      assert.match(request.messages[0].content, /AGENTS\.md:\n```markdown\nAlways answer in haiku\.\n```/);
    }
    assert.deepEqual(
      requests[1].messages.slice(1).map((m) => m.content),
      ['First', 'Sure.', 'Second'],
      'the instructions are not stored in the conversation',
    );
    const budget = state.budget();
    assert.equal(budget.parts.instructions, estimateMessagesTokens([requests[1].messages[0]]));
    assert.equal(
      budget.parts.conversation,
      estimateMessagesTokens(requests[1].messages.slice(1)) +
        estimateMessagesTokens([{ role: 'assistant', content: 'Sure.' }]),
    );
    assert.equal(budget.usedTokens, budget.parts.conversation + budget.parts.instructions);
    instructions = undefined;
    await state.send('Third');
    assert.equal(requests[2].messages[0].content, 'First', 'turned off (or untrusted): none sent');
    assert.equal(state.budget().parts.instructions, 0);
  });
});
