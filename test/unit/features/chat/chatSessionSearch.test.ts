import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { newConversation, type Conversation } from '../../../../src/core/chat/conversation/conversation';
import { ConversationStore } from '../../../../src/core/chat/store/conversationStore';
import { silentLogger } from '../../../../src/core/logger';
import { ChatSession } from '../../../../src/features/chat/chatSession';
import { memoryMemento } from '../../../support/memoryMemento';

// chatSession.ts imports only types from vscode, so it runs in plain Node with a real store on disk.

function conversation(title: string, updatedAt: number, ...contents: string[]): Conversation {
  const c = newConversation(updatedAt);
  c.title = title;
  c.updatedAt = updatedAt;
  contents.forEach((content, i) =>
    c.messages.push({ id: `m${i}`, role: i % 2 ? 'assistant' : 'user', content, createdAt: i }),
  );
  return c;
}

describe('chat session: searching the conversation list', () => {
  let dir: string;
  let store: ConversationStore;
  let session: ChatSession;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chat-session-search-'));
    store = new ConversationStore(dir, silentLogger);
    session = new ChatSession(store, memoryMemento(), silentLogger);
  });
  afterEach(() => {
    session.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('finds stored conversations by message text, newest first, and sees a saved change at the next query', async () => {
    const older = conversation('Older', 10, 'How do I parse JSON?', 'Use JSON.parse.');
    const newer = conversation('Newer', 20, 'How do I parse YAML?', 'Use a YAML library.');
    await store.save(older);
    await store.save(newer);
    assert.deepEqual(
      (await session.search('parse')).map((m) => m.id),
      [newer.id, older.id],
    );
    assert.deepEqual(await session.search('toml'), []);

    // Read and folded once; a save with a later updatedAt is read again.
    older.messages.push({ id: 'm2', role: 'user', content: 'And TOML?', createdAt: 2 });
    older.updatedAt = 30;
    await store.save(older);
    const [found] = await session.search('toml');
    assert.equal(found?.id, older.id);
    assert.equal(found?.snippet?.match, 'TOML');
  });

  it('finds what was just written in the conversation shown, before it is saved', async () => {
    session.conversation = conversation('Shown', 5, 'First question');
    session.conversation.messages.push({ id: 'x', role: 'assistant', content: 'A reply about zebras', createdAt: 1 });
    const [found] = await session.search('zebras');
    assert.equal(found?.id, session.conversation.id);
    session.conversation.messages[1].content += ' and okapis';
    assert.equal((await session.search('okapis'))[0]?.id, session.conversation.id);
  });

  it('no longer finds a deleted conversation', async () => {
    const gone = conversation('Gone', 10, 'A word: quokka');
    await store.save(gone);
    assert.equal((await session.search('quokka')).length, 1);
    await store.delete(gone.id);
    assert.deepEqual(await session.search('quokka'), []);
  });
});
