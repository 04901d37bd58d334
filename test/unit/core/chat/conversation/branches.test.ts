import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  allMessages,
  branchPlaces,
  branchPointCount,
  leavePath,
  switchBranch,
} from '../../../../../src/core/chat/conversation/branches';
import {
  newConversation,
  type Conversation,
  type StoredMessage,
} from '../../../../../src/core/chat/conversation/conversation';
import { parseConversation } from '../../../../../src/core/chat/conversation/conversationParse';
import { ConversationEncoder } from '../../../../../src/core/chat/store/conversationEncoder';
import { conversationMarkdown } from '../../../../../src/core/chat/transfer/conversationMarkdown';
import { mergeConversations } from '../../../../../src/core/chat/conversation/conversationMerge';
import { CONVERSATION_VERSION, migrateConversation } from '../../../../../src/core/chat/store/conversationSchema';
import { searchConversations } from '../../../../../src/core/chat/conversation/conversationSearch';
import { ConversationStore } from '../../../../../src/core/chat/store/conversationStore';
import { silentLogger } from '../../../../../src/core/logger';

let clock = 1_000;

function message(role: StoredMessage['role'], content: string): StoredMessage {
  clock += 10;
  return {
    id: `m-${content.replace(/\W+/g, '-')}-${clock}`,
    role,
    content,
    createdAt: clock,
    ...(role === 'assistant' ? { status: 'done' as const } : {}),
  };
}

/** The path shown, as its texts. */
function texts(conversation: Pick<Conversation, 'messages'>): string[] {
  return conversation.messages.map((m) => m.content);
}

/** A conversation of two turns: Q1 A1 Q2 A2. */
function twoTurns(): Conversation {
  const conversation = newConversation(clock);
  conversation.title = 'Branches';
  conversation.messages.push(
    message('user', 'Q1'),
    message('assistant', 'A1'),
    message('user', 'Q2'),
    message('assistant', 'A2'),
  );
  return conversation;
}

/** What an edit of the message at `index` does to the conversation (as ChatState.edit does it). */
function editAt(conversation: Conversation, index: number, text: string): void {
  const old = conversation.messages[index];
  leavePath(conversation, index);
  conversation.messages.push({ ...message('user', text), ...(old.context ? { context: old.context } : {}) });
}

