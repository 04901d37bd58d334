import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  newConversation,
  newId,
  type Conversation,
  type StoredMessage,
} from '../../../../../src/core/chat/conversation/conversation';
import { ConversationStore } from '../../../../../src/core/chat/store/conversationStore';
import { type StoreChange } from '../../../../../src/core/chat/store/conversationSummary';
import { mergeConversations } from '../../../../../src/core/chat/conversation/conversationMerge';
import { nodeFolderWatcher } from '../../../../../src/core/storage/folderWatcher';
import { silentLogger } from '../../../../../src/core/logger';

// Two windows are two stores (two processes in VS Code) on one folder.

let clock = 1_000;

function message(role: StoredMessage['role'], content: string): StoredMessage {
  return { id: newId(), role, content, createdAt: ++clock, ...(role === 'assistant' ? { status: 'done' } : {}) };
}

function turn(conversation: Conversation, prompt: string): void {
  conversation.messages.push(message('user', prompt), message('assistant', `Reply to ${prompt}`));
  conversation.updatedAt = ++clock;
}

function contents(conversation: Conversation | undefined): string[] {
  return conversation?.messages.map((m) => m.content) ?? [];
}

function indexIds(dir: string): string[] {
  const index = JSON.parse(fs.readFileSync(path.join(dir, 'index.json'), 'utf8')) as {
    conversations: { id: string }[];
  };
  return index.conversations.map((c) => c.id).sort();
}

