import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { newConversation, type Conversation } from '../../../../../src/core/chat/conversation/conversation';
import { ConversationStore } from '../../../../../src/core/chat/store/conversationStore';
import { isConversationId } from '../../../../../src/core/chat/store/conversationSummary';
import { silentLogger } from '../../../../../src/core/logger';

function conversation(title: string, updatedAt: number, messages = 2): Conversation {
  const c = newConversation(updatedAt);
  c.title = title;
  c.updatedAt = updatedAt;
  for (let i = 0; i < messages; i++) {
    c.messages.push({ id: `m${i}`, role: i % 2 ? 'assistant' : 'user', content: `text ${i} é🚀`, createdAt: i });
  }
  return c;
}

describe('chat core: conversation store', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chat-store-'));
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('saves one JSON file per conversation and lists them newest first', async () => {
    const store = new ConversationStore(dir, silentLogger);
    const a = conversation('A', 10);
    const b = conversation('B', 20);
    await store.save(a);
    await store.save(b);
    assert.ok(fs.existsSync(path.join(dir, `${a.id}.json`)));
    assert.ok(fs.existsSync(path.join(dir, `${b.id}.json`)));
    assert.deepEqual(
      (await store.list()).map((s) => [s.title, s.messageCount]),
      [
        ['B', 2],
        ['A', 2],
      ],
    );
    assert.deepEqual(await store.load(a.id), a);
    assert.deepEqual(
      fs.readdirSync(dir).filter((f) => f.endsWith('.tmp')),
      [],
      'no temp file is left behind',
    );
  });

  it('writes a conversation in ASCII (read back byte for byte) and still reads one written in UTF-8', async () => {
    const store = new ConversationStore(dir, silentLogger);
    const a = conversation('Café 東京 🚀', 10);
    a.messages[1].content = 'Ærøskøbing 👨‍👩‍👧 \u2028 "quoted"';
    await store.save(a);
    const file = path.join(dir, `${a.id}.json`);
    const bytes = fs.readFileSync(file);
    assert.ok(
      bytes.every((byte) => byte < 0x80),
      'every byte of the file is ASCII',
    );
    assert.deepEqual(await new ConversationStore(dir, silentLogger).load(a.id), a);
    // A file from before (UTF-8, as JSON.stringify writes it) reads the same.
    fs.writeFileSync(file, JSON.stringify(JSON.parse(bytes.toString('latin1'))), 'utf8');
    assert.ok(
      fs.readFileSync(file).some((byte) => byte >= 0x80),
      'the old file has UTF-8 in it',
    );
    assert.deepEqual(await new ConversationStore(dir, silentLogger).load(a.id), a);
  });

  it('does not keep empty conversations and deletes files and index entries', async () => {
    const store = new ConversationStore(dir, silentLogger);
    const empty = newConversation();
    await store.save(empty);
    assert.equal(fs.existsSync(path.join(dir, `${empty.id}.json`)), false);
    const a = conversation('A', 1);
    await store.save(a);
    await store.delete(a.id);
    assert.deepEqual(await store.list(), []);
    assert.equal(await store.load(a.id), undefined);
    const fresh = new ConversationStore(dir, silentLogger);
    assert.deepEqual(await fresh.list(), []);
  });

  it('reconciles the index with the folder: files from another window appear, removed ones vanish', async () => {
    const first = new ConversationStore(dir, silentLogger);
    const a = conversation('A', 1);
    const b = conversation('B', 2);
    await first.save(a);
    await first.save(b);
    const other = conversation('From another window', 3);
    fs.writeFileSync(path.join(dir, `${other.id}.json`), JSON.stringify(other));
    fs.rmSync(path.join(dir, `${a.id}.json`));
    const second = new ConversationStore(dir, silentLogger);
    assert.deepEqual(
      (await second.list()).map((s) => s.title),
      ['From another window', 'B'],
    );
  });

  it('survives a damaged index and a damaged conversation file', async () => {
    const store = new ConversationStore(dir, silentLogger);
    const a = conversation('A', 1);
    await store.save(a);
    fs.writeFileSync(path.join(dir, 'index.json'), '{not json');
    fs.writeFileSync(path.join(dir, 'broken.json'), '{"id": "broken", "messages": [');
    const fresh = new ConversationStore(dir, silentLogger);
    assert.deepEqual(
      (await fresh.list()).map((s) => s.title),
      ['A'],
    );
    assert.equal(await fresh.load('broken'), undefined);
  });

  it('writes synchronously for the moment the extension goes away, marked interrupted when read again', async () => {
    const store = new ConversationStore(dir, silentLogger);
    const c = conversation('Streaming', 5, 1);
    c.messages.push({ id: 'r', role: 'assistant', content: 'half a rep', createdAt: 5, status: 'streaming' });
    store.saveSync(c);
    const loaded = await new ConversationStore(dir, silentLogger).load(c.id);
    assert.equal(loaded?.messages[1].status, 'interrupted');
    assert.equal(loaded?.messages[1].content, 'half a rep');
  });

  it('serialises concurrent saves: the last one wins', async () => {
    const store = new ConversationStore(dir, silentLogger);
    const c = conversation('C', 1);
    const saves: Promise<unknown>[] = [];
    for (let i = 0; i < 20; i++) {
      c.messages[1] = { ...c.messages[1], content: `version ${i}` };
      saves.push(store.save(structuredClone(c)));
    }
    await Promise.all(saves);
    assert.equal((await store.load(c.id))?.messages[1].content, 'version 19');
  });

  it('accepts only safe ids (no path traversal from a webview message)', async () => {
    assert.equal(isConversationId('0b6c7a52-4f0e-4d59-9d0e-2f4c1a3b5e6f'), true);
    assert.equal(isConversationId('../../etc/passwd'), false);
    assert.equal(isConversationId(''), false);
    assert.equal(isConversationId(42), false);
    const store = new ConversationStore(dir, silentLogger);
    assert.equal(await store.load('../x'), undefined);
    await assert.rejects(store.save({ ...conversation('x', 1), id: '../x' }));
  });
});
