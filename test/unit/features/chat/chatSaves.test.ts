import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  newConversation,
  newId,
  type Conversation,
  type StoredMessage,
} from '../../../../src/core/chat/conversation/conversation';
import { ConversationEncoder } from '../../../../src/core/chat/store/conversationEncoder';
import { ConversationStore } from '../../../../src/core/chat/store/conversationStore';
import { nodeFolderWatcher } from '../../../../src/core/storage/folderWatcher';
import { silentLogger, type Logger } from '../../../../src/core/logger';
import type { ExternalChange } from '../../../../src/core/chat/runs/chatStateTypes';
import { ChatSession } from '../../../../src/features/chat/chatSession';
import { ChatState } from '../../../../src/core/chat/runs/chatState';
import { memoryMemento } from '../../../support/memoryMemento';
import { deferred, Recorder, ScriptedSource } from '../../../support/chatStateHarness';

function withTurns(count: number): Conversation {
  const c = newConversation(1);
  c.title = 'Saves';
  for (let i = 0; i < count; i++) {
    c.messages.push({ id: newId(), role: 'user', content: `prompt ${i} é🚀`, createdAt: i * 2 });
    c.messages.push({ id: newId(), role: 'assistant', content: `reply ${i}`, createdAt: i * 2 + 1, status: 'done' });
  }
  return c;
}

/** Saves `conversations` through `store` and waits for the writes. */
async function saved(store: ConversationStore, ...conversations: Conversation[]): Promise<void> {
  for (const c of conversations) {
    await store.save(c);
  }
  await store.idle();
}

function readFile(dir: string, id: string): { messages: StoredMessage[] } {
  return JSON.parse(fs.readFileSync(path.join(dir, `${id}.json`), 'utf8')) as { messages: StoredMessage[] };
}

function tempFiles(dir: string): string[] {
  return fs.readdirSync(dir).filter((f) => f.endsWith('.tmp'));
}

