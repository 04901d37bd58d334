import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fitToContext } from '../../src/core/chat/request/contextBudget';
import { newConversation, newId, titleFor, type Conversation } from '../../src/core/chat/conversation/conversation';
import { ConversationStore } from '../../src/core/chat/store/conversationStore';
import { summaryOf, type ConversationSummary } from '../../src/core/chat/store/conversationSummary';
import { requestMessages } from '../../src/core/chat/request/promptMessages';
import { ThrottledTask } from '../../src/core/chat/runs/throttledTask';
import { silentLogger } from '../../src/core/logger';
import { ChatSession } from '../../src/features/chat/chatSession';
import { AlphaClient } from '../../src/core/service/alphaClient';
import { HttpClient } from '../../src/core/net/http';
import { startFakeService } from '../fakeService/fakeService';
import { longReply } from '../fakeService/chatContent';
import { memoryMemento } from '../support/memoryMemento';
import { median, withDelayMonitor, type BenchFigure } from './benchFigure';

const LIST_TARGET_MS = 200;
const FIRST_SEARCH_TARGET_MS = 500;
const SEARCH_TARGET_MS = 50;
const OPEN_TARGET_MS = 200;
const SAVE_DELAY_TARGET_MS = 20;
const QUERIES = ['greeting', 'conversation 17', 'zebra', 'Café', 'function hello', 'question 250', 'x'];
const MODEL = 'alpha';
/** The reply streamed into the conversation being saved: the fake's long reply (code blocks included), written in
 * about 200 network chunks, one every `STREAM_PACE_MS` (about 2 s in all, as a real stream's pace). */
const STREAM_CHARS = 12_000;
const STREAM_PACE_MS = 10;

/** A prompt and its reply: prose, and in one turn of three a reply with code blocks (the fake's Markdown). */
function turn(index: number, n: number, long: number): [string, string] {
  const prompt = `Question ${n + 1} in conversation ${index + 1}: how would I write a greeting function?`;
  const size = n % 3 === 0 ? long + ((index * 131 + n * 17) % 400) : 90 + ((index + n) % 80);
  return [prompt, longReply(size)];
}

/**
 * A conversation of `messages` messages, `index`th of its history, last changed at `start`; a reply with code is
 * `long` characters and up.
 */
function conversationOf(index: number, messages: number, start: number, long = 200): Conversation {
  const c = newConversation(start);
  for (let n = 0; n < messages / 2; n++) {
    const [prompt, reply] = turn(index, n, long);
    c.messages.push({ id: newId(), role: 'user', content: prompt, createdAt: start + n * 2 });
    c.messages.push({ id: newId(), role: 'assistant', content: reply, createdAt: start + n * 2 + 1, status: 'done' });
    c.title ||= titleFor(prompt);
  }
  c.updatedAt = start + messages;
  return c;
}

/** What the host builds when it shows a conversation: every message as the page gets it, the list, the budget. */
function stateOf(conversation: Conversation, list: readonly ConversationSummary[]): number {
  fitToContext(requestMessages(conversation.messages), MODEL);
  const messages = conversation.messages.map((m) => ({
    id: m.id,
    role: m.role,
    content: m.content,
    createdAt: m.createdAt,
    status: m.status,
  }));
  return JSON.stringify({ conversationId: conversation.id, title: conversation.title, messages, conversations: list })
    .length;
}

const ms = (v: number) => `${v.toFixed(1)} ms`;
const times = (v: number, base: number) => `${(v / Math.max(base, 0.001)).toFixed(1)}×`;

interface HistoryFigures {
  mb: number;
  listMs: number;
  rawListMs: number;
  firstSearchMs: number;
  firstMatches: number;
  laterMs: number[];
}

