import { readFile, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fitToContext } from '../../src/core/chat/request/contextBudget';
import { newConversation, newId, titleFor, type Conversation } from '../../src/core/chat/conversation/conversation';
import { ConversationStore } from '../../src/core/chat/store/conversationStore';
import { summaryOf } from '../../src/core/chat/store/conversationSummary';
import { searchConversations } from '../../src/core/chat/conversation/conversationSearch';
import { requestMessages } from '../../src/core/chat/request/promptMessages';
import { silentLogger } from '../../src/core/logger';
import { ChatSession } from '../../src/features/chat/chatSession';
import { chatReply, longReply } from '../fakeService/chatContent';
import { memoryMemento } from '../support/memoryMemento';
import { median, percentile, withDelayMonitor, type BenchFigure, type DelaySample } from './benchFigure';

const CONVERSATIONS = 50;
const MESSAGES = 500;
/** A conversation is saved after every this many turns while it is written (the chat saves after each reply). */
const SAVE_EVERY_TURNS = 10;
const P99_TARGET_MS = 100;
const OPEN_TARGET_MS = 200;
/** A query typed into the conversation list's search, once every conversation was read for the first. */
const SEARCH_TARGET_MS = 50;
const QUERIES = ['greeting', 'conversation 17', 'zebra', 'Café', 'function hello', 'question 250', 'x'];
const MODEL = 'alpha';

/** What the chat does for each prompt before it sends: the request messages, fitted to the model's context. */
function prepareRequest(conversation: Conversation): number {
  return fitToContext(requestMessages(conversation.messages), MODEL).messages.length;
}

/** What the host builds when it shows a conversation: every message as the page gets it, and the budget. */
function stateOf(conversation: Conversation, list: ReturnType<typeof summaryOf>[]): string {
  const messages = conversation.messages.map((m) => ({
    id: m.id,
    role: m.role,
    content: m.content,
    createdAt: m.createdAt,
    status: m.status,
  }));
  prepareRequest(conversation);
  // postMessage serialises the state; JSON is what crosses to a webview.
  return JSON.stringify({ conversationId: conversation.id, title: conversation.title, messages, conversations: list });
}

/** The `turn`th reply of conversation `index`: the fake's Markdown with code, short or long. */
function reply(index: number, turn: number, history: { role: string; content: string }[]): string {
  return (index + turn) % 3 === 0 ? longReply(1200 + ((index * 131 + turn * 17) % 2400)) : chatReply(history);
}

/** Writes one conversation of MESSAGES messages turn by turn, as the chat would, saving as it goes. */
async function writeConversation(store: ConversationStore, index: number, start: number): Promise<Conversation> {
  const conversation = newConversation(start);
  const history: { role: string; content: string }[] = [];
  for (let turn = 0; turn < MESSAGES / 2; turn++) {
    const prompt = `Question ${turn + 1} in conversation ${index + 1}: how would I write a greeting function?`;
    const at = start + turn * 2;
    conversation.messages.push({ id: newId(), role: 'user', content: prompt, createdAt: at });
    conversation.title ||= titleFor(prompt);
    history.push({ role: 'user', content: prompt });
    const content = reply(index, turn, history);
    history.push({ role: 'assistant', content });
    conversation.messages.push({
      id: newId(),
      role: 'assistant',
      content,
      createdAt: at + 1,
      status: 'done',
      model: MODEL,
    });
    conversation.updatedAt = at + 1;
    if ((turn + 1) % SAVE_EVERY_TURNS === 0) {
      // The request the chat sends for a prompt: fitted here once per save, not for every turn, to keep it short.
      prepareRequest(conversation);
      await store.save(conversation);
    }
  }
  await store.save(conversation);
  return conversation;
}

/** An idle stretch of `ms` in this process: the baseline of the event loop's delay. */
function idle(ms: number): Promise<DelaySample> {
  return withDelayMonitor(() => new Promise((resolve) => setTimeout(resolve, ms)));
}

const ratio = (value: number, base: number) => `${(value / Math.max(base, 0.001)).toFixed(1)}×`;

/**
 * 50 conversations of 500 messages through the real chat core on disk (ConversationStore, the conversation model,
 * promptMessages and contextBudget): written turn by turn and saved as the chat does, then listed and opened after a
 * reload, then switched between. The event loop's p99 delay during each is the figure (target < 100 ms), against an
 * idle stretch in the same process; listing and opening are timed against reading and parsing the same files raw.
 */
