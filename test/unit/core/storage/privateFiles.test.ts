import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CacheSnapshotFile } from '../../../../src/core/encyclopedia/cacheSnapshotFile';
import { newConversation } from '../../../../src/core/chat/conversation/conversation';
import { ConversationStore } from '../../../../src/core/chat/store/conversationStore';
import { silentLogger } from '../../../../src/core/logger';
import { writeChunks } from '../../../../src/core/storage/chunkedFile';
import { hasFileModes, tightenFolder } from '../../../../src/core/storage/privateFiles';

const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

(hasFileModes ? describe : describe.skip)('stored files are private (0600 files, 0700 folders)', () => {
  let root: string;
  let umask: number;
  beforeEach(() => {
    // The usual umask: without the explicit modes, files come out 0644 and folders 0755.
    umask = process.umask(0o022);
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'private-files-'));
  });
  afterEach(() => {
    process.umask(umask);
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('writes conversations, the index and their folder private, async and blocking', async () => {
    const dir = path.join(root, 'storage', 'conversations');
    const store = new ConversationStore(dir, silentLogger);
    const c = newConversation(1);
    c.messages.push({ id: 'm1', role: 'user', content: 'a prompt with a secret', createdAt: 1 });
    await store.save(c);
    const d = newConversation(2);
    d.messages.push({ id: 'm2', role: 'user', content: 'written on exit', createdAt: 2 });
    store.saveSync(d);
    assert.equal(modeOf(dir), 0o700);
    assert.equal(modeOf(path.join(root, 'storage')), 0o700);
    for (const name of fs.readdirSync(dir)) {
      assert.equal(modeOf(path.join(dir, name)), 0o600, name);
    }
    assert.deepEqual(fs.readdirSync(dir).sort(), [`${c.id}.json`, `${d.id}.json`, 'index.json'].sort());
  });

  it('writes the encyclopedia cache and the temporary files of atomic writes 0600', async () => {
    const file = path.join(root, 'global', 'encyclopediaCache.json');
    const cache = new CacheSnapshotFile(file, (v): v is string => typeof v === 'string');
    await cache.save([{ key: 'k', storedAt: 1, value: 'v' }]);
    assert.equal(modeOf(file), 0o600);
    assert.equal(modeOf(path.dirname(file)), 0o700);
    cache.saveSync([{ key: 'k', storedAt: 2, value: 'w' }]);
    assert.equal(modeOf(file), 0o600);
    const temp = path.join(root, 'chunks.tmp');
    await writeChunks(temp, [Buffer.from('a'), Buffer.from('b')]);
    assert.equal(modeOf(temp), 0o600);
  });

  it('tightens what an earlier version wrote wide open, folders one level down included, symbolic links left alone', async () => {
    const dir = path.join(root, 'global');
    const conversations = path.join(dir, 'conversations');
    fs.mkdirSync(conversations, { recursive: true, mode: 0o755 });
    fs.writeFileSync(path.join(dir, 'encyclopediaCache.json'), '{}', { mode: 0o644 });
    fs.writeFileSync(path.join(conversations, 'abc.json'), '{}', { mode: 0o644 });
    fs.writeFileSync(path.join(conversations, 'index.json.1.tmp'), '{}', { mode: 0o664 });
    const outside = path.join(root, 'outside.txt');
    fs.writeFileSync(outside, 'x', { mode: 0o644 });
    fs.symlinkSync(outside, path.join(dir, 'link'));
    assert.equal(await tightenFolder(dir, 1), 5);
    assert.equal(modeOf(dir), 0o700);
    assert.equal(modeOf(conversations), 0o700);
    assert.equal(modeOf(path.join(dir, 'encyclopediaCache.json')), 0o600);
    assert.equal(modeOf(path.join(conversations, 'abc.json')), 0o600);
    assert.equal(modeOf(path.join(conversations, 'index.json.1.tmp')), 0o600);
    assert.equal(modeOf(outside), 0o644, 'a link is not followed');
    assert.equal(await tightenFolder(dir, 1), 0, 'a second run changes nothing');
    assert.equal(await tightenFolder(path.join(root, 'missing')), 0);
  });
});
