import * as assert from 'node:assert/strict';
import { newConversation, type Conversation } from '../../../../../src/core/chat/conversation/conversation';
import { parseConversation } from '../../../../../src/core/chat/conversation/conversationParse';
import { mergeConversations } from '../../../../../src/core/chat/conversation/conversationMerge';
import { mergeQueues, queueEntries, STALE_RUNNING_MS } from '../../../../../src/core/chat/conversation/queuedPrompts';
import type { QueuePart } from '../../../../../src/core/chat/conversation/conversation';
import { MemoryHolder, setup, shape } from '../../../../support/chatStateHarness';

/** The texts of the queued prompts as the window `owner` sees them, in order. */
function queued(conversation: Conversation, owner: string): string[] {
  return queueEntries(conversation, owner).map((e) => e.prompt.text);
}

/** A chat state with queueing on, its first reply held after "Hello". */
async function streaming(options: { owner?: string; holder?: MemoryHolder } = {}) {
  const parts = setup({ settings: { queuePrompts: true }, owner: options.owner ?? 'window-1', holder: options.holder });
  parts.source.held = true;
  const first = parts.state.send('first');
  await parts.recorder.when(/delta 1 Hello/);
  return { ...parts, first };
}

describe('prompt queue (src/core/chat/conversation/queuedPrompts, through the chat state)', () => {
  it('a prompt sent while a reply streams waits; two queued, one edited, one removed: the rest runs in order', async () => {
    const { state, holder, source, recorder, first } = await streaming();
    await state.send('second');
    await state.send('third');
    await state.send('fourth');
    assert.equal(state.runningReply?.requestId, 1, 'the reply streaming goes on');
    assert.deepEqual(queued(holder.conversation, 'window-1'), ['second', 'third', 'fourth']);
    const [second, third] = state.prompts.entries().map((e) => e.prompt.id);
    assert.equal(await state.prompts.edit(second, 'second, edited'), true);
    assert.equal(await state.prompts.remove(third), true);
    assert.equal(await state.prompts.edit('no-such-id', 'x'), false);
    assert.ok(holder.files.get(holder.conversation.id)?.queue, 'the queue is saved with the conversation');
    source.release();
    await first;
    await recorder.when(/ended 3 done/);
    assert.deepEqual(shape(holder.conversation.messages), [
      'user: first',
      'ALPHA (done): Hello, world.',
      'user: second, edited',
      'ALPHA (done): Hello, world.',
      'user: fourth',
      'ALPHA (done): Hello, world.',
    ]);
    assert.deepEqual(queued(holder.conversation, 'window-1'), []);
    assert.equal(source.requests.length, 3);
  });

  it('a queued prompt keeps the context chips, the grounding and the model it was queued with', async () => {
    const grounded: string[] = [];
    const parts = setup({
      settings: { queuePrompts: true },
      owner: 'w',
      ground: (prompt) => {
        grounded.push(prompt);
        return Promise.resolve({ kind: 'none', note: 'No sources.' } as never);
      },
    });
    const { state, holder, source, recorder } = parts;
    source.held = true;
    const first = state.send('first');
    await recorder.when(/delta 1 Hello/);
    state.addContext([{ id: 'c1', label: 'a.ts', content: 'let a = 1;' }]);
    await state.setGround(true);
    await state.send('with context');
    assert.equal(state.pending.length, 0, 'the chips went with the queued prompt');
    state.addContext([{ id: 'c2', label: 'b.ts', content: 'let b = 2;' }]);
    await state.setGround(false);
    assert.equal(holder.conversation.queue?.[0].prompts[0].groundWithAxo, true);
    assert.equal(holder.conversation.queue?.[0].prompts[0].model, 'alpha-1');
    source.release();
    await first;
    await recorder.when(/ended 2/);
    const sent = holder.conversation.messages[2];
    assert.deepEqual(
      sent.context?.map((c) => c.label),
      ['a.ts'],
    );
    assert.deepEqual(
      state.pending.map((c) => c.label),
      ['b.ts'],
      'a chip added later waits for the next prompt',
    );
    assert.deepEqual(grounded, ['with context'], 'grounded as it was when queued, though the toggle is off now');
  });

  it('Stop stops the reply and keeps the queue, waiting; resume runs it', async () => {
    const { state, holder, source, recorder, first } = await streaming();
    await state.send('second');
    await state.stop();
    await first;
    assert.deepEqual(shape(holder.conversation.messages), ['user: first', 'ALPHA (stopped): Hello']);
    assert.deepEqual(
      state.prompts.entries().map((e) => [e.prompt.text, e.waiting]),
      [['second', true]],
    );
    assert.equal(source.requests.length, 1, 'nothing more was sent');
    source.held = false;
    await state.prompts.resume();
    await recorder.when(/ended 2 done/);
    assert.deepEqual(shape(holder.conversation.messages).slice(2), ['user: second', 'ALPHA (done): Hello, world.']);
    assert.deepEqual(state.prompts.entries(), []);
  });

  it('"Send now" stops the running reply and sends that prompt; the others keep their turn', async () => {
    const { state, holder, source, recorder, first } = await streaming();
    await state.send('second');
    await state.send('third');
    const third = state.prompts.entries()[1].prompt.id;
    source.held = false;
    await state.prompts.sendNow(third);
    await first;
    await recorder.when(/ended 3 done/);
    assert.deepEqual(shape(holder.conversation.messages), [
      'user: first',
      'ALPHA (stopped): Hello',
      'user: third',
      'ALPHA (done): Hello, world.',
      'user: second',
      'ALPHA (done): Hello, world.',
    ]);
  });

  it('a failed reply leaves the queue waiting (nothing billed is sent after a failure)', async () => {
    const { state, holder, source, first } = await streaming();
    await state.send('second');
    source.failWith = new Error('socket hang up');
    source.release();
    await first;
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(holder.conversation.messages[1].status, 'error');
    assert.equal(source.requests.length, 1);
    assert.deepEqual(
      state.prompts.entries().map((e) => e.waiting),
      [true],
    );
  });

  it('with queueing off, a prompt sent while a reply streams stops it (the behaviour before the queue)', async () => {
    const { state, holder, source, recorder } = setup();
    source.held = true;
    const first = state.send('one');
    await recorder.when(/delta 1 Hello/);
    const second = state.send('two');
    await first;
    source.release();
    await second;
    assert.deepEqual(shape(holder.conversation.messages), [
      'user: one',
      'ALPHA (stopped): Hello',
      'user: two',
      'ALPHA (done): Hello, world.',
    ]);
    assert.equal(holder.conversation.queue, undefined);
  });

  it('after a reload the queue waits, sends nothing by itself, and runs when resumed', async () => {
    const { state, holder, source, first } = await streaming();
    await state.send('after the reload');
    state.dispose();
    await first;
    const saved = holder.files.get(holder.conversation.id);
    assert.ok(saved, 'saved at once on exit');
    assert.equal(saved.queue?.[0].running, false, 'saved as waiting');
    // The window comes back: a new state with a new id reads the file.
    const reloaded = new MemoryHolder();
    reloaded.conversation = parseConversation(JSON.parse(JSON.stringify(saved))) as Conversation;
    const again = setup({ settings: { queuePrompts: true }, owner: 'window-1-reloaded', holder: reloaded });
    assert.deepEqual(
      again.state.prompts.entries().map((e) => [e.prompt.text, e.mine, e.waiting]),
      [['after the reload', true, true]],
    );
    // Every job the new state started (its load, the queue's check) runs before the count is read.
    for (let turn = 0; turn < 5; turn++) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    assert.equal(again.source.requests.length, 0, 'nothing is sent unasked');
    await again.state.prompts.resume();
    await again.recorder.when(/ended 1 done/);
    assert.deepEqual(shape(reloaded.conversation.messages).slice(-2), [
      'user: after the reload',
      'ALPHA (done): Hello, world.',
    ]);
    assert.equal(source.requests.length, 1);
  });

  it('a switch to another conversation leaves the queue waiting in its own conversation', async () => {
    const { state, holder, source, first } = await streaming();
    const a = holder.conversation.id;
    await state.send('queued in A');
    await state.newConversation();
    await first;
    assert.equal(source.requests.length, 1);
    assert.equal(holder.files.get(a)?.queue?.[0].running, false);
    assert.deepEqual(state.prompts.entries(), []);
  });
});

