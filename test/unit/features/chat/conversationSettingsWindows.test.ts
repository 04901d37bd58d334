import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { newId, type Conversation } from '../../../../src/core/chat/conversation/conversation';
import { mergeConversations } from '../../../../src/core/chat/conversation/conversationMerge';
import { parseConversation } from '../../../../src/core/chat/conversation/conversationParse';
import { changeSetting } from '../../../../src/core/chat/conversation/conversationSettings';
import { CONVERSATION_VERSION } from '../../../../src/core/chat/store/conversationSchema';
import { ConversationStore } from '../../../../src/core/chat/store/conversationStore';
import type { ExternalChange } from '../../../../src/core/chat/runs/chatStateTypes';
import { nodeFolderWatcher } from '../../../../src/core/storage/folderWatcher';
import { silentLogger } from '../../../../src/core/logger';
import { ChatSession } from '../../../../src/features/chat/chatSession';
import { memoryMemento } from '../../../support/memoryMemento';

// Two windows are two sessions (two processes in VS Code) on one conversation folder. A conversation's own settings
// (title, pin, "Ground with AXO", tool access) changed in one must not be undone by the other's next save.

/** The first change `session` reports from another window, or a failure after `ms`. */
function nextExternal(session: ChatSession, ms = 3_000): Promise<ExternalChange> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no change from the other window within ${ms} ms`)), ms);
    const listener = session.onDidChangeExternally((change) => {
      clearTimeout(timer);
      listener.dispose();
      resolve(change);
    });
  });
}

function turn(conversation: Conversation, prompt: string): void {
  const now = Date.now();
  conversation.messages.push(
    { id: newId(), role: 'user', content: prompt, createdAt: now },
    { id: newId(), role: 'assistant', content: `Reply to ${prompt}`, createdAt: now + 1, status: 'done' },
  );
  conversation.updatedAt = now + 1;
}

describe('chat: a conversation’s settings changed in another window', () => {
  let dir: string;
  const sessions: ChatSession[] = [];
  const windowOn = (watch = false) => {
    const session = new ChatSession(
      new ConversationStore(dir, silentLogger, watch ? nodeFolderWatcher : undefined),
      memoryMemento(),
      silentLogger,
    );
    sessions.push(session);
    return session;
  };
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chat-settings-'));
  });
  afterEach(() => {
    for (const session of sessions.splice(0)) {
      session.dispose();
      session.store.dispose();
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Window A shows a conversation of one turn, saved; window B reads it. */
  async function shared(): Promise<{ a: ChatSession; b: ChatSession; id: string }> {
    const a = windowOn();
    turn(a.conversation, 'first');
    await a.saveNow();
    const b = windowOn();
    assert.equal(await b.switchTo(a.conversation.id), true);
    return { a, b, id: a.conversation.id };
  }

  it('a rename, pin, grounding and tool access made in B survive A’s next turn, and A shows them', async () => {
    const { a, b, id } = await shared();
    await b.update(id, (c) => {
      changeSetting(c, 'title', 'Renamed in B');
      changeSetting(c, 'pinned', true);
      changeSetting(c, 'groundWithAxo', false);
      changeSetting(c, 'toolAccess', 'read');
    });
    // A, unaware, adds a turn and saves its copy, which still has the old settings.
    turn(a.conversation, 'second');
    await a.saveNow();
    for (const [where, c] of [
      ['A', a.conversation],
      ['the file', await new ConversationStore(dir, silentLogger).load(id)],
    ] as const) {
      assert.equal(c?.title, 'Renamed in B', where);
      assert.equal(c?.pinned, true, where);
      assert.equal(c?.groundWithAxo, false, `${where}: an explicit "off" is kept (the default may be on)`);
      assert.equal(c?.toolAccess, 'read', where);
      assert.equal(c?.messages.length, 4, `${where}: both turns`);
    }
    const listed = (await new ConversationStore(dir, silentLogger).list()).find((s) => s.id === id);
    assert.equal(listed?.title, 'Renamed in B');
    assert.equal(listed?.pinned, true);
  });

  it('each setting comes from the window that changed it last: B’s rename and A’s later tool access both stay', async () => {
    const { a, b, id } = await shared();
    await b.update(id, (c) => changeSetting(c, 'title', 'Named in B', 1_000));
    changeSetting(a.conversation, 'toolAccess', 'none', 2_000);
    changeSetting(a.conversation, 'title', 'Named in A, earlier', 500);
    await a.saveNow();
    assert.equal(a.conversation.title, 'Named in B');
    assert.equal(a.conversation.toolAccess, 'none');
    const file = await new ConversationStore(dir, silentLogger).load(id);
    assert.equal(file?.title, 'Named in B');
    assert.equal(file?.toolAccess, 'none');
    // B then takes A's tool access on its next save, and keeps its own title.
    turn(b.conversation, 'from B');
    await b.saveNow();
    assert.equal(b.conversation.toolAccess, 'none');
    assert.equal(b.conversation.title, 'Named in B');
  });

  it('a window showing the conversation takes a setting changed elsewhere when told, before any save of its own', async () => {
    const a = windowOn(true);
    turn(a.conversation, 'first');
    await a.saveNow();
    const b = windowOn();
    await b.switchTo(a.conversation.id);
    const told = nextExternal(a);
    await b.update(a.conversation.id, (c) => changeSetting(c, 'groundWithAxo', true));
    const change = await told;
    assert.equal(change.conversation, true, 'the page is drawn again');
    assert.equal(a.conversation.groundWithAxo, true);
    assert.equal(a.conversation.messages.length, 2);
  });

  it('files without change times merge as before: this window’s settings, the other’s title only where it has none', () => {
    const base = { ids: new Set<string>() };
    const v = CONVERSATION_VERSION;
    const mine = parseConversation({
      version: v,
      id: 'c1',
      title: '',
      messages: [],
      toolAccess: 'edit',
      pinned: true,
    })!;
    const theirs = parseConversation({ version: v, id: 'c1', title: 'Theirs', messages: [], toolAccess: 'read' })!;
    const merged = mergeConversations(base, mine, theirs);
    assert.equal(merged.title, 'Theirs');
    assert.equal(merged.toolAccess, 'edit');
    assert.equal(merged.pinned, true);
    assert.equal(merged.changedAt, undefined);
  });

  it('reads change times of known settings only, finite numbers only; a clock set back still moves a time on', () => {
    const read = parseConversation({
      id: 'c2',
      title: 't',
      messages: [],
      changedAt: { title: 5, pinned: 'yesterday', toolAccess: Number.NaN, colour: 7 },
    })!;
    assert.deepEqual(read.changedAt, { title: 5 });
    changeSetting(read, 'title', 'again', 1);
    assert.equal(read.changedAt?.title, 6, 'later than the time it had');
    assert.equal(parseConversation({ id: 'c3', title: 't', messages: [], changedAt: [1] })?.changedAt, undefined);
  });
});
