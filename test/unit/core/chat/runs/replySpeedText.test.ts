import * as assert from 'node:assert/strict';
import { newConversation, type Conversation } from '../../../../../src/core/chat/conversation/conversation';
import { exportJson } from '../../../../../src/core/chat/transfer/conversationExport';
import { importConversation } from '../../../../../src/core/chat/transfer/conversationImport';
import { conversationMarkdown } from '../../../../../src/core/chat/transfer/conversationMarkdown';
import { parseMarkdownExport } from '../../../../../src/core/chat/transfer/markdownImport';
import type { MessageView } from '../../../../../src/protocol/chatProtocol';
import { median, rateParts, speedEnglish, waitParts } from '../../../../../src/shared/speed';
import { medianSpeedText, speedText } from '../../../../../src/webview/chat/messages/speed';
import { useTranslations } from '../../../../../src/webview/shared/l10n';
import { assertGrowth } from '../../../../support/growth';

const T = 1_700_000_000_000;

/** A prompt and two replies: one timed (0.8 s to the first token, 42 reported tokens over the next second), one old. */
function timedConversation(): Conversation {
  const c = newConversation(T);
  c.title = 'Speed';
  c.messages = [
    { id: 'u1', role: 'user', content: 'Quick?', createdAt: T },
    {
      id: 'a1',
      role: 'assistant',
      content: 'Quick.',
      createdAt: T + 1,
      status: 'done',
      usage: { input: 10, output: 42, reported: true },
      timing: { sentAt: T + 1, firstTokenAt: T + 801, endedAt: T + 1801 },
    },
    { id: 'u2', role: 'user', content: 'And before?', createdAt: T + 2 },
    { id: 'a2', role: 'assistant', content: 'Untimed.', createdAt: T + 3, status: 'done' },
  ];
  return c;
}

function reply(id: string, speed?: MessageView['speed']): MessageView {
  return { id, role: 'assistant', content: id, createdAt: 0, status: 'done', ...(speed ? { speed } : {}) };
}

