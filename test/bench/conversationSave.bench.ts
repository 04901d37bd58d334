import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  newConversation,
  newId,
  type Conversation,
  type StoredMessage,
} from '../../src/core/chat/conversation/conversation';
import { ConversationEncoder } from '../../src/core/chat/store/conversationEncoder';
import { ConversationStore } from '../../src/core/chat/store/conversationStore';
import { silentLogger } from '../../src/core/logger';
import { longReply } from '../fakeService/chatContent';
import { median, type BenchFigure } from './benchFigure';

const TARGET_BYTES = 32 * 1024 * 1024;
/** Streaming saves measured: one per STREAM_SAVE_INTERVAL_MS while a reply arrives. */
const SAVES = 20;
/** Text that arrives between two saves (500 ms of a fast stream). */
const DELTA = 'Streaming text arrives here, a few hundred characters per save interval, é and 🚀 included. '.repeat(4);
/** The main thread's share of a streaming save: building the file's chunks (the write runs in libuv's pool). */
const ENCODE_TARGET_RATIO = 0.1;

/** A conversation of about 32 MB on disk: turns of Markdown replies with code, as the fake writes them. */
function bigConversation(): Conversation {
  const c = newConversation(1);
  c.title = 'A 32 MB conversation';
  let bytes = 0;
  for (let turn = 0; bytes < TARGET_BYTES; turn++) {
    const prompt = `Question ${turn}: show me a longer example with code, please.`;
    const reply = longReply(6_000 + (turn % 7) * 1_000);
    c.messages.push({ id: newId(), role: 'user', content: prompt, createdAt: turn * 2 });
    c.messages.push({ id: newId(), role: 'assistant', content: reply, createdAt: turn * 2 + 1, status: 'done' });
    bytes += Buffer.byteLength(prompt) + Buffer.byteLength(reply) + 200;
  }
  return c;
}

function timed(work: () => unknown): number {
  const start = performance.now();
  work();
  return performance.now() - start;
}

/**
 * What a save costs while a reply streams into a 32 MB conversation, against a raw `JSON.stringify` of it (what
 * every save cost on the main thread before unchanged messages kept their encoding): the encoding (the main
 * thread's part), and the store's whole save (the other-window check, the lock, encoding, writing the file with
 * `writev` in libuv's pool, the index); medians of SAVES saves, each after more text arrived, against the median of
 * SAVES stringifications of the same conversation, interleaved with them in the same process.
 */
export async function run(): Promise<BenchFigure[]> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-save-'));
  try {
    const conversation = bigConversation();
    const reply: StoredMessage = { id: newId(), role: 'assistant', content: '', createdAt: 1e9, status: 'streaming' };
    conversation.messages.push({ id: newId(), role: 'user', content: 'One more, please.', createdAt: 1e9 - 1 }, reply);
    const store = new ConversationStore(dir, silentLogger);
    await store.save(conversation); // The first save encodes everything once, as when the reply starts.
    const size = (await stat(join(dir, `${conversation.id}.json`))).size;

    const saves: number[] = [];
    const stringify: number[] = [];
    const encodes: number[] = [];
    const encoder = new ConversationEncoder();
    encoder.encode(conversation, 'warm-up');
    for (let i = 0; i < SAVES; i++) {
      reply.content += DELTA;
      stringify.push(timed(() => JSON.stringify(conversation)));
      encodes.push(timed(() => encoder.encode(conversation, `r${i}`)));
      const start = performance.now();
      await store.save(conversation);
      saves.push(performance.now() - start);
    }
    const [save, raw, encode] = [median(saves), median(stringify), median(encodes)];
    const mainThread = encode / raw;
    return [
      {
        name: 'conversation file while streaming',
        value: `${(size / 1024 / 1024).toFixed(1)} MB, ${conversation.messages.length} messages`,
      },
      {
        name: 'streaming save, main-thread encoding / raw JSON.stringify',
        value: `${mainThread.toFixed(3)} (${encode.toFixed(1)} ms vs ${raw.toFixed(1)} ms)`,
        target: `≤ ${ENCODE_TARGET_RATIO}`,
        pass: mainThread <= ENCODE_TARGET_RATIO,
      },
      {
        name: 'streaming save, whole store save (writing off the main thread) / raw JSON.stringify',
        value: `${(save / raw).toFixed(2)} (${save.toFixed(1)} ms vs ${raw.toFixed(1)} ms)`,
      },
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
