import * as assert from 'node:assert/strict';
import { estimateMessagesTokens, fitToBudget, fitToContext } from '../../../../../src/core/chat/request/contextBudget';
import { formatTokens } from '../../../../../src/shared/tokens';
import {
  INTERRUPTED_NOTICE,
  lastOf,
  newConversation,
  titleFor,
  type Conversation,
} from '../../../../../src/core/chat/conversation/conversation';
import { parseConversation } from '../../../../../src/core/chat/conversation/conversationParse';
import { conversationMarkdown } from '../../../../../src/core/chat/transfer/conversationMarkdown';
import { languageIdForFence } from '../../../../../src/core/chat/workspace/languageIds';
import {
  contextTokensOf,
  isSelectableModel,
  CHAT_LINEUP,
  modelLabel,
  parseContextSize,
} from '../../../../../src/core/chat/request/modelLineup';
import {
  contextBlock,
  fenceFor,
  promptText,
  requestMessages,
} from '../../../../../src/core/chat/request/promptMessages';
import type { ChatMessage } from '../../../../../src/core/service/alphaClient';

describe('chat core: conversation', () => {
  it('titles a conversation with the first non-empty line of its first prompt', () => {
    assert.equal(titleFor('\n\n  Explain   this\nsecond line'), 'Explain this');
    assert.equal(titleFor(''), '');
    const long = 'word '.repeat(40);
    const title = titleFor(long);
    assert.ok(title.length <= 60, title);
    assert.ok(title.endsWith('…'));
    assert.ok(!title.includes('  '));
  });

  it('reads a stored conversation, dropping malformed messages and marking a streaming reply interrupted', () => {
    const parsed = parseConversation({
      id: 'abc',
      title: 'T',
      createdAt: 1,
      updatedAt: 2,
      messages: [
        { id: 'm1', role: 'user', content: 'hi', createdAt: 1 },
        { role: 'robot', content: 'x' },
        'nonsense',
        { id: 'm2', role: 'assistant', content: 'partial ré', createdAt: 2, status: 'streaming', model: 'alpha' },
      ],
    });
    assert.ok(parsed);
    assert.equal(parsed.messages.length, 2);
    assert.equal(parsed.messages[1].status, 'interrupted');
    assert.equal(parsed.messages[1].notice, INTERRUPTED_NOTICE);
    assert.equal(parsed.messages[1].content, 'partial ré');
    assert.equal(parsed.messages[1].model, 'alpha');
  });

  it('refuses values that are not conversations and fills in what is missing', () => {
    assert.equal(parseConversation(null), undefined);
    assert.equal(parseConversation({ id: 3, messages: [] }), undefined);
    assert.equal(parseConversation({ id: 'x' }), undefined);
    const c = parseConversation({ id: 'x', messages: [{ role: 'user', content: 'Hello there' }] });
    assert.equal(c?.title, 'Hello there');
    assert.equal(typeof c?.messages[0].id, 'string');
  });

  it('finds the last message of a role', () => {
    const c: Conversation = newConversation(5);
    assert.equal(lastOf(c, 'user'), undefined);
    c.messages.push({ id: 'a', role: 'user', content: 'q', createdAt: 1 });
    c.messages.push({ id: 'b', role: 'assistant', content: 'r', createdAt: 2 });
    assert.equal(lastOf(c, 'user')?.index, 0);
    assert.equal(lastOf(c, 'assistant')?.message.id, 'b');
  });
});

