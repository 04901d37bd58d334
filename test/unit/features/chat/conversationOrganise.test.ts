import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { newId } from '../../../../src/core/chat/conversation/conversation';
import { parseConversation } from '../../../../src/core/chat/conversation/conversationParse';
import { ConversationStore } from '../../../../src/core/chat/store/conversationStore';
import { listOrder } from '../../../../src/core/chat/store/conversationSummary';
import { silentLogger } from '../../../../src/core/logger';
import { ChatSession } from '../../../../src/features/chat/chatSession';
import { memoryMemento } from '../../../support/memoryMemento';

const HERE = 'file:///home/dev/project';

describe('conversations you organise: pins, workspaces, titles and Undo on disk', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chat-organise-'));
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** A session of this workspace, and conversations written as it writes them, a millisecond apart, oldest first. */
  async function sessionWith(prompts: string[]): Promise<{ session: ChatSession; ids: string[] }> {
    const session = new ChatSession(new ConversationStore(dir, silentLogger), memoryMemento(), silentLogger, {
      workspace: HERE,
    });
    const ids: string[] = [];
    for (const [i, prompt] of prompts.entries()) {
      const conversation = { ...session.fresh(), title: prompt, updatedAt: 1_000 + i };
      conversation.messages.push({ id: newId(), role: 'user', content: prompt, createdAt: 1_000 + i });
      await session.add(conversation);
      ids.push(conversation.id);
    }
    return { session, ids };
  }

  it('a conversation records the workspace it was started in, and the list and a fresh read keep it', async () => {
    const { session, ids } = await sessionWith(['Here']);
    assert.equal(session.conversation.workspace, HERE, 'the one shown, new, has it too');
    const fresh = new ConversationStore(dir, silentLogger);
    assert.equal((await fresh.list())[0].workspace, HERE, 'the index keeps it');
    assert.equal((await fresh.load(ids[0]))?.workspace, HERE, 'the file keeps it');
  });

  it('a pinned conversation is listed first, in this window and by the index another window reads', async () => {
    const { session, ids } = await sessionWith(['Old', 'Middle', 'New']);
    assert.deepEqual(
      (await session.list()).map((s) => s.title),
      ['New', 'Middle', 'Old'],
    );
    assert.equal(
      await session.update(ids[0], (c) => {
        c.pinned = true;
      }),
      true,
    );
    assert.deepEqual(
      (await session.list()).map((s) => s.title),
      ['Old', 'New', 'Middle'],
    );
    const other = new ConversationStore(dir, silentLogger);
    const listed = await other.list();
    assert.deepEqual(
      listed.map((s) => [s.title, s.pinned === true]),
      [
        ['Old', true],
        ['New', false],
        ['Middle', false],
      ],
    );
    assert.equal(JSON.parse(fs.readFileSync(path.join(dir, `${ids[0]}.json`), 'utf8')).pinned, true);
  });

  it('renaming a conversation that is not shown writes its file and the index', async () => {
    const { session, ids } = await sessionWith(['Before', 'Shown']);
    assert.equal(
      await session.update(ids[0], (c) => {
        c.title = 'After';
      }),
      true,
    );
    assert.equal((await session.read(ids[1]))?.title, 'Shown', 'the other one keeps its title');
    assert.equal((await new ConversationStore(dir, silentLogger).load(ids[0]))?.title, 'After');
    assert.ok((await new ConversationStore(dir, silentLogger).list()).some((s) => s.title === 'After'));
    assert.equal(await session.update('00000000-0000-4000-8000-000000000000', () => undefined), false);
  });

  it('a deleted conversation written again by Undo is back on disk and listed', async () => {
    const { session, ids } = await sessionWith(['Gone for a moment', 'Other']);
    const removed = await session.read(ids[0]);
    assert.ok(removed);
    await session.delete(ids[0]);
    assert.equal(fs.existsSync(path.join(dir, `${ids[0]}.json`)), false);
    await session.add(removed);
    assert.equal(fs.existsSync(path.join(dir, `${ids[0]}.json`)), true);
    assert.ok((await session.list()).some((s) => s.id === ids[0]));
  });

  it('files from before pins and workspaces read as unpinned and of no workspace', () => {
    const old = parseConversation({ id: 'c', title: 'Old', createdAt: 1, updatedAt: 2, messages: [] });
    assert.equal(old?.pinned, undefined);
    assert.equal(old?.workspace, undefined);
    const odd = parseConversation({ id: 'c', messages: [], pinned: 'yes', workspace: 42 });
    assert.equal(odd?.pinned, undefined, 'only true pins');
    assert.equal(odd?.workspace, undefined, 'only a string is a workspace');
  });

  it('the list order: pinned first, then the most recently changed', () => {
    const s = (id: string, updatedAt: number, pinned?: boolean) => ({
      id,
      title: id,
      updatedAt,
      messageCount: 1,
      pinned,
    });
    assert.deepEqual(
      [s('a', 1), s('b', 3), s('c', 2, true), s('d', 0, true)].sort(listOrder).map((x) => x.id),
      ['c', 'd', 'b', 'a'],
    );
  });
});
