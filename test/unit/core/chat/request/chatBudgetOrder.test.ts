import * as assert from 'node:assert/strict';
import type { ChatRequest } from '../../../../../src/core/service/alphaClient';
import { ChatState } from '../../../../../src/core/chat/runs/chatState';
import type {
  ChatStateListener,
  ConversationHolder,
  ReplySettings,
} from '../../../../../src/core/chat/runs/chatStateTypes';
import {
  newConversation,
  type ContextItem,
  type Conversation,
  type StoredMessage,
} from '../../../../../src/core/chat/conversation/conversation';
import { parseConversation } from '../../../../../src/core/chat/conversation/conversationParse';
import { conversationMarkdown } from '../../../../../src/core/chat/transfer/conversationMarkdown';
import type { GroundingResult } from '../../../../../src/core/chat/request/grounding';
import type { ReplySource } from '../../../../../src/core/chat/runs/replyRunner';
import { buildRequest } from '../../../../../src/core/chat/request/requestBuilder';
import { migrateConversation } from '../../../../../src/core/chat/store/conversationSchema';
import { silentLogger } from '../../../../../src/core/logger';
import { estimateTokens } from '../../../../../src/core/service/tokenEstimate';

/** About `tokens` tokens of text in lines of 20 characters (four 4-letter words and a line end: 5 tokens a line). */
function text(tokens: number, word = 'abcd'): string {
  return `${word} ${word} ${word} ${word}\n`.repeat(Math.ceil(tokens / 5));
}

/** Records every request; each reply is "Done." */
class RecordingSource implements ReplySource {
  readonly requests: ChatRequest[] = [];
  async *stream(request: ChatRequest): AsyncGenerator<string, void, undefined> {
    this.requests.push(request);
    await Promise.resolve();
    yield 'Done.';
  }
  complete(request: ChatRequest): Promise<string> {
    this.requests.push(request);
    return Promise.resolve('Done.');
  }
}

/** One conversation in memory; saves copy it into `saved`. */
class Holder implements ConversationHolder {
  conversation: Conversation = newConversation();
  pending: ContextItem[] = [];
  saveFailing = false;
  unwritten = false;
  saved: Conversation | undefined;
  init = () => Promise.resolve();
  list = () => Promise.resolve([]);
  switchTo = () => Promise.resolve(false);
  startNew = () => Promise.resolve();
  delete = () => Promise.resolve();
  read = () => Promise.resolve(undefined);
  update = () => Promise.resolve(false);
  add = () => Promise.resolve();
  scheduleSave(): void {
    this.saved = structuredClone(this.conversation);
  }
  saveNow(): Promise<void> {
    this.scheduleSave();
    return Promise.resolve();
  }
  saveSync(): void {
    this.scheduleSave();
  }
  onDidChangeExternally = () => ({ dispose: () => undefined });
}

/** Keeps the notices the pages were told: the reply's own when it starts, and later ones. */
class Notices implements ChatStateListener {
  readonly shown: string[] = [];
  replyStarted(_id: number, _user: StoredMessage, reply: StoredMessage): Promise<void> {
    if (reply.notice) {
      this.shown.push(reply.notice);
    }
    return Promise.resolve();
  }
  replyNotice(_id: number, notice: string): void {
    this.shown.push(notice);
  }
  replyDelta = () => undefined;
  replyEnded = () => undefined;
  conversationChanged = () => Promise.resolve();
  listChanged = () => Promise.resolve();
  streamingChanged = () => undefined;
}

function setup(model: string, ground?: (prompt: string) => Promise<GroundingResult>) {
  const holder = new Holder();
  const source = new RecordingSource();
  const notices = new Notices();
  const settings: ReplySettings = { model, stream: true, groundByDefault: ground !== undefined };
  const state = new ChatState({
    holder,
    source,
    settings: () => settings,
    ground: ground && ((prompt) => ground(prompt)),
    listener: notices,
    log: silentLogger,
  });
  return { holder, source, notices, state };
}

