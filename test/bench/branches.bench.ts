import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { branchPlaces, branchPointCount, switchBranch } from '../../src/core/chat/conversation/branches';
import { newConversation, newId, titleFor, type Conversation } from '../../src/core/chat/conversation/conversation';
import { searchConversations } from '../../src/core/chat/conversation/conversationSearch';
import { ConversationStore } from '../../src/core/chat/store/conversationStore';
import { silentLogger } from '../../src/core/logger';
import { chatReply, longReply } from '../fakeService/chatContent';
import { median, type BenchFigure } from './benchFigure';

const MESSAGES = 500;
const BRANCH_POINTS = 50;
const TARGET_MS = 50;
const ROUNDS = 40;

/** A conversation of MESSAGES messages on its path, and a second version of every fifth reply (BRANCH_POINTS). */
export function branchedConversation(): Conversation {
  const conversation = newConversation(1_000);
  const history: { role: string; content: string }[] = [];
  const branches: Conversation['messages'] = [];
  for (let turn = 0; turn < MESSAGES / 2; turn++) {
    const prompt = `Question ${turn + 1}: how would I write a greeting function?`;
    const promptId = newId();
    conversation.messages.push({ id: promptId, role: 'user', content: prompt, createdAt: 1_000 + turn * 3 });
    conversation.title ||= titleFor(prompt);
    history.push({ role: 'user', content: prompt });
    const content = turn % 3 === 0 ? longReply(1200 + ((turn * 17) % 2400)) : chatReply(history);
    history.push({ role: 'assistant', content });
    conversation.messages.push({
      id: newId(),
      role: 'assistant',
      content,
      createdAt: 1_000 + turn * 3 + 2,
      status: 'done',
    });
    if (turn % 5 === 0) {
      // An earlier version of this reply (regenerated since), kept as a branch.
      branches.push({
        id: newId(),
        role: 'assistant',
        content: `An earlier answer to question ${turn + 1}, with the word zanzibar. ${chatReply(history)}`,
        createdAt: 1_000 + turn * 3 + 1,
        status: 'done',
        parentId: promptId,
      });
    }
  }
  conversation.branches = branches;
  return conversation;
}

/** What the host sends the page for the conversation shown: every message as a view with its place, as JSON. */
export function pageState(conversation: Conversation): number {
  const places = branchPlaces(conversation);
  const messages = conversation.messages.map(({ id, role, content, createdAt, status }) => {
    return { id, role, content, createdAt, status, branch: places.get(id) };
  });
  return JSON.stringify({ conversationId: conversation.id, title: conversation.title, messages }).length;
}

/**
 * A conversation of 500 messages with 50 branch points, through the real chat core on disk: switching between
 * sibling versions (the switch, the page's state, the save), showing it from disk as a conversation switch does,
 * and searching every branch. Each is a median against TARGET_MS; the switch is also a ratio against showing the
 * same conversation again without switching (the baseline in the same process).
 */
export async function run(): Promise<BenchFigure[]> {
  const dir = await mkdtemp(join(tmpdir(), 'alpha-branches-bench-'));
  try {
    const store = new ConversationStore(dir, silentLogger);
    const conversation = branchedConversation();
    await store.save(conversation);
    const points = branchPointCount(conversation);

    // A sibling switch: to the other version of one reply and back (the whole path comes back), each time the
    // page's state again and a save.
    const switchMs: number[] = [];
    for (let i = 0; i < ROUNDS / 2; i++) {
      const places = [...branchPlaces(conversation)];
      const [id, place] = places[(i * 7) % places.length];
      const index = conversation.messages.findIndex((m) => m.id === id);
      for (const step of [place.index > 1 ? -1 : 1, place.index > 1 ? 1 : -1] as const) {
        const started = performance.now();
        switchBranch(conversation, conversation.messages[index].id, step);
        pageState(conversation);
        // As the chat saves it (ChatSession.saveNow stamps the time; the list's index follows).
        conversation.updatedAt++;
        await store.save(conversation);
        switchMs.push(performance.now() - started);
      }
    }
    if (conversation.messages.length !== MESSAGES || branchPointCount(conversation) !== BRANCH_POINTS) {
      throw new Error('switching back did not bring the whole conversation back');
    }

    // Baseline (measured after the switches, as warm): the page's state and a save of the same conversation, nothing
    // switched.
    const baseMs: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const started = performance.now();
      pageState(conversation);
      conversation.updatedAt++;
      await store.save(conversation);
      baseMs.push(performance.now() - started);
    }

    // Showing it after switching from another conversation: read from disk, parsed, the page's state.
    const openMs: number[] = [];
    for (let i = 0; i < 20; i++) {
      const fresh = new ConversationStore(dir, silentLogger);
      const started = performance.now();
      const loaded = await fresh.load(conversation.id);
      if (loaded) {
        pageState(loaded);
      }
      openMs.push(performance.now() - started);
    }

    // Searching every branch (one word only in the branches, one on the path, one nowhere).
    const searchMs: number[] = [];
    let foundInBranch = false;
    for (let i = 0; i < 30; i++) {
      const query = ['zanzibar', 'greeting function', 'nothing like this'][i % 3];
      const started = performance.now();
      const found = searchConversations(query, [conversation]);
      searchMs.push(performance.now() - started);
      foundInBranch ||= query === 'zanzibar' && found.length === 1;
    }

    const switchMedian = median(switchMs);
    return [
      {
        name: `a conversation of ${conversation.messages.length} messages with ${points} branch points (${conversation.branches?.length ?? 0} messages off the path)`,
        value: `${(JSON.stringify(conversation).length / 1024).toFixed(0)} KB`,
      },
      {
        name: 'show it again without a switch (state + save): median (baseline)',
        value: `${median(baseMs).toFixed(1)} ms`,
      },
      {
        name: 'switch to a sibling version (switch + state + save): median',
        value: `${switchMedian.toFixed(1)} ms (${(switchMedian / Math.max(median(baseMs), 0.001)).toFixed(2)}× the baseline)`,
        target: `< ${TARGET_MS} ms`,
        pass: switchMedian < TARGET_MS,
      },
      {
        name: 'switch to it from another conversation (read, parse, state): median',
        value: `${median(openMs).toFixed(1)} ms`,
        target: `< ${TARGET_MS} ms`,
        pass: median(openMs) < TARGET_MS,
      },
      {
        name: `search its path and every branch (a word only in a branch found: ${foundInBranch ? 'yes' : 'no'}): median`,
        value: `${median(searchMs).toFixed(1)} ms`,
        target: `< ${TARGET_MS} ms`,
        pass: median(searchMs) < TARGET_MS && foundInBranch,
      },
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