describe('prompt queue across windows (mergeQueues)', () => {
  const prompt = (id: string, queuedAt = 1) => ({ id, text: id, groundWithAxo: false, model: 'alpha', queuedAt });
  const part = (owner: string, changedAt: number, ids: string[], running = true): QueuePart => ({
    owner,
    changedAt,
    running,
    prompts: ids.map((id, i) => prompt(id, changedAt + i)),
  });

  it("each window's part comes from the copy that changed it last; nothing either window queued is lost", () => {
    const now = Date.now();
    const mine = [part('a', now - 10, ['a1', 'a2']), part('b', now - 50, ['b1'])];
    const theirs = [part('a', now - 40, ['a1']), part('b', now - 5, ['b1', 'b2'])];
    const merged = mergeQueues(mine, theirs, now) ?? [];
    const byOwner = Object.fromEntries(merged.map((p) => [p.owner, p.prompts.map((x) => x.id)]));
    assert.deepEqual(byOwner, { a: ['a1', 'a2'], b: ['b1', 'b2'] });
  });

  it('a prompt one window took over is kept once, in the part changed last; old emptied parts go', () => {
    const now = Date.now();
    const merged =
      mergeQueues(
        [part('a', now - 10, ['x']), part('old', now - 2 * 24 * 3600 * 1000, [])],
        [part('b', now - 20, ['x'])],
        now,
      ) ?? [];
    assert.deepEqual(
      merged.map((p) => [p.owner, p.prompts.map((x) => x.id)]),
      [
        ['a', ['x']],
        ['b', []],
      ],
    );
  });

  it('the window that queued runs it, the other shows it; a part left running an hour is taken as waiting', () => {
    const now = Date.now();
    const conversation = newConversation(now);
    conversation.queue = [part('a', now - 1000, ['from a'])];
    assert.deepEqual(
      queueEntries(conversation, 'b', now).map((e) => [e.mine, e.waiting]),
      [[false, false]],
    );
    assert.deepEqual(
      queueEntries(conversation, 'a', now).map((e) => [e.mine, e.waiting]),
      [[true, false]],
    );
    conversation.queue[0].changedAt = now - STALE_RUNNING_MS - 1;
    assert.deepEqual(
      queueEntries(conversation, 'b', now).map((e) => [e.mine, e.waiting]),
      [[true, true]],
    );
  });

  it("two windows writing one file: the merge keeps both windows' queued prompts (mergeConversations)", () => {
    const now = Date.now();
    const base = newConversation(now);
    base.messages.push({ id: 'm1', role: 'user', content: 'hi', createdAt: now });
    const mine: Conversation = { ...structuredClone(base), queue: [part('a', now, ['a1'])] };
    const theirs: Conversation = { ...structuredClone(base), queue: [part('b', now, ['b1'])] };
    const merged = mergeConversations({ ids: new Set(['m1']) }, mine, theirs);
    assert.deepEqual(queued(merged, 'a').sort(), ['a1', 'b1']);
  });

  it('a file with a damaged queue reads what is sound and drops the rest', () => {
    const conversation = parseConversation({
      id: 'c1',
      messages: [],
      queue: [
        {
          owner: 'a',
          changedAt: 1,
          running: true,
          prompts: [
            { id: 'p1', text: 'ok' },
            { id: 2, text: 'bad id' },
          ],
        },
        'not a part',
        { owner: 'b', prompts: [{ id: 'p2', text: '   ' }] },
      ],
    });
    assert.deepEqual(
      conversation?.queue?.map((p) => [p.owner, p.prompts.map((x) => x.id)]),
      [
        ['a', ['p1']],
        ['b', []],
      ],
    );
  });
});