/** `turns` finished turns of about `tokens` tokens a message, as if sent earlier. */
function history(holder: Holder, turns: number, tokens: number): void {
  for (let i = 0; i < turns; i++) {
    const at = i * 2;
    holder.conversation.messages.push(
      { id: `u${i}`, role: 'user', content: `Question ${i}\n${text(tokens)}`, createdAt: at },
      { id: `a${i}`, role: 'assistant', content: `Answer ${i}\n${text(tokens)}`, createdAt: at + 1, status: 'done' },
    );
  }
}

const file = (label: string, content: string): ContextItem => ({ id: label, label, content, language: 'ts' });

describe('chat: the budget order on every path (src/core/chat/request/requestBuilder through the chat state)', () => {
  it('12 older turns and a 7,200-token attachment on a 32K model: the attachment is stored and sent whole, the oldest turns go, and the reply says so', async () => {
    const { holder, source, notices, state } = setup('skyflash');
    history(holder, 12, 1_000);
    const attachment = file('big.ts', text(7_200, 'wxyz'));
    assert.ok(attachment.content.length >= 28_000);
    state.addContext([attachment]);
    await state.send('Explain big.ts');

    const prompt = holder.conversation.messages.at(-2) as StoredMessage;
    assert.deepEqual(prompt.context, [attachment], 'the conversation keeps the attachment whole');
    assert.deepEqual(holder.saved?.messages.at(-2)?.context, [attachment], 'and so does its file');
    const sent = source.requests[0].messages;
    assert.ok(sent.at(-1)?.content.includes(attachment.content), 'the request carries the whole attachment');
    assert.ok(!sent.some((m) => m.content.startsWith('Question 0\n')), 'the oldest turn went first');
    assert.ok(
      sent.some((m) => m.content.startsWith('Question 11\n')),
      'the newest turns stayed',
    );
    const reply = holder.conversation.messages.at(-1) as StoredMessage;
    const dropped = 24 - (sent.length - 1);
    assert.deepEqual(reply.trim, { limit: 32_000, messages: dropped });
    assert.match(reply.notice ?? '', new RegExp(`The ${dropped} oldest messages were left out`));
    assert.deepEqual(notices.shown, [reply.notice], 'shown as the reply starts');
  });

  it('grounded: older attachments go before the grounding, and the trims are shown with the grounding note, not overwritten', async () => {
    const answer = 'TypeScript appeared in 2012. '.repeat(20);
    const { holder, source, notices, state } = setup('skyflash', () =>
      Promise.resolve({ kind: 'grounded', answer, sources: [{ title: 'TypeScript' }], facts: [], note: 'AXO note.' }),
    );
    history(holder, 2, 2_000);
    const older = [
      file('a.ts', text(10_000, 'aaaa')),
      file('b.ts', text(10_000, 'bbbb')),
      file('c.ts', text(10_000, 'cccc')),
    ];
    const newest = file('d.ts', text(10_000, 'dddd'));
    state.addContext([...older, newest]);
    await state.send('When did it appear?');

    const last = source.requests[0].messages.at(-1)?.content ?? '';
    assert.ok(last.includes(answer.trim()), 'the grounding is whole');
    assert.ok(last.includes(newest.content), 'the newest attachment is whole');
    assert.ok(last.includes(older[2].content), 'an older one that fits stays whole');
    assert.ok(!last.includes('aaaa') && !last.includes('bbbb'), 'the older attachments were left out');
    // The oldest turns went first; with the older attachments out, the newest turn has room again.
    assert.deepEqual(
      source.requests[0].messages.map((m) => m.content.split('\n')[0]),
      ['Question 1', 'Answer 1', last.split('\n')[0]],
    );
    const reply = holder.conversation.messages.at(-1) as StoredMessage;
    assert.deepEqual(reply.trim, { limit: 32_000, messages: 2, attachments: ['a.ts', 'b.ts'] });
    assert.match(
      reply.notice ?? '',
      /^AXO note\. The 2 oldest messages .* 2 older attachments were left out .*: a\.ts, b\.ts\.$/,
    );
    assert.deepEqual(notices.shown, [reply.notice]);
    assert.deepEqual(holder.conversation.messages.at(-2)?.context, [...older, newest], 'all four stored whole');
  });

  it('an attachment larger than the context is cut in the request only, at a line end, marked, recorded and shown', async () => {
    const { holder, source, state } = setup('skyflash');
    const huge = file('dump.log', text(40_000, 'logs'));
    state.addContext([huge]);
    await state.send('What failed?');

    const sent = source.requests[0].messages;
    assert.equal(sent.length, 1);
    const content = sent[0].content;
    assert.ok(estimateTokens(content) + 4 <= 28_000, `${estimateTokens(content)} tokens fit 32K less the reply's room`);
    assert.ok(estimateTokens(content) > 27_000, 'cut to what is left, not to nothing');
    assert.ok(/^dump\.log \(trimmed\):\n```ts\nlogs logs/.test(content), 'labelled as trimmed');
    assert.ok(/logs\n… \(trimmed to fit the context\)\n```\n\nWhat failed\?$/.test(content), 'cut at a line end');
    assert.deepEqual(holder.conversation.messages[0].context, [huge], 'stored whole');
    const reply = holder.conversation.messages[1];
    assert.deepEqual(reply.trim, { limit: 32_000, cut: 'dump.log' });
    assert.match(reply.notice ?? '', /dump\.log was trimmed to fit SKYFLASH's 32K-token context/i);
  });

  it('regenerate fits the request again with the stored whole attachment, and records its own trims', async () => {
    const { holder, source, state } = setup('skyflash');
    history(holder, 1, 1_000);
    const attachment = file('mid.ts', text(20_000, 'midd'));
    state.addContext([attachment]);
    await state.send('Review');
    await state.regenerate();
    assert.equal(source.requests.length, 2);
    assert.deepEqual(source.requests[1].messages, source.requests[0].messages, 'the same request again');
    assert.ok(source.requests[1].messages.at(-1)?.content.includes(attachment.content));
    const reply = holder.conversation.messages.at(-1) as StoredMessage;
    assert.equal(reply.trim, undefined, 'nothing trimmed: nothing recorded');
    assert.equal(reply.notice, undefined);
  });

  it('export and files carry the whole attachment and the trim record; a version 3 file loses a stray trim', async () => {
    const { holder, state } = setup('skyflash');
    history(holder, 12, 1_000);
    const attachment = file('big.ts', text(7_200, 'wxyz'));
    state.addContext([attachment]);
    await state.send('Explain');
    const markdown = conversationMarkdown(holder.conversation);
    assert.ok(markdown.includes(attachment.content), 'the Markdown export has the whole attachment');
    assert.match(markdown, /> The \d+ oldest messages were left out/);
    const reread = parseConversation(JSON.parse(JSON.stringify(holder.conversation)));
    assert.deepEqual(reread?.messages.at(-1)?.trim, holder.conversation.messages.at(-1)?.trim);
    assert.ok(reread?.messages.at(-1)?.trim?.messages);

    const v3 = { version: 3, id: 'x', messages: [{ id: 'm', role: 'assistant', content: 'a', trim: { limit: 5 } }] };
    const migrated = migrateConversation(structuredClone(v3)) as { messages: Record<string, unknown>[] };
    assert.equal('trim' in migrated.messages[0], false);
    assert.equal(parseConversation(v3)?.messages[0].trim, undefined);
    assert.equal(parseConversation({ ...v3, version: 4 })?.messages[0].trim?.limit, 5);
  });

  it('the builder: nothing trimmed when it fits; the parts add up to the whole', () => {
    const built = buildRequest({
      model: 'alpha',
      earlier: [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello' },
      ],
      prompt: { content: 'Explain', context: [file('a.ts', 'const a = 1;\n')] },
      grounding: { answer: 'An answer.', sources: [{ title: 'A' }] },
    });
    assert.equal(built.trim, undefined);
    assert.equal(built.notice, undefined);
    assert.equal(built.error, undefined);
    assert.equal(built.limit, 200_000);
    assert.equal(built.parts.conversation + built.parts.attachments + built.parts.grounding, built.tokens);
    assert.ok(built.parts.attachments > 0 && built.parts.grounding > 0);
  });
});
