import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseConversation } from '../../../../../src/core/chat/conversation/conversationParse';
import {
  CONVERSATION_VERSION,
  migrateConversation,
  versionOf,
} from '../../../../../src/core/chat/store/conversationSchema';
import { ConversationStore } from '../../../../../src/core/chat/store/conversationStore';
import { silentLogger } from '../../../../../src/core/logger';

const ID = 'c0ffee00-1111-4222-8333-444455556666';

/** A file as version 1 wrote it: no `version` field (the first files had none), messages without ids. */
function versionOneFile(withVersionField: boolean): Record<string, unknown> {
  return {
    ...(withVersionField ? { version: 1 } : {}),
    id: ID,
    title: 'Old conversation',
    createdAt: 10,
    updatedAt: 20,
    messages: [
      { role: 'user', content: 'Hello', createdAt: 10 },
      { role: 'assistant', content: 'Hi there', createdAt: 11, status: 'done', model: 'alpha' },
      { id: 'kept-id', role: 'user', content: 'Again', createdAt: 12 },
    ],
  };
}

describe('chat core: conversation file versions', () => {
  it('is at version 2 or later, and reads a file without a version as version 1', () => {
    assert.ok(CONVERSATION_VERSION >= 2);
    assert.equal(versionOf({}), 1);
    assert.equal(versionOf({ version: 'x' }), 1);
    assert.equal(versionOf({ version: 2 }), 2);
  });

  for (const withVersionField of [false, true]) {
    it(`migrates a version 1 file ${withVersionField ? 'that says so' : 'without a version field'} to the current version`, () => {
      const migrated = migrateConversation(versionOneFile(withVersionField));
      assert.equal(migrated.version, CONVERSATION_VERSION);
      const parsed = parseConversation(versionOneFile(withVersionField));
      assert.equal(parsed?.version, CONVERSATION_VERSION);
      assert.deepEqual(
        parsed?.messages.map((m) => [m.id, m.content]),
        [
          [`${ID}-1`, 'Hello'],
          [`${ID}-2`, 'Hi there'],
          ['kept-id', 'Again'],
        ],
        'every message has an id, the same wherever the file is read, and an existing id is kept',
      );
      assert.deepEqual(parseConversation(versionOneFile(withVersionField)), parsed, 'reading twice gives the same ids');
    });
  }

  it('reads a version 1 file from disk and writes it back at the current version', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chat-schema-'));
    try {
      fs.writeFileSync(path.join(dir, `${ID}.json`), JSON.stringify(versionOneFile(false)));
      const store = new ConversationStore(dir, silentLogger);
      const loaded = await store.load(ID);
      assert.equal(loaded?.title, 'Old conversation');
      assert.deepEqual(
        (await store.list()).map((s) => s.messageCount),
        [3],
      );
      loaded!.messages.push({ id: 'new', role: 'assistant', content: 'New reply', createdAt: 13, status: 'done' });
      await store.save(loaded!);
      const raw = JSON.parse(fs.readFileSync(path.join(dir, `${ID}.json`), 'utf8')) as Record<string, unknown>;
      assert.equal(raw.version, CONVERSATION_VERSION);
      assert.equal((raw.messages as unknown[]).length, 4);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('leaves a file from a newer version as it is and reads what it understands', () => {
    const newer: Record<string, unknown> = { ...versionOneFile(false), version: CONVERSATION_VERSION + 1 };
    newer.messages = [{ id: 'a', role: 'user', content: 'From the future', createdAt: 1, extra: { x: 1 } }];
    assert.equal(migrateConversation(newer).version, CONVERSATION_VERSION + 1);
    assert.equal(parseConversation(newer)?.messages[0]?.content, 'From the future');
  });
});
