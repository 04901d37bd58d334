import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { ChatState } from '../../../../src/core/chat/runs/chatState';
import type { ChatStateListener } from '../../../../src/core/chat/runs/chatStateTypes';
import { newConversation, newId, type Conversation } from '../../../../src/core/chat/conversation/conversation';
import type { ReplySource } from '../../../../src/core/chat/runs/replyRunner';
import { ConversationStore } from '../../../../src/core/chat/store/conversationStore';
import { silentLogger } from '../../../../src/core/logger';
import { ChatSession } from '../../../../src/features/chat/chatSession';
import { memoryMemento } from '../../../support/memoryMemento';

/** V8's collector, as `--expose-gc` gives it, without starting Node with that flag. */
function collector(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/** A conversation of `messages` messages (half prompts, half replies), each about 1 KB. */
function longConversation(title: string, messages: number): Conversation {
  const c = newConversation(1);
  c.title = title;
  for (let i = 0; i < messages; i += 2) {
    c.messages.push({ id: newId(), role: 'user', content: `${title} prompt ${i} ${'q'.repeat(500)}`, createdAt: i });
    c.messages.push({
      id: newId(),
      role: 'assistant',
      content: `${title} reply ${i}\n\`\`\`ts\n${'const x = 1;\n'.repeat(40)}\`\`\``,
      createdAt: i + 1,
      status: 'done',
    });
  }
  return c;
}

/** A reply source streaming a long reply in pieces, as a service does. */
const source: ReplySource = {
  async *stream() {
    for (let i = 0; i < 200; i++) {
      yield `piece ${i} ${'r'.repeat(1000)}\n`;
    }
  },
  complete: async () => 'a whole reply',
};

const quietListener: ChatStateListener = {
  replyStarted: async () => undefined,
  replyDelta: () => undefined,
  replyNotice: () => undefined,
  replyEnded: () => undefined,
  conversationChanged: async () => undefined,
  listChanged: async () => undefined,
  streamingChanged: () => undefined,
};

/**
 * Long chats are where memory complaints come from: a conversation the user left (switched away from) must not stay
 * reachable from the chat's state, its session or the store, whatever it held (500 messages, a streamed reply).
 * The check: a WeakRef to each conversation object shown, and the collector run until it is gone.
 */
describe('memory: a conversation left is not kept', function () {
  this.timeout(60_000);
  let dir: string;
  let store: ConversationStore;
  let session: ChatSession;
  let state: ChatState;

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'alpha-memory-'));
    store = new ConversationStore(dir, silentLogger);
    session = new ChatSession(store, memoryMemento(), silentLogger);
    state = new ChatState({
      holder: session,
      source,
      settings: () => ({ model: 'alpha-1', stream: true, groundByDefault: false }),
      listener: quietListener,
      log: silentLogger,
    });
    await state.whenLoaded();
  });

  afterEach(async () => {
    state.dispose();
    await store.idle();
    session.dispose();
    store.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Runs the collector until every ref is cleared (or gives up after some rounds); the refs still alive. */
  async function survivors(refs: Map<string, WeakRef<Conversation>>): Promise<string[]> {
    const gc = collector();
    for (let round = 0; round < 10; round++) {
      // Let pending promise jobs and timers (throttled saves) run and drop what they hold.
      await new Promise((resolve) => setTimeout(resolve, 20));
      gc();
      if ([...refs.values()].every((ref) => ref.deref() === undefined)) {
        return [];
      }
    }
    return [...refs].filter(([, ref]) => ref.deref() !== undefined).map(([title]) => title);
  }

  it('lets go of 20 conversations of 500 messages once switched away from, and of one that streamed a reply', async () => {
    const ids: string[] = [];
    for (let n = 0; n < 20; n++) {
      const conversation = longConversation(`c${n}`, 500);
      await store.save(conversation);
      ids.push(conversation.id);
    }
    const refs = new Map<string, WeakRef<Conversation>>();
    await state.switchTo(ids[0]);
    await state.send('write at length');
    refs.set('c0 (after a streamed reply)', new WeakRef(session.conversation));
    assert.equal(session.conversation.messages.length, 502);
    for (let n = 1; n < ids.length; n++) {
      assert.equal(await state.switchTo(ids[n]), true);
      assert.equal(session.conversation.messages.length, 500);
      refs.set(`c${n}`, new WeakRef(session.conversation));
    }
    const shown = refs.get('c19');
    refs.delete('c19');
    await state.newConversation();
    refs.set('c19', shown as WeakRef<Conversation>);
    assert.deepEqual(await survivors(refs), [], 'conversations still reachable after being left');
  });

  it('notices a conversation that is still held (the check can fail)', async () => {
    const conversation = longConversation('held', 500);
    await store.save(conversation);
    await state.switchTo(conversation.id);
    const held = session.conversation;
    await state.newConversation();
    assert.deepEqual(await survivors(new Map([['held', new WeakRef(held)]])), ['held']);
    assert.equal(held.messages.length, 500);
  });
});