describe('chat core: branches (src/core/chat/conversation/branches)', () => {
  it('edit: the old prompt and what followed it stay as a branch; the new prompt is its sibling', () => {
    const conversation = twoTurns();
    editAt(conversation, 0, 'Q1 better');
    conversation.messages.push(message('assistant', 'A1 better'));
    assert.deepEqual(texts(conversation), ['Q1 better', 'A1 better']);
    assert.deepEqual(
      conversation.branches?.map((m) => [m.content, m.parentId]),
      [
        ['Q1', undefined],
        ['A1', conversation.branches?.[0].id],
        ['Q2', conversation.branches?.[1].id],
        ['A2', conversation.branches?.[2].id],
      ],
      'each message once, with its parent; a first prompt has none',
    );
    const places = branchPlaces(conversation);
    assert.deepEqual(places.get(conversation.messages[0].id), { index: 2, count: 2 });
    assert.equal(places.has(conversation.messages[1].id), false, 'a message without siblings has no place');
    assert.equal(branchPointCount(conversation), 1);
  });

  it('switch: back to the original brings the whole branch as it was left, and forth again', () => {
    const conversation = twoTurns();
    const [q1, a1, q2, a2] = conversation.messages;
    editAt(conversation, 2, 'Q2 again');
    conversation.messages.push(message('assistant', 'A2 again'));
    const edited = conversation.messages[2];
    assert.deepEqual(branchPlaces(conversation).get(edited.id), { index: 2, count: 2 });

    assert.equal(switchBranch(conversation, edited.id, 1), false, 'no version after the last');
    assert.equal(switchBranch(conversation, edited.id, -1), true);
    assert.deepEqual(texts(conversation), ['Q1', 'A1', 'Q2', 'A2']);
    assert.deepEqual(
      conversation.messages.map((m) => m.id),
      [q1.id, a1.id, q2.id, a2.id],
      'the same messages, not copies under new ids',
    );
    assert.ok(
      conversation.messages.every((m) => m.parentId === undefined),
      'messages on the path have no parentId',
    );
    assert.deepEqual(branchPlaces(conversation).get(q2.id), { index: 1, count: 2 });
    assert.equal(switchBranch(conversation, q2.id, -1), false, 'no version before the first');

    assert.equal(switchBranch(conversation, q2.id, 1), true);
    assert.deepEqual(texts(conversation), ['Q1', 'A1', 'Q2 again', 'A2 again']);
    assert.equal(allMessages(conversation).length, 6, 'nothing copied, nothing lost');
  });

  it('switch comes back to the sub-branch shown last, at any depth', () => {
    const conversation = twoTurns();
    const q2 = conversation.messages[2];
    // Under A1: regenerate A2 twice (three versions of the reply), then go to the first.
    leavePath(conversation, 3);
    conversation.messages.push(message('assistant', 'A2 second'));
    leavePath(conversation, 3);
    conversation.messages.push(message('assistant', 'A2 third'));
    assert.deepEqual(branchPlaces(conversation).get(conversation.messages[3].id), { index: 3, count: 3 });
    switchBranch(conversation, conversation.messages[3].id, -1);
    assert.equal(conversation.messages[3].content, 'A2 second');
    // Now edit Q1: the branch left is Q1 … A2 second; switching back to Q1 must bring "A2 second", not another.
    editAt(conversation, 0, 'Q1 new');
    assert.equal(switchBranch(conversation, conversation.messages[0].id, -1), true);
    assert.deepEqual(texts(conversation), ['Q1', 'A1', 'Q2', 'A2 second']);
    assert.equal(conversation.messages[2].id, q2.id);
    assert.deepEqual(branchPlaces(conversation).get(conversation.messages[3].id), { index: 2, count: 3 });
  });

  it('export writes the branch on screen, and says other versions exist', () => {
    const conversation = twoTurns();
    editAt(conversation, 2, 'Q2 edited');
    conversation.messages.push(message('assistant', 'A2 edited'));
    const markdown = conversationMarkdown(conversation);
    assert.match(markdown, /Q2 edited/);
    assert.match(markdown, /A2 edited/);
    assert.doesNotMatch(markdown, /\bA2\b(?! edited)/, 'the other branch is not in the export');
    assert.match(markdown, /branch on screen; one message has other versions/);
    assert.doesNotMatch(conversationMarkdown(twoTurns()), /branch on screen/, 'no such line without branches');
  });

  it('search finds text in every branch, the path shown first', () => {
    const conversation = twoTurns();
    conversation.messages[3].content = 'A2 mentions zebras';
    editAt(conversation, 2, 'Q2 about giraffes');
    const matches = searchConversations('zebras', [conversation]);
    assert.equal(matches.length, 1, 'a word only in a branch is found');
    assert.equal(matches[0].snippet?.match, 'zebras');
    assert.equal(searchConversations('giraffes', [conversation])[0]?.snippet?.role, 'user');
  });

  it('storage: a round trip through the file keeps the path and every branch, each message once', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chat-branches-'));
    try {
      const conversation = twoTurns();
      editAt(conversation, 0, 'Q1 edited');
      conversation.messages.push(message('assistant', 'A1 edited'));
      const store = new ConversationStore(dir, silentLogger);
      await store.save(conversation);
      const raw = JSON.parse(fs.readFileSync(path.join(dir, `${conversation.id}.json`), 'utf8')) as Record<
        string,
        unknown
      >;
      assert.equal(raw.version, CONVERSATION_VERSION);
      assert.deepEqual(
        (raw.messages as StoredMessage[]).map((m) => m.content),
        ['Q1 edited', 'A1 edited'],
      );
      assert.deepEqual(
        (raw.branches as StoredMessage[]).map((m) => m.content),
        ['Q1', 'A1', 'Q2', 'A2'],
      );
      const text = fs.readFileSync(path.join(dir, `${conversation.id}.json`), 'utf8');
      assert.equal(text.split('"A2"').length - 1, 1, 'the shared history is stored once');

      const loaded = await new ConversationStore(dir, silentLogger).load(conversation.id);
      assert.ok(loaded);
      assert.deepEqual(texts(loaded), ['Q1 edited', 'A1 edited']);
      assert.deepEqual(loaded.branches, conversation.branches);
      assert.equal(switchBranch(loaded, loaded.messages[0].id, -1), true);
      assert.deepEqual(texts(loaded), ['Q1', 'A1', 'Q2', 'A2']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the encoder writes the branches after the path, as JSON.parse reads them', () => {
    const conversation = twoTurns();
    editAt(conversation, 2, 'Q2 edited');
    const encoder = new ConversationEncoder();
    const parsed = JSON.parse(Buffer.concat(encoder.encode(conversation, 'r1')).toString('utf8')) as Conversation;
    assert.deepEqual(parsed.branches, conversation.branches);
    assert.deepEqual(parsed.messages, conversation.messages);
    const plain = JSON.parse(Buffer.concat(encoder.encode(twoTurns(), 'r2')).toString('utf8')) as Record<
      string,
      unknown
    >;
    assert.equal('branches' in plain, false, 'no branches field without branches');
  });

  it("two windows: a switch in one and a new turn in the other keep both windows' messages", () => {
    const base = twoTurns();
    const mine = structuredClone(base);
    const theirs = structuredClone(base);
    // This window edits Q2; the other regenerates A2.
    editAt(mine, 2, 'Q2 mine');
    leavePath(theirs, 3);
    theirs.messages.push(message('assistant', 'A2 theirs'));
    const merged = mergeConversations({ ids: new Set(base.messages.map((m) => m.id)) }, mine, theirs);
    const everything = allMessages(merged)
      .map((m) => m.content)
      .sort();
    assert.deepEqual(everything, ['A1', 'A2', 'A2 theirs', 'Q1', 'Q2', 'Q2 mine'].sort());
    assert.equal(new Set(allMessages(merged).map((m) => m.id)).size, allMessages(merged).length, 'each once');
    const onPath = new Set(merged.messages.map((m) => m.id));
    assert.ok(
      merged.branches?.every((m) => !onPath.has(m.id)),
      'no branch message is also on the path',
    );
  });

  it('a branch whose parent is gone is dropped when merged, not shown in the wrong place', () => {
    const conversation = twoTurns();
    editAt(conversation, 2, 'Q2 edited');
    const orphan = { ...message('assistant', 'orphan'), parentId: 'no-such-message' };
    const theirs = structuredClone(conversation);
    theirs.branches = [...(theirs.branches ?? []), orphan];
    const merged = mergeConversations({ ids: new Set(conversation.messages.map((m) => m.id)) }, conversation, theirs);
    assert.equal(
      allMessages(merged).some((m) => m.content === 'orphan'),
      false,
    );
  });
});

describe('chat core: conversation files of every version read as the current one', () => {
  const ID = 'c0ffee00-1111-4222-8333-444455556666';
  const files: Record<number, Record<string, unknown>> = {
    1: {
      id: ID,
      title: 'Version 1',
      createdAt: 1,
      updatedAt: 2,
      messages: [
        { role: 'user', content: 'Hello', createdAt: 1 },
        { role: 'assistant', content: 'Hi', createdAt: 2, status: 'done' },
      ],
    },
    2: {
      version: 2,
      id: ID,
      title: 'Version 2',
      createdAt: 1,
      updatedAt: 2,
      pinned: true,
      messages: [
        { id: 'u1', role: 'user', content: 'Hello', createdAt: 1, parentId: 'stray' },
        { id: 'a1', role: 'assistant', content: 'Hi', createdAt: 2, status: 'done' },
      ],
    },
    3: {
      version: 3,
      id: ID,
      title: 'Version 3',
      createdAt: 1,
      updatedAt: 3,
      messages: [
        { id: 'u2', role: 'user', content: 'Hello again', createdAt: 3 },
        { id: 'a2', role: 'assistant', content: 'Hi again', createdAt: 4, status: 'done' },
      ],
      branches: [
        { id: 'u1', role: 'user', content: 'Hello', createdAt: 1 },
        { id: 'a1', role: 'assistant', content: 'Hi', createdAt: 2, status: 'done', parentId: 'u1' },
      ],
    },
    4: {
      version: 4,
      id: ID,
      title: 'Version 4',
      createdAt: 1,
      updatedAt: 3,
      messages: [
        { id: 'u2', role: 'user', content: 'Hello again', createdAt: 3 },
        {
          id: 'a2',
          role: 'assistant',
          content: 'Hi again',
          createdAt: 4,
          status: 'done',
          trim: { limit: 32_000, messages: 2 },
        },
      ],
      branches: [
        { id: 'u1', role: 'user', content: 'Hello', createdAt: 1 },
        { id: 'a1', role: 'assistant', content: 'Hi', createdAt: 2, status: 'done', parentId: 'u1' },
      ],
    },
    5: {
      version: 5,
      id: ID,
      title: 'Version 5',
      createdAt: 1,
      updatedAt: 3,
      toolAccess: 'read',
      messages: [
        { id: 'u2', role: 'user', content: 'Hello again', createdAt: 3 },
        {
          id: 'a2',
          role: 'assistant',
          content: 'Hi again',
          createdAt: 4,
          status: 'done',
          trim: { limit: 32_000, messages: 2 },
          requests: 2,
          steps: [
            {
              id: 's1',
              tool: 'read_file',
              input: { path: 'a.ts' },
              title: 'Read `a.ts`',
              status: 'done',
              result: '1 const a = 1;',
              offset: 3,
            },
          ],
        },
      ],
      branches: [
        { id: 'u1', role: 'user', content: 'Hello', createdAt: 1 },
        { id: 'a1', role: 'assistant', content: 'Hi', createdAt: 2, status: 'done', parentId: 'u1' },
      ],
    },
  };

  it('has a file here for every version up to the current one', () => {
    assert.equal(CONVERSATION_VERSION, 5);
    for (let v = 1; v <= CONVERSATION_VERSION; v++) {
      assert.ok(files[v], `a file of version ${v}`);
    }
  });

  for (const [version, file] of Object.entries(files)) {
    it(`reads a version ${version} file: its messages, ids and branches`, () => {
      const migrated = migrateConversation(structuredClone(file));
      assert.equal(migrated.version, CONVERSATION_VERSION);
      const conversation = parseConversation(structuredClone(file));
      assert.ok(conversation);
      assert.equal(conversation.version, CONVERSATION_VERSION);
      assert.ok(conversation.messages.every((m) => typeof m.id === 'string' && m.parentId === undefined));
      if (version === '5') {
        assert.deepEqual(
          [conversation.toolAccess, conversation.messages[1].requests, conversation.messages[1].steps?.[0].title],
          ['read', 2, 'Read `a.ts`'],
          'what version 5 keeps stays',
        );
      }
      if (version === '3' || version === '4' || version === '5') {
        assert.deepEqual(texts(conversation), ['Hello again', 'Hi again']);
        const trim = version === '3' ? undefined : { limit: 32_000, messages: 2 };
        assert.deepEqual(conversation.messages[1].trim, trim, 'a trim record stays');
        assert.deepEqual(branchPlaces(conversation).get('u2'), { index: 2, count: 2 });
        assert.equal(switchBranch(conversation, 'u2', -1), true);
        assert.deepEqual(texts(conversation), ['Hello', 'Hi']);
      } else {
        assert.deepEqual(texts(conversation), ['Hello', 'Hi']);
        assert.equal(conversation.branches, undefined, 'an older file has no branches');
      }
      if (version === '2') {
        assert.equal(conversation.pinned, true, 'what version 2 kept stays');
      }
    });
  }
});
