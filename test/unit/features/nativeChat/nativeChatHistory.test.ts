import * as assert from 'node:assert/strict';
import type { ChatRequestTurn, ChatResponseTurn, ChatResult } from '../../../../src/features/nativeChat/chatApi';
import { historyMessages, noticeMarkdown, responseText } from '../../../../src/features/nativeChat/chatHistory';

// chatHistory.ts imports only types from chatApi (which imports vscode), so it runs in plain Node.

function ask(prompt: string, command?: string): ChatRequestTurn {
  return { prompt, participant: 'alpha-axo.alpha', command };
}

/** A response turn whose parts are markdown parts (`value: MarkdownString`), as VS Code passes them. */
function answer(parts: string[], result: ChatResult = {}): ChatResponseTurn {
  return {
    response: parts.map((value) => ({ value: { value, isTrusted: false } })),
    result,
    participant: 'alpha-axo.alpha',
  };
}

describe('native chat history', () => {
  describe('responseText', () => {
    it('joins the markdown parts, whether their value is a MarkdownString or a string', () => {
      const turn: ChatResponseTurn = {
        response: [{ value: { value: 'Hello ' } }, { value: 'there' }, { value: { value: '!' } }],
        result: {},
        participant: 'alpha-axo.alpha',
      };
      assert.equal(responseText(turn), 'Hello there!');
    });

    it('skips parts without text (references, buttons, progress)', () => {
      const turn: ChatResponseTurn = {
        response: [
          { value: { value: 'A' } },
          { uri: 'file:///x' },
          { value: { fsPath: '/x' } },
          { value: 42 },
          { value: 'B' },
        ],
        result: {},
        participant: 'alpha-axo.alpha',
      };
      assert.equal(responseText(turn), 'AB');
    });
  });

  describe('historyMessages', () => {
    it('pairs each request with its answer, in order', () => {
      const history = [ask('first'), answer(['one']), ask('second'), answer(['tw', 'o'])];
      assert.deepEqual(historyMessages(history), [
        { role: 'user', content: 'first' },
        { role: 'assistant', content: 'one' },
        { role: 'user', content: 'second' },
        { role: 'assistant', content: 'two' },
      ]);
    });

    it('sends the prompt that was actually sent (metadata.sentPrompt), so code from a /fix stays', () => {
      const sent = 'Fix the problems…\n```ts\nconst x: number = "1";\n```';
      const history = [ask('please', 'fix'), answer(['Fixed.'], { metadata: { command: 'fix', sentPrompt: sent } })];
      assert.deepEqual(historyMessages(history)[0], { role: 'user', content: sent });
    });

    it('else writes a slash command before the prompt', () => {
      const history = [ask('what could go wrong?', 'explain'), answer(['Plenty.'])];
      assert.equal(historyMessages(history)[0].content, '/explain what could go wrong?');
    });

    it('drops failed or empty turns and requests without an answer', () => {
      const history = [
        ask('failed'),
        answer([], { errorDetails: { message: '401' } }),
        ask('blank'),
        answer(['  \n ']),
        ask('kept'),
        answer(['yes']),
        ask('unanswered'),
        ask('cancelled, then asked again'),
        answer(['ok']),
        ask('still streaming'),
      ];
      assert.deepEqual(historyMessages(history), [
        { role: 'user', content: 'kept' },
        { role: 'assistant', content: 'yes' },
        { role: 'user', content: 'cancelled, then asked again' },
        { role: 'assistant', content: 'ok' },
      ]);
    });

    it('ignores a response turn without its request', () => {
      assert.deepEqual(historyMessages([answer(['orphan']), ask('q'), answer(['a'])]), [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: 'a' },
      ]);
    });

    it('leaves out the notice @alpha showed before an answer, and only that', () => {
      const notice = "The 2 oldest messages were left out to fit ALPHA's 200K-token context.";
      const history = [
        ask('q'),
        answer([noticeMarkdown(notice), 'The answer.'], { metadata: { notice } }),
        ask('r'),
        answer(['*Emphasis* the model wrote.'], { metadata: {} }),
      ];
      assert.deepEqual(
        historyMessages(history).map((m) => m.content),
        ['q', 'The answer.', 'r', '*Emphasis* the model wrote.'],
      );
    });

    it('keeps every exchange: what fits the model is decided with the new prompt (fitToContext)', () => {
      const big = [ask('q'.repeat(40_000)), answer(['a']), ask('r'.repeat(30_000)), answer(['b'])];
      assert.deepEqual(
        historyMessages(big).map((m) => m.content.length),
        [40_000, 1, 30_000, 1],
      );
    });
  });
});
