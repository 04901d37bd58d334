import * as assert from 'node:assert/strict';
import type { ChatRequest } from '../../../../../src/core/service/alphaClient';
import { ChatState } from '../../../../../src/core/chat/runs/chatState';
import type { ConversationHolder } from '../../../../../src/core/chat/runs/chatStateTypes';
import { mergeCompactions, SUMMARY_PROMPT } from '../../../../../src/core/chat/conversation/compaction';
import type { Compaction } from '../../../../../src/core/chat/conversation/conversation';
import {
  newConversation,
  type ContextItem,
  type Conversation,
} from '../../../../../src/core/chat/conversation/conversation';
import { parseConversation } from '../../../../../src/core/chat/conversation/conversationParse';
import { mergeConversations } from '../../../../../src/core/chat/conversation/conversationMerge';
import { conversationMarkdown } from '../../../../../src/core/chat/transfer/conversationMarkdown';
import type { ReplySource } from '../../../../../src/core/chat/runs/replyRunner';
import { migrateConversation } from '../../../../../src/core/chat/store/conversationSchema';
import { silentLogger } from '../../../../../src/core/logger';
import { ServiceError } from '../../../../../src/core/service/errors';

/** Answers "Reply n." to each request, and "SUMMARY" to a request for a summary; records every request. */
class Source implements ReplySource {
  readonly requests: ChatRequest[] = [];
  failSummary = false;
  async *stream(request: ChatRequest): AsyncGenerator<string, void, undefined> {
    this.requests.push(request);
    await Promise.resolve();
    if (this.failSummary && request.messages.at(-1)?.content === SUMMARY_PROMPT) {
      throw new ServiceError('server', 'The service failed (503 Service Unavailable).');
    }
    yield request.messages.at(-1)?.content === SUMMARY_PROMPT ? 'SUMMARY' : `Reply ${this.requests.length}.`;
  }
  complete(): Promise<string> {
    return Promise.reject(new Error('streams only'));
  }
}

function setup() {
  let saved: Conversation | undefined;
  const holder = {
    conversation: newConversation(),
    pending: [] as ContextItem[],
    saveFailing: false,
    unwritten: false,
    init: () => Promise.resolve(),
    scheduleSave: () => undefined,
    saveNow() {
      saved = structuredClone(holder.conversation);
      return Promise.resolve();
    },
    saveSync: () => undefined,
    onDidChangeExternally: () => ({ dispose: () => undefined }),
  };
  const redraws: string[] = [];
  const source = new Source();
  const state = new ChatState({
    holder: holder as unknown as ConversationHolder,
    source,
    settings: () => ({ model: 'alpha', stream: true, groundByDefault: false }),
    listener: {
      replyStarted: () => Promise.resolve(),
      replyDelta: () => undefined,
      replyNotice: () => undefined,
      replyEnded: () => undefined,
      conversationChanged: () => {
        redraws.push('redraw');
        return Promise.resolve();
      },
      listChanged: () => Promise.resolve(),
      streamingChanged: () => undefined,
    },
    log: silentLogger,
  });
  return { holder, source, state, redraws, saved: () => saved };
}

const contents = (request: ChatRequest | undefined) => request?.messages.map((m) => m.content.split('\n')[0]);