describe('chat core: context budget', () => {
  it('counts each message at its estimate plus four tokens', () => {
    assert.equal(estimateMessagesTokens([{ role: 'user', content: 'abcd' }]), 5);
    assert.equal(
      estimateMessagesTokens([
        { role: 'user', content: 'abcd' },
        { role: 'assistant', content: '東京' },
      ]),
      11,
    );
  });

  const turn = (n: number, size: number): ChatMessage[] => [
    { role: 'user', content: `q${n} ${'x'.repeat(size)}` },
    { role: 'assistant', content: `a${n} ${'y'.repeat(size)}` },
  ];

  it('sends everything when it fits', () => {
    const messages = [...turn(1, 10), { role: 'user' as const, content: 'last' }];
    const fit = fitToBudget(messages, 1000, 100);
    assert.equal(fit.dropped, 0);
    assert.deepEqual(fit.messages, messages);
    assert.equal(fit.tooLarge, false);
  });

  it('drops the oldest whole turns until it fits, never the last prompt, keeping system messages', () => {
    const system: ChatMessage = { role: 'system', content: 'be brief' };
    const messages = [
      system,
      ...turn(1, 400),
      ...turn(2, 400),
      ...turn(3, 400),
      { role: 'user' as const, content: 'now' },
    ];
    const fit = fitToBudget(messages, 450, 100);
    assert.equal(fit.messages[0], system);
    assert.equal(fit.messages.at(-1)?.content, 'now');
    assert.ok(fit.dropped >= 2 && fit.dropped % 2 === 0, `dropped ${fit.dropped}`);
    assert.equal(fit.messages[1].role, 'user', 'the kept history starts with a prompt');
    assert.ok(fit.tokens <= 350);
    assert.equal(fit.tooLarge, false);
  });

  it('says so when even the last prompt is too large', () => {
    const fit = fitToBudget([...turn(1, 10), { role: 'user', content: 'z'.repeat(4000) }], 500, 100);
    assert.equal(fit.tooLarge, true);
    assert.equal(fit.messages.length, 1);
    assert.equal(fit.dropped, 2);
  });

  it("fits a request to the model's context with the notice and error the user sees", () => {
    const history = (turns: number, size: number): ChatMessage[] =>
      Array.from({ length: turns }, (_, n) => turn(n, size)).flat();
    const fits = fitToContext([...history(3, 100), { role: 'user', content: 'now' }], 'alpha');
    assert.equal(fits.dropped, 0);
    assert.equal(fits.notice, undefined);
    assert.equal(fits.error, undefined);

    // ALPHA: 200K tokens, 8K kept for the reply; each of these turns is 2 × 50K tokens, so two must go.
    const long = fitToContext([...history(3, 200_000), { role: 'user', content: 'now' }], 'alpha');
    assert.equal(long.dropped, 4);
    assert.equal(long.notice, "The 4 oldest messages were left out to fit ALPHA's 200K-token context.");
    assert.equal(long.error, undefined);
    assert.equal(long.messages.at(-1)?.content, 'now');

    const one = fitToContext(
      [
        { role: 'user', content: 'x'.repeat(770_000) },
        { role: 'user', content: 'now' },
      ],
      'alpha',
    );
    assert.equal(one.notice, "The oldest message was left out to fit ALPHA's 200K-token context.");

    const tooLong = fitToContext([{ role: 'user', content: 'z'.repeat(800_000) }], 'alpha');
    assert.equal(tooLong.error?.kind, 'tooLarge');
    assert.equal(
      tooLong.error?.message,
      "This message is too long for ALPHA's 200K-token context (about 200K tokens). Shorten it or remove some context.",
    );
  });

  it('reads and writes context sizes', () => {
    assert.equal(parseContextSize('200K'), 200_000);
    assert.equal(parseContextSize('32K'), 32_000);
    assert.equal(parseContextSize('1M'), 1_000_000);
    assert.equal(parseContextSize('n/a'), undefined);
    assert.equal(formatTokens(200_000), '200K');
    assert.equal(formatTokens(950), '950');
    assert.equal(formatTokens(1_500_000), '1.5M');
    // One rule on both sides: the composer's estimate said "1.0M" where the notices said "1M".
    assert.equal(formatTokens(1_000_000), '1M');
  });
});