async function until(check: () => boolean, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) {
      throw new Error(what);
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('chat: saves that fail, and the last save', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chat-saves-'));
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('the blocking save on exit is not overwritten by an older asynchronous save still under way', async () => {
    const store = new ConversationStore(dir, silentLogger);
    const c = withTurns(1);
    const reply: StoredMessage = {
      id: newId(),
      role: 'assistant',
      content: 'partial',
      createdAt: 9,
      status: 'streaming',
    };
    c.messages.push({ id: newId(), role: 'user', content: 'last prompt', createdAt: 8 }, reply);
    const older = store.save(structuredClone(c));
    reply.content = 'partial, and everything that arrived until the window closed';
    reply.status = 'interrupted';
    store.saveSync(c);
    await older;
    await store.idle();
    assert.equal(readFile(dir, c.id).messages.at(-1)?.content, reply.content);
    assert.deepEqual(tempFiles(dir), [], 'the superseded write left no temp file');
  });

  it('a reply stopped just before the window goes is written as stopped, its queue waiting, though its save had not landed', async () => {
    // A disk that holds every asynchronous save until told: the window goes while the stop's save waits.
    let disk = deferred();
    class SlowStore extends ConversationStore {
      override async save(conversation: Conversation): Promise<Conversation | undefined> {
        await disk.promise;
        return super.save(conversation);
      }
    }
    const store = new SlowStore(dir, silentLogger);
    const session = new ChatSession(store, memoryMemento(), silentLogger);
    const source = new ScriptedSource(['Part one', ' and part two']);
    const recorder = new Recorder();
    const state = new ChatState({
      holder: session,
      source,
      settings: () => ({ model: 'alpha-1', stream: true, groundByDefault: false, queuePrompts: true }),
      listener: recorder,
      log: silentLogger,
    });
    try {
      await state.whenLoaded();
      disk.resolve();
      source.held = true;
      const replying = state.send('tell me at length');
      await recorder.when(/^delta/);
      await state.send('then this');
      await until(
        () => fs.existsSync(path.join(dir, `${session.conversation.id}.json`)),
        2_000,
        'no save while streaming',
      );
      disk = deferred();
      void state.stop();
      await until(() => session.conversation.messages.at(-1)?.status === 'stopped', 2_000, 'the reply did not stop');
      assert.equal(session.unwritten, true, 'the stop is not on disk yet');
      state.dispose();
      const file = JSON.parse(
        fs.readFileSync(path.join(dir, `${session.conversation.id}.json`), 'utf8'),
      ) as Conversation;
      assert.equal(file.messages.at(-1)?.status, 'stopped');
      assert.deepEqual(
        file.queue?.map((part) => ({ running: part.running, prompts: part.prompts.map((p) => p.text) })),
        [{ running: false, prompts: ['then this'] }],
      );
      disk.resolve();
      await replying;
    } finally {
      disk.resolve();
      await store.idle();
      session.dispose();
    }
  });

  it('a failed blocking save removes its temp file', () => {
    const store = new ConversationStore(dir, silentLogger);
    const c = withTurns(1);
    // The conversation's file name is taken by a folder with something in it: the rename fails.
    fs.mkdirSync(path.join(dir, `${c.id}.json`, 'in-the-way'), { recursive: true });
    assert.throws(() => store.saveSync(c));
    assert.deepEqual(tempFiles(dir), []);
    assert.deepEqual(
      fs.readdirSync(dir).filter((f) => f !== '.lock'),
      [`${c.id}.json`],
    );
    assert.equal(fs.existsSync(path.join(dir, '.lock')), false, 'the folder lock is released');
  });

  it('a failed save tells the user once, with a readable sentence, and keeps retrying until it works', async () => {
    const folder = path.join(dir, 'conversations');
    fs.writeFileSync(folder, 'a file where the folder should be');
    const told: string[] = [];
    const errors: string[] = [];
    const log: Logger = { ...silentLogger, error: (m) => errors.push(m) };
    const session = new ChatSession(new ConversationStore(folder, log), memoryMemento(), log, {
      onSaveFailure: (message) => told.push(message),
      retryMs: 20,
    });
    try {
      session.conversation = withTurns(1);
      await session.saveNow();
      session.conversation.messages.push({ id: newId(), role: 'user', content: 'typed meanwhile', createdAt: 5 });
      await session.saveNow();
      await until(() => errors.length >= 3, 2_000, 'the save was not tried again');
      assert.equal(told.length, 1, 'told once, however often it fails');
      assert.match(told[0], /^The conversation could not be saved: .+\. It stays open in this window/);
      assert.doesNotMatch(told[0], /ENOTDIR|EEXIST|Error/, 'no raw error code');
      assert.equal(session.saveFailing, true, 'the exit save knows to write');
      // Switching away while saves fail keeps the conversation in memory, listed, and retried.
      const left = session.conversation;
      await session.startNew();
      session.conversation.messages.push({ id: newId(), role: 'user', content: 'in the next one', createdAt: 6 });
      await session.saveNow();
      assert.ok(
        (await session.list()).some((s) => s.id === left.id),
        'the conversation left is still listed',
      );
      fs.rmSync(folder);
      await until(() => fs.existsSync(path.join(folder, `${session.conversation.id}.json`)), 3_000, 'never saved');
      assert.equal(readFile(folder, session.conversation.id).messages.at(-1)?.content, 'in the next one');
      await until(() => fs.existsSync(path.join(folder, `${left.id}.json`)), 3_000, 'the one left was never saved');
      assert.equal(readFile(folder, left.id).messages.at(-1)?.content, 'typed meanwhile');
      await until(() => !session.saveFailing, 1_000, 'still marked failing after a save worked');
    } finally {
      session.dispose();
    }
  });

  it('switching away writes a conversation only when it changed since its last save', async () => {
    const store = new ConversationStore(dir, silentLogger);
    const looked = withTurns(2);
    const other = withTurns(1);
    await saved(store, looked, other);
    const session = new ChatSession(store, memoryMemento(), silentLogger);
    try {
      const file = path.join(dir, `${looked.id}.json`);
      const written = () => fs.statSync(file).mtimeMs;
      fs.utimesSync(file, 1, 1);
      assert.equal(await session.switchTo(looked.id), true);
      assert.equal(await session.switchTo(other.id), true);
      await store.idle();
      assert.equal(written(), 1000, 'only looked at: not written again');
      assert.equal((await store.load(looked.id))?.updatedAt, looked.updatedAt, 'nor moved up the list');
      // Changed (as a prompt or a reply changes it: a save asked for), then left: written.
      assert.equal(await session.switchTo(looked.id), true);
      session.conversation.messages.push({ id: newId(), role: 'user', content: 'one more', createdAt: 9 });
      session.scheduleSave();
      assert.equal(await session.switchTo(other.id), true);
      await store.idle();
      assert.equal(readFile(dir, looked.id).messages.at(-1)?.content, 'one more');
    } finally {
      session.dispose();
    }
  });

  it('notes the conversation shown without waiting for the storage, and a note that fails is logged, not thrown', async () => {
    const store = new ConversationStore(dir, silentLogger);
    const first = withTurns(1);
    const second = withTurns(1);
    await saved(store, first, second);
    const warnings: string[] = [];
    const log: Logger = { ...silentLogger, warn: (m) => warnings.push(m) };
    let answer: (() => void) | undefined;
    const memento = memoryMemento();
    const keep = memento.update.bind(memento);
    memento.update = (key: string, value: unknown) => {
      void keep(key, value);
      // The storage answers only when told: a switch waiting for it would not return.
      return new Promise<void>((resolve) => (answer = resolve));
    };
    const session = new ChatSession(store, memento, log);
    try {
      assert.equal(await session.switchTo(first.id), true, 'the switch returns before the storage answers');
      assert.deepEqual(
        memento.keys().map((key) => memento.get(key)),
        [first.id],
        'the value is held from the call on',
      );
      answer?.();
      memento.update = () => Promise.reject(new Error('storage is gone'));
      assert.equal(await session.switchTo(second.id), true);
      await until(() => warnings.length > 0, 1_000, 'the failed note was not logged');
      assert.match(warnings[0], /could not note the conversation shown: .*storage is gone/);
    } finally {
      session.dispose();
    }
  });

  it('encodes an unchanged message once while a reply streams, and every change shows in the file', () => {
    const encoder = new ConversationEncoder();
    const c = withTurns(3);
    const reply: StoredMessage = { id: 'r', role: 'assistant', content: '', createdAt: 99, status: 'streaming' };
    c.messages.push(reply);
    const stringify = JSON.stringify;
    let calls = 0;
    JSON.stringify = ((...args: Parameters<typeof stringify>) => {
      calls++;
      return stringify(...args);
    }) as typeof JSON.stringify;
    try {
      for (const piece of ['Hel', 'lo ', 'wörld']) {
        reply.content += piece;
        calls = 0;
        const parsed = JSON.parse(Buffer.concat(encoder.encode(c, 'rev')).toString('utf8')) as Conversation & {
          revision: string;
        };
        assert.equal(parsed.revision, 'rev');
        assert.deepEqual(parsed.messages, c.messages);
        if (piece !== 'Hel') {
          assert.equal(calls, 2, 'the header and the streaming reply only');
        }
      }
    } finally {
      JSON.stringify = stringify;
    }
    reply.status = 'done';
    c.messages[0] = { ...c.messages[0], content: 'edited' };
    const parsed = JSON.parse(Buffer.concat(encoder.encode(c, 'rev2')).toString('utf8')) as Conversation;
    assert.deepEqual(parsed.messages, c.messages);
  });

  it('the window showing a conversation takes in another window’s turn and says so', async () => {
    const storeA = new ConversationStore(dir, silentLogger);
    const storeB = new ConversationStore(dir, silentLogger, nodeFolderWatcher);
    const a = new ChatSession(storeA, memoryMemento(), silentLogger);
    const b = new ChatSession(storeB, memoryMemento(), silentLogger);
    try {
      a.conversation = withTurns(1);
      await a.saveNow();
      await b.switchTo(a.conversation.id);
      const changes: ExternalChange[] = [];
      b.onDidChangeExternally((change) => changes.push(change));
      a.conversation.messages.push({ id: newId(), role: 'user', content: 'from window A', createdAt: 50 });
      await a.saveNow();
      await until(() => changes.some((c) => c.conversation), 1_000, 'window B was not told within a second');
      assert.equal(b.conversation.messages.at(-1)?.content, 'from window A');
    } finally {
      a.dispose();
      b.dispose();
      storeB.dispose();
    }
  });
});