/** Resolves with the first change a store reports, or fails after `ms`. */
function nextChange(store: ConversationStore, ms = 1_000): Promise<StoreChange> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no change reported within ${ms} ms`)), ms);
    const listener = store.onDidChange((change) => {
      clearTimeout(timer);
      listener.dispose();
      resolve(change);
    });
  });
}

describe('chat core: two windows on one conversation folder', () => {
  let dir: string;
  const stores: ConversationStore[] = [];
  const open = (watch = false) => {
    const store = new ConversationStore(dir, silentLogger, watch ? nodeFolderWatcher : undefined);
    stores.push(store);
    return store;
  };
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chat-windows-'));
  });
  afterEach(() => {
    stores.splice(0).forEach((s) => s.dispose());
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('append/append: both windows add turns to one conversation and every prompt and reply is kept, in order', async () => {
    const a = open();
    const b = open();
    const start = newConversation(++clock);
    turn(start, 'first');
    await a.save(start);
    const inA = (await a.load(start.id))!;
    const inB = (await b.load(start.id))!;
    turn(inA, 'from A');
    turn(inB, 'from B');
    assert.equal(await a.save(inA), undefined, 'nothing to merge: the file is as A read it');
    const merged = await b.save(inB);
    assert.deepEqual(contents(merged), [
      'first',
      'Reply to first',
      'from A',
      'Reply to from A',
      'from B',
      'Reply to from B',
    ]);
    // A writes again without having seen B's turn: it is merged, not dropped.
    turn(inA, 'again A');
    await a.save(inA);
    const onDisk = await open().load(start.id);
    assert.deepEqual(contents(onDisk), [
      'first',
      'Reply to first',
      'from A',
      'Reply to from A',
      'from B',
      'Reply to from B',
      'again A',
      'Reply to again A',
    ]);
  });

  it('append/append at the same moment: concurrent saves of both windows lose nothing', async () => {
    const a = open();
    const b = open();
    const start = newConversation(++clock);
    turn(start, 'first');
    await a.save(start);
    const inA = (await a.load(start.id))!;
    const inB = (await b.load(start.id))!;
    // Each window as the chat runs it: one save at a time, taking in what the store merged.
    const chat = async (store: ConversationStore, shown: Conversation, name: string) => {
      for (let i = 0; i < 5; i++) {
        turn(shown, `${name}${i}`);
        const merged = await store.save(shown);
        if (merged) {
          shown.messages = merged.messages;
        }
      }
    };
    await Promise.all([chat(a, inA, 'A'), chat(b, inB, 'B')]);
    const onDisk = contents(await open().load(start.id));
    for (let i = 0; i < 5; i++) {
      assert.ok(onDisk.includes(`A${i}`) && onDisk.includes(`Reply to A${i}`), `A${i} kept: ${onDisk.join(', ')}`);
      assert.ok(onDisk.includes(`B${i}`) && onDisk.includes(`Reply to B${i}`), `B${i} kept: ${onDisk.join(', ')}`);
      assert.equal(onDisk.indexOf(`Reply to A${i}`), onDisk.indexOf(`A${i}`) + 1, 'a reply follows its prompt');
    }
    assert.equal(onDisk.length, 22);
  });

  it('keeps the reply streaming in one window as the same object when the other window added a turn', async () => {
    const a = open();
    const b = open();
    const start = newConversation(++clock);
    turn(start, 'first');
    const reply: StoredMessage = { ...message('assistant', 'Half a'), status: 'streaming' };
    start.messages.push(message('user', 'streamed prompt'), reply);
    await a.save(start);
    const inB = (await b.load(start.id))!;
    assert.equal(inB.messages.at(-1)?.status, 'interrupted', 'a reader sees the partial reply as cut short');
    turn(inB, 'from B');
    await b.save(inB);
    reply.content = 'Half a reply, now whole';
    reply.status = 'done';
    const merged = await a.save(start);
    assert.ok(merged?.messages.includes(reply), 'the streaming reply is the same object');
    assert.deepEqual(contents(await open().load(start.id)), [
      'first',
      'Reply to first',
      'streamed prompt',
      'Half a reply, now whole',
      'from B',
      'Reply to from B',
    ]);
  });

  it('create/list: a conversation created in another window is listed after its file event', async () => {
    const a = open(true);
    const b = open();
    const mine = newConversation(++clock);
    turn(mine, 'in A');
    await a.save(mine);
    assert.deepEqual(
      (await a.list()).map((s) => s.id),
      [mine.id],
    );
    const changed = nextChange(a);
    const other = newConversation(++clock);
    turn(other, 'in B');
    await b.save(other);
    assert.equal((await changed).list, true);
    assert.deepEqual(
      (await a.list()).map((s) => s.id),
      [other.id, mine.id],
    );
  });

  it('never writes the index back from a stale copy: a conversation listed elsewhere stays listed', async () => {
    const a = open();
    const b = open();
    const mine = newConversation(++clock);
    turn(mine, 'in A');
    await a.save(mine);
    await a.list(); // A holds its copy of the list now.
    const other = newConversation(++clock);
    turn(other, 'in B');
    await b.save(other);
    turn(mine, 'more in A');
    await a.save(mine);
    assert.deepEqual(indexIds(dir), [mine.id, other.id].sort());
    // And a conversation deleted in B does not come back from A's old copy.
    await b.delete(other.id);
    turn(mine, 'still more in A');
    await a.save(mine);
    assert.deepEqual(indexIds(dir), [mine.id]);
  });

  it('delete/save: a window still writing a conversation another window deleted keeps all of its turns', async () => {
    const a = open();
    const b = open();
    const shared = newConversation(++clock);
    turn(shared, 'first');
    await a.save(shared);
    const inB = (await b.load(shared.id))!;
    await a.delete(shared.id);
    assert.equal(await open().load(shared.id), undefined);
    turn(inB, 'written in B after the delete');
    await b.save(inB);
    assert.deepEqual(contents(await open().load(shared.id)), [
      'first',
      'Reply to first',
      'written in B after the delete',
      'Reply to written in B after the delete',
    ]);
    await a.checkForChanges();
    assert.deepEqual(
      (await a.list()).map((s) => s.id),
      [shared.id],
    );
    // The window that deleted it does not write it back from its own copy.
    assert.equal(await a.save(shared), undefined);
    assert.equal(contents(await open().load(shared.id)).length, 4);
    // Opened again there, it is that window's to write again.
    const reopened = (await a.load(shared.id))!;
    turn(reopened, 'written in A after opening it again');
    await a.save(reopened);
    assert.equal(contents(await open().load(shared.id)).length, 6);
  });

  it('reports a change to the conversation shown within a second, and refresh brings the other turns in', async () => {
    const a = open(true);
    const b = open();
    const shared = newConversation(++clock);
    turn(shared, 'first');
    await a.save(shared);
    const inB = (await b.load(shared.id))!;
    turn(inB, 'from B');
    const changed = nextChange(a);
    await b.save(inB);
    assert.ok((await changed).ids.has(shared.id));
    turn(shared, 'unsaved in A');
    const merged = await a.refresh(shared);
    assert.deepEqual(contents(merged), [
      'first',
      'Reply to first',
      'from B',
      'Reply to from B',
      'unsaved in A',
      'Reply to unsaved in A',
    ]);
    assert.equal(await a.refresh(shared), undefined, 'nothing new the second time');
  });

  it("keeps a removal the other window made on purpose (a regenerated reply) and this window's new turn", () => {
    const base = newConversation(++clock);
    turn(base, 'first');
    const mine = structuredClone(base);
    const theirs = structuredClone(base);
    theirs.messages.pop();
    theirs.messages.push(message('assistant', 'Regenerated reply to first'));
    turn(mine, 'from A');
    const merged = mergeConversations({ ids: new Set(base.messages.map((m) => m.id)) }, mine, theirs);
    assert.deepEqual(contents(merged), ['first', 'Regenerated reply to first', 'from A', 'Reply to from A']);
  });

  it('does not report its own writes as changes', async () => {
    const a = open(true);
    const reported: StoreChange[] = [];
    a.onDidChange((c) => reported.push(c));
    const mine = newConversation(++clock);
    turn(mine, 'in A');
    await a.save(mine);
    await a.list();
    turn(mine, 'more');
    await a.save(mine);
    await a.checkForChanges();
    assert.deepEqual(reported, []);
  });
});