/** `count` conversations of `messages` messages saved once each, then listed and searched after a reload. */
async function history(count: number, messages: number): Promise<HistoryFigures> {
  const dir = await mkdtemp(join(tmpdir(), 'alpha-axo-big-history-'));
  try {
    const writer = new ConversationStore(dir, silentLogger);
    const start = Date.now() - count * messages * 60_000;
    let bytes = 0;
    for (let i = 0; i < count; i++) {
      const c = conversationOf(i, messages, start + i * messages * 60_000);
      await writer.save(c);
      bytes += (await stat(join(dir, `${c.id}.json`))).size;
    }
    await writer.idle();
    writer.dispose();

    // A reload: a new store on the folder lists it, then the first query and the later ones, as typed.
    const store = new ConversationStore(dir, silentLogger);
    let t = performance.now();
    const list = await store.list();
    const listMs = performance.now() - t;
    if (list.length !== count) {
      throw new Error(`listed ${list.length} of ${count}`);
    }
    t = performance.now();
    JSON.parse(await readFile(join(dir, 'index.json'), 'utf8'));
    const rawListMs = performance.now() - t;
    const session = new ChatSession(store, memoryMemento(), silentLogger);
    t = performance.now();
    const firstMatches = (await session.search('greeting')).length;
    const firstSearchMs = performance.now() - t;
    const laterMs: number[] = [];
    for (let round = 0; round < 2; round++) {
      for (const query of QUERIES) {
        t = performance.now();
        await session.search(query);
        laterMs.push(performance.now() - t);
      }
    }
    session.dispose();
    await store.idle();
    store.dispose();
    return { mb: bytes / 1024 / 1024, listMs, rawListMs, firstSearchMs, firstMatches, laterMs };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

interface OpenFigures {
  mb: number;
  openMs: number;
  rawMs: number;
  saveDelayMax: number;
  saveDelayP99: number;
  /** The event-loop delay's max while the same reply streamed without saves. */
  aloneMax: number;
  saves: number;
}

/** Streams the fake's long reply through the ALPHA client, handing each delta to `onDelta`. */
async function streamReply(alpha: AlphaClient, onDelta: (text: string) => void): Promise<void> {
  const request = { model: 'alpha', messages: [{ role: 'user' as const, content: `More #long:${STREAM_CHARS}` }] };
  for await (const delta of alpha.stream(request, new AbortController().signal)) {
    onDelta(delta);
  }
}

/**
 * One conversation of `messages` messages: opened by a new store (read, parse, the page's state), and saved through
 * a throttled save while a reply streams into it from the fake service (a save at most every 100 ms).
 */
async function oneConversation(messages: number, alpha: AlphaClient): Promise<OpenFigures> {
  const dir = await mkdtemp(join(tmpdir(), 'alpha-axo-big-conversation-'));
  try {
    const writer = new ConversationStore(dir, silentLogger);
    const c = conversationOf(7, messages, Date.now() - messages * 60_000, 4000);
    await writer.save(c);
    await writer.idle();
    writer.dispose();
    const file = join(dir, `${c.id}.json`);
    const mb = (await stat(file)).size / 1024 / 1024;

    const store = new ConversationStore(dir, silentLogger);
    let t = performance.now();
    const opened = await store.load(c.id);
    if (!opened) {
      throw new Error('the conversation did not open');
    }
    stateOf(opened, [summaryOf(opened)]);
    const openMs = performance.now() - t;
    t = performance.now();
    JSON.parse(await readFile(file, 'utf8'));
    const rawMs = performance.now() - t;

    // The same reply streamed from the fake service over 127.0.0.1, once alone (the baseline), once with the saves.
    const alone = await withDelayMonitor(() => streamReply(alpha, () => undefined));
    const reply = {
      id: newId(),
      role: 'assistant' as const,
      content: '',
      createdAt: Date.now(),
      status: 'streaming' as const,
    };
    opened.messages.push({ id: newId(), role: 'user', content: 'One more, with code.', createdAt: Date.now() }, reply);
    let saves = 0;
    const saver = new ThrottledTask(
      async () => {
        saves++;
        await store.save(opened);
      },
      100,
      (error) => {
        throw error;
      },
    );
    const streamed = await withDelayMonitor(async () => {
      await streamReply(alpha, (delta) => {
        reply.content += delta;
        opened.updatedAt = Date.now();
        saver.schedule();
      });
      await saver.flush();
      await store.idle();
    });
    saver.dispose();
    store.dispose();
    return {
      mb,
      openMs,
      rawMs,
      saveDelayMax: streamed.max,
      saveDelayP99: streamed.p99,
      aloneMax: alone.max,
      saves,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function historyRows(h: HistoryFigures, count: number): BenchFigure[] {
  const later = median(h.laterMs);
  const worst = Math.max(...h.laterMs);
  return [
    {
      name: `${count} × 500 (${h.mb.toFixed(1)} MB): list after a reload (raw read + parse of the index ${ms(h.rawListMs)})`,
      value: `${ms(h.listMs)} (${times(h.listMs, h.rawListMs)} raw)`,
      target: `≤ ${LIST_TARGET_MS} ms`,
      pass: h.listMs <= LIST_TARGET_MS,
    },
    {
      name: `${count} × 500: first full-text search after a reload (${h.firstMatches} found)`,
      value: ms(h.firstSearchMs),
      target: `≤ ${FIRST_SEARCH_TARGET_MS} ms`,
      pass: h.firstSearchMs <= FIRST_SEARCH_TARGET_MS && h.firstMatches === count,
    },
    {
      name: `${count} × 500: later searches (${h.laterMs.length}, as typed)`,
      value: `median ${ms(later)}, worst ${ms(worst)}`,
      target: `≤ ${SEARCH_TARGET_MS} ms`,
      pass: worst <= SEARCH_TARGET_MS,
    },
  ];
}

function openRows(o: OpenFigures, messages: number): BenchFigure[] {
  return [
    {
      name: `one conversation of ${messages} messages (${o.mb.toFixed(1)} MB): read + parse + page state (raw read + parse ${ms(o.rawMs)})`,
      value: `${ms(o.openMs)} (${times(o.openMs, o.rawMs)} raw)`,
      target: `≤ ${OPEN_TARGET_MS} ms`,
      pass: o.openMs <= OPEN_TARGET_MS,
    },
    {
      name: `one conversation of ${messages} messages: ${o.saves} throttled saves while a reply streams, event-loop delay (the stream alone: max ${ms(o.aloneMax)})`,
      value: `max ${ms(o.saveDelayMax)}, p99 ${ms(o.saveDelayP99)}`,
      target: `max ≤ ${SAVE_DELAY_TARGET_MS} ms`,
      pass: o.saveDelayMax <= SAVE_DELAY_TARGET_MS,
    },
  ];
}

/**
 * Histories ten times larger, through the real store and session in temp folders: 50 and 500 conversations of 500
 * messages (prose, one reply in three with code blocks: about 100 KB a conversation on disk) listed and searched after a reload, and one conversation of
 * 500 and of 5,000 messages (about 1 KB a message) opened and saved while a reply streams; then how each figure grows with the tenfold size.
 */
export async function run(): Promise<BenchFigure[]> {
  // The single conversation first: its event-loop figures are not to pay for collecting the large history's garbage.
  const fake = await startFakeService({ tokenDelayMs: STREAM_PACE_MS });
  const http = new HttpClient(() => ({ timeoutMs: 30_000, proxy: { strictSSL: true, noProxy: [] } }), silentLogger);
  const keys = { chat: fake.chatKey, encyclopedia: fake.axoKey };
  const alpha = new AlphaClient(
    { http, baseUrl: () => fake.url, keys: async (k: 'chat' | 'encyclopedia') => keys[k], log: silentLogger },
    () => 30_000,
  );
  let short: OpenFigures;
  let long: OpenFigures;
  try {
    await streamReply(alpha, () => undefined); // the client's connection and code warmed, as in a running window
    short = await oneConversation(500, alpha);
    long = await oneConversation(5000, alpha);
  } finally {
    await fake.close();
  }
  const small = await history(50, 500);
  const large = await history(500, 500);
  const growth = (name: string, a: number, b: number): BenchFigure => ({
    name: `growth ×10: ${name}`,
    value: `${ms(a)} → ${ms(b)} (${times(b, a)})`,
  });
  return [
    ...historyRows(small, 50),
    ...historyRows(large, 500),
    ...openRows(short, 500),
    ...openRows(long, 5000),
    growth('list, 50 → 500 conversations', small.listMs, large.listMs),
    growth('first search, 50 → 500 conversations', small.firstSearchMs, large.firstSearchMs),
    growth('later search median, 50 → 500 conversations', median(small.laterMs), median(large.laterMs)),
    growth('open, 500 → 5,000 messages', short.openMs, long.openMs),
    growth('save delay max while streaming, 500 → 5,000 messages', short.saveDelayMax, long.saveDelayMax),
  ];
}