describe('chat core: model lineup', () => {
  it('lists the spec lineup with only ALPHA selectable', () => {
    assert.deepEqual(
      CHAT_LINEUP.map((m) => m.label),
      ['ALPHA', 'SKY', 'SKYFLASH', 'SKY 1.0', 'AMIT 1.0'],
    );
    assert.deepEqual(
      CHAT_LINEUP.filter((m) => isSelectableModel(m.id)).map((m) => m.id),
      ['alpha'],
    );
    assert.equal(CHAT_LINEUP.find((m) => m.id === 'skyflash')?.latency, '180ms');
  });

  it('knows each context size, ALPHA’s for unknown models', () => {
    assert.equal(contextTokensOf('alpha'), 200_000);
    assert.equal(contextTokensOf('ALPHA'), 200_000);
    assert.equal(contextTokensOf('sky'), 128_000);
    assert.equal(contextTokensOf('custom-model'), 200_000);
    assert.equal(contextTokensOf('amit-1.0'), 200_000);
    assert.equal(modelLabel('alpha'), 'ALPHA');
    assert.equal(modelLabel('mine'), 'mine');
  });
});

describe('chat core: prompts', () => {
  it('fences context with a fence longer than any backtick run inside', () => {
    assert.equal(fenceFor('plain'), '```');
    assert.equal(fenceFor('has ``` inside'), '````');
    const block = contextBlock({ id: '1', label: 'a.md:1-3', content: '```js\nx\n```', language: 'markdown' });
    assert.equal(block, 'a.md:1-3:\n````markdown\n```js\nx\n```\n````');
  });

  it('puts context blocks before the typed text', () => {
    const text = promptText({
      content: 'Explain',
      context: [{ id: '1', label: 'main.ts:1-2', content: 'let x = 1;\n', language: 'typescript' }],
    });
    assert.equal(text, 'main.ts:1-2:\n```typescript\nlet x = 1;\n```\n\nExplain');
    assert.equal(promptText({ content: 'only' }), 'only');
  });

  it('sends prompts and replies with text, not failed empty replies nor the one being written', () => {
    const messages = requestMessages([
      { id: '1', role: 'user', content: 'a', createdAt: 0 },
      { id: '2', role: 'assistant', content: '', createdAt: 0, status: 'error' },
      { id: '3', role: 'user', content: 'b', createdAt: 0 },
      { id: '4', role: 'assistant', content: 'partial', createdAt: 0, status: 'stopped' },
      { id: '5', role: 'user', content: 'c', createdAt: 0 },
      { id: '6', role: 'assistant', content: 'growing', createdAt: 0, status: 'streaming' },
    ]);
    assert.deepEqual(
      messages.map((m) => `${m.role}:${m.content}`),
      ['user:a', 'user:b', 'assistant:partial', 'user:c'],
    );
  });

  it('maps fence names to VS Code language ids', () => {
    assert.equal(languageIdForFence('ts'), 'typescript');
    assert.equal(languageIdForFence('py'), 'python');
    assert.equal(languageIdForFence('bash'), 'shellscript');
    assert.equal(languageIdForFence(''), 'plaintext');
    assert.equal(languageIdForFence(undefined), 'plaintext');
    assert.equal(languageIdForFence('rust {.x}'), 'rust');
    assert.equal(languageIdForFence('<script>'), 'plaintext');
  });
});

describe('chat core: Markdown export', () => {
  it('writes a title, each message under who wrote it, context, notices and errors', () => {
    const c = newConversation(0);
    c.title = 'Greeting';
    c.messages.push(
      {
        id: '1',
        role: 'user',
        content: 'Hi 👋',
        createdAt: 0,
        context: [{ id: 'c', label: 'a.ts:1', content: 'x', language: 'ts' }],
      },
      { id: '2', role: 'assistant', content: 'Hello **there**', createdAt: 1, status: 'done', model: 'alpha' },
      { id: '3', role: 'user', content: 'More', createdAt: 2 },
      {
        id: '4',
        role: 'assistant',
        content: 'Part',
        createdAt: 3,
        status: 'error',
        error: { kind: 'cut', message: 'The reply was cut off.', action: 'retry', at: 3 },
      },
    );
    const md = conversationMarkdown(c, (ms) => `t${ms}`);
    assert.match(md, /^# Greeting\n/);
    assert.match(md, /## You · t0\n\na\.ts:1:\n```ts\nx\n```\n\nHi 👋/);
    assert.match(md, /## ALPHA \(ALPHA\) · t1\n\nHello \*\*there\*\*/);
    assert.match(md, /> \*\*Error:\*\* The reply was cut off\./);
    assert.ok(md.endsWith('\n'));
  });
});