export async function run(): Promise<BenchFigure[]> {
  const dir = await mkdtemp(join(tmpdir(), 'alpha-axo-load-conversations-'));
  try {
    const base = await idle(2000);

    const writer = new ConversationStore(dir, silentLogger);
    const ids: string[] = [];
    let saves = 0;
    const create = await withDelayMonitor(async () => {
      const start = Date.now() - CONVERSATIONS * MESSAGES * 60_000;
      for (let i = 0; i < CONVERSATIONS; i++) {
        const conversation = await writeConversation(writer, i, start + i * MESSAGES * 60_000);
        ids.push(conversation.id);
        saves += Math.ceil(MESSAGES / 2 / SAVE_EVERY_TURNS) + 1;
      }
      await writer.idle();
    });
    let bytes = 0;
    for (const id of ids) {
      bytes += (await stat(join(dir, `${id}.json`))).size;
    }

    // After a reload: a new store lists from the index, then opens the newest conversation.
    const store = new ConversationStore(dir, silentLogger);
    let t = performance.now();
    const list = await store.list();
    const listMs = performance.now() - t;
    const newest = list[0].id;
    t = performance.now();
    const opened = await store.load(newest);
    const stateBytes = opened ? stateOf(opened, list).length : 0;
    const openMs = performance.now() - t;

    // The baseline: the same files read and parsed raw, no store, no model.
    t = performance.now();
    JSON.parse(await readFile(join(dir, 'index.json'), 'utf8'));
    const rawListMs = performance.now() - t;
    t = performance.now();
    JSON.parse(await readFile(join(dir, `${newest}.json`), 'utf8'));
    const rawOpenMs = performance.now() - t;

    // Switching: save the one shown, load the next, list, build the page's state, as the chat does on a switch.
    const switchMs: number[] = [];
    let current = opened;
    const switching = await withDelayMonitor(async () => {
      for (let n = 0; n < CONVERSATIONS * 2; n++) {
        const id = ids[(n * 7) % ids.length];
        const started = performance.now();
        if (current) {
          current.updatedAt = Date.now();
          await store.save(current);
        }
        current = await store.load(id);
        const listed = await store.list();
        if (!current || listed.length !== CONVERSATIONS) {
          throw new Error(`conversation ${id} did not open (${listed.length} listed)`);
        }
        stateOf(current, listed);
        switchMs.push(performance.now() - started);
      }
      await store.idle();
    });

    // Searching the conversation list, as ChatSession does for the list's search box: the first query reads and
    // folds every conversation, later ones search what was folded.
    const session = new ChatSession(store, memoryMemento(), silentLogger);
    let firstMatches = 0;
    t = performance.now();
    const firstSearch = await withDelayMonitor(async () => {
      firstMatches = (await session.search('greeting')).length;
    });
    const firstSearchMs = performance.now() - t;
    const searchMs: number[] = [];
    const searching = await withDelayMonitor(async () => {
      for (let round = 0; round < 3; round++) {
        for (const query of QUERIES) {
          const started = performance.now();
          await session.search(query);
          searchMs.push(performance.now() - started);
          // The next keystroke: a fast typist's pace.
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
    });
    session.dispose();
    // The baseline: the same queries over the same conversations, already read, but folded again for each query
    // (searchConversations), as the session did before it kept them folded.
    const loaded: Conversation[] = [];
    for (const id of ids) {
      const conversation = await store.load(id);
      if (conversation) {
        loaded.push(conversation);
      }
    }
    const refoldMs = QUERIES.map((query) => {
      const started = performance.now();
      searchConversations(query, loaded);
      return performance.now() - started;
    });

    const line = (name: string, r: DelaySample): BenchFigure => ({
      name: `${name}: event-loop delay p99 (max ${r.max.toFixed(1)} ms, ${(r.ms / 1000).toFixed(2)} s)`,
      value: `${r.p99.toFixed(1)} ms (${ratio(r.p99, base.p99)} idle)`,
      target: `< ${P99_TARGET_MS} ms`,
      pass: r.p99 < P99_TARGET_MS,
    });
    const mb = (bytes / 1024 / 1024).toFixed(1);
    return [
      { name: 'idle baseline: event-loop delay p99', value: `${base.p99.toFixed(1)} ms` },
      line(
        `${CONVERSATIONS} conversations of ${MESSAGES} messages written turn by turn (${saves} saves, ${mb} MB on disk)`,
        create,
      ),
      {
        name: `list ${list.length} conversations after a reload (raw read + parse of the index: ${rawListMs.toFixed(2)} ms)`,
        value: `${listMs.toFixed(1)} ms (${ratio(listMs, rawListMs)} raw)`,
        target: `< ${OPEN_TARGET_MS} ms`,
        pass: listMs < OPEN_TARGET_MS && list.length === CONVERSATIONS,
      },
      {
        name: `open one of ${opened?.messages.length ?? 0} messages: load + request fit + page state of ${(stateBytes / 1024).toFixed(0)} KB (raw read + parse: ${rawOpenMs.toFixed(1)} ms)`,
        value: `${openMs.toFixed(1)} ms (${ratio(openMs, rawOpenMs)} raw)`,
        target: `< ${OPEN_TARGET_MS} ms`,
        pass: openMs < OPEN_TARGET_MS && opened?.messages.length === MESSAGES,
      },
      line(`${switchMs.length} switches between them (save, load, list, state)`, switching),
      {
        name: 'one switch (save the shown one, load, list, state)',
        value: `median ${median(switchMs).toFixed(1)} ms, p95 ${percentile(switchMs, 95).toFixed(1)} ms, worst ${Math.max(...switchMs).toFixed(1)} ms`,
        target: `< ${OPEN_TARGET_MS} ms`,
        pass: Math.max(...switchMs) < OPEN_TARGET_MS,
      },
      line(
        `search all ${CONVERSATIONS}, first query (${firstSearchMs.toFixed(0)} ms: reads and folds each)`,
        firstSearch,
      ),
      {
        name: `search all ${CONVERSATIONS}, first query: conversations found`,
        value: String(firstMatches),
        target: `${CONVERSATIONS}`,
        pass: firstMatches === CONVERSATIONS,
      },
      line(`${searchMs.length} later queries, one per 50 ms as typed`, searching),
      {
        name: `one later query over ${CONVERSATIONS} × ${MESSAGES} messages`,
        value: `median ${median(searchMs).toFixed(1)} ms, worst ${Math.max(...searchMs).toFixed(1)} ms (folding each query again: median ${median(refoldMs).toFixed(0)} ms, ${ratio(median(refoldMs), median(searchMs))} as long)`,
        target: `< ${SEARCH_TARGET_MS} ms`,
        pass: Math.max(...searchMs) < SEARCH_TARGET_MS,
      },
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