describe('reply speed as the user reads it: footers and exports', () => {
  before(() => useTranslations(undefined, 'en'));
  after(() => useTranslations(undefined));

  it('shows waits in ms under a tenth of a second, seconds with one decimal under ten, whole seconds above', () => {
    assert.deepEqual(waitParts(42.4), { value: 42, unit: 'ms', decimals: 0 });
    assert.deepEqual(waitParts(800), { value: 0.8, unit: 's', decimals: 1 });
    assert.deepEqual(waitParts(1249), { value: 1.2, unit: 's', decimals: 1 });
    assert.deepEqual(waitParts(12_600), { value: 13, unit: 's', decimals: 0 });
    assert.deepEqual(rateParts(4.46), { value: 4.5, decimals: 1 });
    assert.deepEqual(rateParts(41.6), { value: 42, decimals: 0 });
  });

  it('takes the median: the middle value, the mean of the middle two, none of nothing', () => {
    assert.equal(median([]), undefined);
    assert.equal(median([5]), 5);
    assert.equal(median([9, 1, 5]), 5);
    assert.equal(median([4, 1, 3, 2]), 2.5);
    const values = [3, 1, 2];
    median(values);
    assert.deepEqual(values, [3, 1, 2], 'the input is not sorted in place');
  });

  it('a reply\'s footer: first token and tokens per second, "≈" on an estimated rate, no rate without one', () => {
    assert.equal(
      speedText({ firstTokenMs: 800, tokensPerSecond: 42, estimated: false }),
      'first token 0.8 s · 42 tokens/s',
    );
    assert.equal(
      speedText({ firstTokenMs: 800, tokensPerSecond: 41.6, estimated: true }),
      'first token 0.8 s · ≈ 42 tokens/s',
    );
    assert.equal(
      speedText({ firstTokenMs: 35, tokensPerSecond: 3.25, estimated: false }),
      'first token 35 ms · 3.3 tokens/s',
    );
    assert.equal(speedText({ firstTokenMs: 12_000, estimated: true }), 'first token 12 s');
  });

  it("a reply's footer in German: the language's numbers and words", () => {
    try {
      useTranslations({ 'first token {0} s': 'erstes Token nach {0} s', '{0} tokens/s': '{0} Tokens/s' }, 'de');
      assert.equal(
        speedText({ firstTokenMs: 800, tokensPerSecond: 1234, estimated: false }),
        'erstes Token nach 0,8 s · 1.234 Tokens/s',
      );
    } finally {
      useTranslations(undefined, 'en');
    }
  });

  it("the conversation's footer: the medians over the replies that have them", () => {
    const messages: MessageView[] = [
      { id: 'u', role: 'user', content: 'q', createdAt: 0 },
      reply('old'),
      reply('a', { firstTokenMs: 600, tokensPerSecond: 40, estimated: false }),
      reply('b', { firstTokenMs: 1000, tokensPerSecond: 50, estimated: false }),
      reply('c', { firstTokenMs: 800, estimated: false }), // no end: counts for the first token only
    ];
    assert.equal(medianSpeedText(messages), 'median first token 0.8 s · 45 tokens/s');
    messages.push(reply('d', { firstTokenMs: 900, tokensPerSecond: 46, estimated: true }));
    assert.equal(medianSpeedText(messages), 'median first token 0.9 s · ≈ 46 tokens/s');
    assert.equal(medianSpeedText([reply('old')]), '', 'nothing when no reply has a speed');
    assert.equal(medianSpeedText([reply('c', { firstTokenMs: 800, estimated: true })]), 'median first token 0.8 s');
  });

  it('the JSON export carries the timing; its import reads it back, and drops absurd timing', () => {
    const exported = exportJson(timedConversation());
    assert.ok('text' in exported);
    const imported = importConversation(exported.text);
    assert.ok('conversation' in imported, JSON.stringify(imported));
    assert.deepEqual(imported.conversation.messages[1].timing, {
      sentAt: T + 1,
      firstTokenAt: T + 801,
      endedAt: T + 1801,
    });
    assert.equal(imported.conversation.messages[3].timing, undefined);

    const doctored = JSON.parse(exported.text) as { conversation: { messages: Record<string, unknown>[] } };
    doctored.conversation.messages[1].timing = { sentAt: T, firstTokenAt: T + 1e12, endedAt: -4 };
    const odd = importConversation(JSON.stringify(doctored));
    assert.ok('conversation' in odd, JSON.stringify(odd));
    assert.equal(odd.conversation.messages[1].timing, undefined);
    assert.equal(odd.conversation.messages[1].content, 'Quick.', 'the reply is imported all the same');
  });

  it('the Markdown export writes the line under a timed reply; its import takes the line off again', () => {
    const markdown = conversationMarkdown(timedConversation(), () => 'then');
    assert.match(markdown, /\nQuick\.\n\n_first token 0\.8 s · 42 tokens\/s_\n/);
    assert.equal(markdown.match(/first token/g)?.length, 1, 'the old reply has no line');
    const read = parseMarkdownExport(markdown);
    assert.ok('conversation' in read);
    assert.deepEqual(
      read.conversation.messages.map((m) => m.content),
      ['Quick?', 'Quick.', 'And before?', 'Untimed.'],
    );
    // Stopped: the status note still follows, and both are read.
    const stopped = timedConversation();
    stopped.messages[1].status = 'stopped';
    stopped.messages[1].usage = undefined;
    const text = conversationMarkdown(stopped, () => 'then');
    assert.match(text, /_first token 0\.8 s_\n\n_\(stopped\)_/);
    const back = parseMarkdownExport(text);
    assert.ok('conversation' in back);
    assert.deepEqual(
      [back.conversation.messages[1].content, back.conversation.messages[1].status],
      ['Quick.', 'stopped'],
    );
  });

  it('speedEnglish writes the Markdown line', () => {
    assert.equal(
      speedEnglish({ firstTokenMs: 2000, tokensPerSecond: 20, estimated: true }),
      'first token 2.0 s · ≈ 20 tokens/s',
    );
  });

  it('the Markdown import reads a reply ending in a long look-alike line in linear time', () => {
    assertGrowth(
      'markdown import of a look-alike speed line',
      (n) => `## You · then\n\nq\n\n## ALPHA · then\n\n_first token ${'1'.repeat(n)}.5 s · ≈ ${'2'.repeat(n)} tokens/s`,
      (text) => parseMarkdownExport(text),
      { n: 100_000 },
    );
  });
});