describe('chat: compaction (src/core/chat/conversation/compaction, through the chat state)', () => {
  it('summarises every turn but the last; the summary is sent instead of them, the originals stay; Undo sends them again', async () => {
    const { holder, source, state, redraws, saved } = setup();
    for (const prompt of ['One', 'Two', 'Three']) {
      await state.send(prompt);
    }
    const outcome = await state.compact();
    assert.equal(outcome.kind, 'compacted');
    assert.deepEqual(contents(source.requests[3]), ['One', 'Reply 1.', 'Two', 'Reply 2.', SUMMARY_PROMPT]);
    const compaction = holder.conversation.compactions?.[0] as Compaction;
    assert.equal(compaction.summary, 'SUMMARY');
    assert.equal(compaction.messages, 4);
    assert.equal(compaction.throughId, holder.conversation.messages[3].id);
    assert.ok(compaction.usage && compaction.usage.input > 0 && compaction.usage.output > 0, 'billed: counted');
    assert.equal(holder.conversation.messages.length, 6, 'the originals stay');
    assert.deepEqual(saved()?.compactions, [compaction], 'saved');
    assert.deepEqual(redraws, ['redraw'], 'the pages draw the marker');
    const markdown = conversationMarkdown(holder.conversation);
    assert.match(
      markdown,
      /Reply 2\.\n\n(?:_first token [^\n]*_\n\n)?(?:_≈ [^\n]* out_\n\n)?_Compacted: from here on, the 4 messages above were sent as this summary:_\n\n> SUMMARY\n/,
    );
    assert.match(markdown, /One[\s\S]*Two[\s\S]*Three/, 'the export keeps the originals');

    await state.send('Four');
    assert.deepEqual(contents(source.requests[4]), [
      'Summary of the earlier conversation (4 messages), written by ALPHA when the conversation was compacted:',
      'Three',
      'Reply 3.',
      'Four',
    ]);
    assert.ok(source.requests[4].messages[0].content.endsWith('\n\nSUMMARY'));
    const budget = state.budget();
    assert.ok(budget.parts.conversation < 100, 'the gauge counts the summary, not the originals');

    assert.equal(await state.undoCompaction(compaction.id), true);
    assert.equal(await state.undoCompaction(compaction.id), false, 'once');
    await state.send('Five');
    assert.deepEqual(contents(source.requests[5])?.slice(0, 2), ['One', 'Reply 1.'], 'the originals are sent again');
    assert.equal(holder.conversation.compactions?.[0].undone, true, 'kept: it was billed');
  });

  it('a branch that leaves before the summary ends sends its own messages; one through it sends the summary', async () => {
    const { holder, source, state } = setup();
    for (const prompt of ['One', 'Two', 'Three']) {
      await state.send(prompt);
    }
    await state.compact();
    await state.regenerate();
    assert.equal(contents(source.requests.at(-1))?.[0].startsWith('Summary of the earlier conversation'), true);
    await state.edit(holder.conversation.messages[0].id, 'One, edited');
    assert.deepEqual(contents(source.requests.at(-1)), ['One, edited']);
  });

  it('a failed summary changes nothing and says why', async () => {
    const { holder, source, state } = setup();
    for (const prompt of ['One', 'Two']) {
      await state.send(prompt);
    }
    source.failSummary = true;
    const outcome = await state.compact();
    assert.equal(outcome.kind, 'failed');
    assert.match(outcome.kind === 'failed' ? outcome.error.message : '', /503/);
    assert.equal(holder.conversation.compactions, undefined);
    await state.send('Three');
    assert.deepEqual(contents(source.requests.at(-1))?.[0], 'One');
  });

  it('nothing to compact with one turn: no request', async () => {
    const { source, state } = setup();
    await state.send('Only');
    assert.deepEqual(await state.compact(), { kind: 'nothing' });
    assert.equal(source.requests.length, 1);
  });

  it('files: version 4 keeps compactions, a version 3 file loses a stray one; two windows merge them', () => {
    const compaction = { id: 'k', throughId: 'a', messages: 2, summary: 'S', createdAt: 5, model: 'alpha' };
    const file = {
      version: 4,
      id: 'c',
      messages: [
        { id: 'u', role: 'user', content: 'Q', createdAt: 1 },
        { id: 'a', role: 'assistant', content: 'A', createdAt: 2, status: 'done' },
      ],
      compactions: [compaction, { id: 'bad' }],
    };
    assert.deepEqual(parseConversation(structuredClone(file))?.compactions, [compaction]);
    assert.equal('compactions' in migrateConversation({ ...structuredClone(file), version: 3 }), false);
    const mine = parseConversation(structuredClone(file)) as Conversation;
    const theirs = structuredClone(mine);
    theirs.compactions = [
      { ...compaction, undone: true },
      { ...compaction, id: 'k2', createdAt: 9 },
    ];
    const merged = mergeConversations({ ids: new Set(['u', 'a']) }, mine, theirs);
    assert.deepEqual(
      merged.compactions?.map((c) => [c.id, c.undone === true]),
      [
        ['k', true],
        ['k2', false],
      ],
    );
    assert.deepEqual(mergeCompactions(undefined, undefined), []);
  });
});
