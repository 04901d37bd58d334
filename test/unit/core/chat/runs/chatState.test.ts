import * as assert from 'node:assert/strict';
import { INTERRUPTED_NOTICE } from '../../../../../src/core/chat/conversation/conversation';
import { branchPlaces } from '../../../../../src/core/chat/conversation/branches';
import { ServiceError } from '../../../../../src/core/service/errors';

import { deferred, setup, shape } from '../../../../support/chatStateHarness';

/** Conversation B with a finished turn, then A shown with its reply streaming and held after "Hello". */
async function streamingInANextToB(prompt: string) {
  const parts = setup();
  const { state, holder, source, recorder } = parts;
  await state.send('In B');
  const b = holder.conversation.id;
  await state.newConversation();
  const a = holder.conversation.id;
  source.held = true;
  const sending = state.send(prompt);
  await recorder.when(/delta 2 Hello/);
  return { ...parts, a, b, sending };
}

describe('chat state (src/core/chat/runs/chatState)', () => {
  it('send: adds the prompt and its reply, streams it, saves it, and tells in order', async () => {
    const { state, holder, source, recorder } = setup();
    await state.send('What is TypeScript?');
    assert.deepEqual(shape(holder.conversation.messages), ['user: What is TypeScript?', 'ALPHA (done): Hello, world.']);
    assert.equal(holder.conversation.title, 'What is TypeScript?');
    assert.deepEqual(recorder.events, [
      'streaming',
      'started 1 What is TypeScript?',
      'delta 1 Hello',
      'delta 1 , world.',
      'idle',
      'ended 1 done',
      'list',
    ]);
    assert.deepEqual(source.requests[0].messages, [{ role: 'user', content: 'What is TypeScript?' }]);
    assert.deepEqual(shape(holder.files.get(holder.conversation.id)?.messages ?? []), [
      'user: What is TypeScript?',
      'ALPHA (done): Hello, world.',
    ]);
    assert.equal(state.runningReply, undefined);
  });

  it('send: takes the pending context with the prompt, once; nothing to send sends nothing', async () => {
    const { state, holder, source } = setup();
    const chip = { id: 'c1', label: 'main.ts:1-3', content: 'let x = 1;' };
    state.addContext([chip, { ...chip, id: 'c2' }]);
    assert.equal(state.pending.length, 1, 'the same label and content once');
    await state.send('Explain');
    assert.deepEqual(holder.conversation.messages[0].context, [chip]);
    assert.equal(state.pending.length, 0);
    await state.send('   ');
    assert.equal(holder.conversation.messages.length, 2);
    assert.equal(source.requests.length, 1);
  });

  it('stop: ends the running reply as stopped, keeps what arrived and saves it; another request id is left alone', async () => {
    const { state, holder, source, recorder } = setup();
    source.held = true;
    const sending = state.send('Tell me a long story');
    await recorder.when(/delta 1 Hello/);
    assert.deepEqual(state.runningReply?.requestId, 1);
    await state.stop(99);
    assert.ok(state.runningReply, 'a stop for another request does nothing');
    await state.stop(1);
    assert.equal(state.runningReply, undefined);
    await sending;
    assert.deepEqual(shape(holder.conversation.messages), ['user: Tell me a long story', 'ALPHA (stopped): Hello']);
    assert.equal(holder.files.get(holder.conversation.id)?.messages[1].status, 'stopped');
    assert.deepEqual(recorder.events.slice(-3), ['idle', 'ended 1 stopped', 'list']);
    await state.stop();
  });

  it('a second prompt while a reply streams stops that reply first, then answers the second', async () => {
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
    assert.ok(recorder.events.indexOf('ended 1 stopped') < recorder.events.indexOf('started 2 two'));
  });

  it('regenerate: writes the last reply again; the old one stays as a branch; the request is the same prompt', async () => {
    const { state, holder, source } = setup();
    await state.send('Name a colour');
    const before = holder.conversation.messages[1].id;
    source.pieces = ['Blue', '.'];
    await state.regenerate();
    assert.deepEqual(shape(holder.conversation.messages), ['user: Name a colour', 'ALPHA (done): Blue.']);
    assert.notEqual(holder.conversation.messages[1].id, before);
    assert.deepEqual(shape(holder.conversation.branches ?? []), ['ALPHA (done): Hello, world.']);
    assert.deepEqual(source.requests[1].messages, source.requests[0].messages);
    assert.deepEqual(branchPlaces(holder.conversation).get(holder.conversation.messages[1].id), { index: 2, count: 2 });
  });

  it('regenerate: every version keeps its usage, one without text that the service reported too', async () => {
    const { state, holder, source } = setup();
    await state.send('Name a colour');
    source.pieces = ['Blue', '.'];
    await state.regenerate();
    // A version that got no text, though the service reported what the request took: it was billed.
    source.pieces = [];
    source.report = { input: 50, output: 0 };
    await state.regenerate();
    source.pieces = ['Green.'];
    source.report = undefined;
    await state.regenerate();
    const conversation = holder.conversation;
    const replies = [...conversation.messages, ...(conversation.branches ?? [])].filter((m) => m.role === 'assistant');
    assert.deepEqual(
      replies.map((m) => [m.content, m.usage?.reported === true]),
      [
        ['Green.', false],
        ['Hello, world.', false],
        ['Blue.', false],
        ['', true],
      ],
    );
    assert.ok(
      replies.every((m) => m.usage && m.usage.input > 0),
      'every version the service was asked for counts',
    );
    assert.deepEqual(conversation.branches?.at(-1)?.usage, { input: 50, output: 0, reported: true });
  });

  it('regenerate an earlier reply: what followed it stays in its branch; the request ends at its prompt', async () => {
    const { state, holder, source } = setup();
    await state.send('First');
    await state.send('Second');
    const firstReply = holder.conversation.messages[1];
    source.pieces = ['Other', ' answer'];
    await state.regenerate(firstReply.id);
    assert.deepEqual(shape(holder.conversation.messages), ['user: First', 'ALPHA (done): Other answer']);
    assert.deepEqual(shape(holder.conversation.branches ?? []), [
      'ALPHA (done): Hello, world.',
      'user: Second',
      'ALPHA (done): Hello, world.',
    ]);
    assert.deepEqual(
      source.requests[2].messages.map((m) => m.content),
      ['First'],
      'the regenerated reply answers its own prompt, not what came later',
    );
    await state.regenerate(holder.conversation.messages[0].id);
    assert.equal(source.requests.length, 3, 'a prompt is not a reply: nothing regenerated');
  });

  it('a failed last reply with no text is replaced by Retry, not kept as a branch', async () => {
    const { state, holder, source } = setup();
    source.failWith = new ServiceError('server', 'The service failed.');
    source.pieces = ['', 'x'];
    await state.send('Try');
    assert.equal(holder.conversation.messages[1].status, 'error');
    source.failWith = undefined;
    source.pieces = ['Fine'];
    await state.regenerate();
    assert.deepEqual(shape(holder.conversation.messages), ['user: Try', 'ALPHA (done): Fine']);
    assert.equal(holder.conversation.branches, undefined);
  });

  it('switch branch: shows the other version, saved; the conversation continues from the branch on screen', async () => {
    const { state, holder, source, recorder } = setup();
    await state.send('Question');
    await state.send('Follow-up');
    const question = holder.conversation.messages[0];
    await state.edit(question.id, 'Question, edited');
    const edited = holder.conversation.messages[0];
    assert.equal(await state.switchBranch(edited.id, 1), false, 'the edit is the last version');
    const redraws = recorder.events.filter((e) => e === 'redraw').length;
    assert.equal(await state.switchBranch(edited.id, -1), true);
    assert.equal(recorder.events.filter((e) => e === 'redraw').length, redraws + 1, 'the pages are redrawn');
    assert.equal(holder.conversation.title, 'Question', 'the title the first prompt gave follows the version shown');
    assert.deepEqual(shape(holder.conversation.messages), [
      'user: Question',
      'ALPHA (done): Hello, world.',
      'user: Follow-up',
      'ALPHA (done): Hello, world.',
    ]);
    assert.deepEqual(
      shape(holder.files.get(holder.conversation.id)?.messages ?? []),
      shape(holder.conversation.messages),
    );
    await state.send('Third');
    assert.deepEqual(
      source.requests.at(-1)?.messages.map((m) => m.content),
      ['Question', 'Hello, world.', 'Follow-up', 'Hello, world.', 'Third'],
      'the next prompt goes with the branch on screen',
    );
    assert.equal(await state.switchBranch(question.id, 1), true);
    assert.deepEqual(shape(holder.conversation.messages), ['user: Question, edited', 'ALPHA (done): Hello, world.']);
  });

  it('regenerate while a reply streams stops it and writes it again; with no prompt it does nothing', async () => {
    const { state, holder, source, recorder } = setup();
    await state.regenerate();
    assert.equal(source.requests.length, 0);
    source.held = true;
    const sending = state.send('Again');
    await recorder.when(/delta 1 Hello/);
    const again = state.regenerate();
    await sending;
    source.release();
    await again;
    assert.deepEqual(shape(holder.conversation.messages), ['user: Again', 'ALPHA (done): Hello, world.']);
    assert.deepEqual(
      recorder.events.filter((e) => /ended|redraw/.test(e)),
      ['ended 1 stopped', 'redraw', 'ended 2 done'],
    );
  });

  it('edit: an earlier prompt is sent again as a new version (the old one and all after it a branch), keeps its context, retitles', async () => {
    const { state, holder, source } = setup();
    state.addContext([{ id: 'c', label: 'a.ts', content: 'code' }]);
    await state.send('First question');
    await state.send('Second question');
    const first = holder.conversation.messages[0];
    await state.edit(first.id, 'First question, better');
    assert.deepEqual(shape(holder.conversation.messages), [
      'user: First question, better',
      'ALPHA (done): Hello, world.',
    ]);
    assert.deepEqual(holder.conversation.messages[0].context, first.context, 'the context stays');
    assert.notEqual(holder.conversation.messages[0].id, first.id);
    assert.equal(holder.conversation.title, 'First question, better');
    assert.deepEqual(
      shape(holder.conversation.branches ?? []).slice(0, 1),
      ['user: First question'],
      'the old prompt is kept as a branch',
    );
    assert.equal(holder.conversation.branches?.length, 4);
    assert.equal(source.requests.length, 3);
    assert.match(source.requests[2].messages.at(-1)?.content ?? '', /First question, better/);

    await state.edit('no-such-id', 'x');
    await state.edit(holder.conversation.messages[1].id, 'a reply is not a prompt');
    assert.equal(source.requests.length, 3, 'nothing was sent for an unknown or non-prompt message');
  });

  it('switch: stops the reply, keeps it in its own conversation, shows the other; the reply never lands there', async () => {
    const { state, holder, a, b, sending } = await streamingInANextToB('In A, streaming');
    assert.equal(await state.switchTo(b), true);
    await sending;
    assert.equal(holder.conversation.id, b);
    assert.deepEqual(shape(holder.conversation.messages), ['user: In B', 'ALPHA (done): Hello, world.']);
    assert.deepEqual(shape(holder.files.get(a)?.messages ?? []), ['user: In A, streaming', 'ALPHA (stopped): Hello']);
    assert.equal(await state.switchTo('missing'), false, 'a conversation that cannot be read says so');
    assert.equal(holder.conversation.id, b);
  });

  it('stop during a switch does not interleave: the reply ends once, the switch completes, a later prompt lands after it', async () => {
    const { state, holder, source, recorder, a, b, sending } = await streamingInANextToB('In A');
    const gate = deferred();
    holder.switchGate = gate.promise;
    const switching = state.switchTo(b);
    // Stop and a prompt arrive while the switch is under way (it has stopped the reply and is reading B).
    await recorder.when(/ended 2 stopped/);
    const stopping = state.stop();
    const sendingLater = state.send('After the switch');
    await stopping;
    assert.equal(holder.conversation.id, a, 'the switch has not shown B yet');
    assert.equal(source.requests.length, 2, 'the later prompt waits for the switch');
    gate.resolve();
    source.release();
    assert.equal(await switching, true);
    await Promise.all([sending, sendingLater]);
    assert.equal(recorder.events.filter((e) => e.startsWith('ended 2')).length, 1, 'the reply ended once');
    assert.deepEqual(shape(holder.files.get(a)?.messages ?? []), ['user: In A', 'ALPHA (stopped): Hello']);
    assert.equal(holder.conversation.id, b);
    assert.deepEqual(shape(holder.conversation.messages).slice(-2), [
      'user: After the switch',
      'ALPHA (done): Hello, world.',
    ]);
    const ended = recorder.events.indexOf('ended 2 stopped');
    const redraw = recorder.events.indexOf('redraw', ended);
    const started = recorder.events.indexOf('started 3 After the switch');
    assert.ok(ended < redraw && redraw < started, `in order: ${JSON.stringify(recorder.events)}`);
  });

  it('operations run in the order asked: a prompt sent during a switch goes to the conversation switched to', async () => {
    const { state, holder } = setup();
    await state.send('Older');
    const older = holder.conversation.id;
    await state.newConversation();
    await state.send('Newer');
    const newer = holder.conversation.id;
    await Promise.all([state.switchTo(older), state.send('Follow-up')]);
    assert.equal(holder.conversation.id, older);
    assert.deepEqual(
      shape(holder.conversation.messages).filter((m) => m.startsWith('user')),
      ['user: Older', 'user: Follow-up'],
    );
    assert.deepEqual(shape(holder.files.get(newer)?.messages ?? []), ['user: Newer', 'ALPHA (done): Hello, world.']);
  });

  it('record: keeps a prompt and a reply received elsewhere, without asking the service', async () => {
    const { state, holder, source, recorder } = setup();
    await state.record('Explain this', 'It adds one.');
    assert.deepEqual(shape(holder.conversation.messages), ['user: Explain this', 'ALPHA (done): It adds one.']);
    assert.equal(source.requests.length, 0);
    assert.deepEqual(recorder.events, ['redraw']);
    assert.ok(holder.files.has(holder.conversation.id));
  });

  it("record: keeps a reply's trim with it, shown as on any reply", async () => {
    const { state, holder } = setup();
    const notice = "The repository's instructions were left out to make room.";
    await state.record('Document this', 'No code.', { notice, trim: { limit: 32_000, instructions: true } });
    const reply = holder.conversation.messages[1];
    assert.equal(reply.notice, notice);
    assert.deepEqual(reply.trim, { limit: 32_000, instructions: true });
  });

  it('delete: the conversation shown stops its reply and a new one shows', async () => {
    const { state, holder, source, recorder } = setup();
    source.held = true;
    const sending = state.send('Doomed');
    await recorder.when(/delta 1 Hello/);
    const id = holder.conversation.id;
    await state.delete(id);
    await sending;
    assert.notEqual(holder.conversation.id, id);
    assert.equal(holder.conversation.messages.length, 0);
    assert.equal(holder.files.has(id), false);
  });

  it('a failed reply keeps what arrived, records the error, logs it and tells it', async () => {
    const { state, holder, source, recorder, warnings } = setup();
    source.failWith = new ServiceError('server', 'The service failed (500).', { keyKind: 'chat' });
    await state.send('Break');
    const reply = holder.conversation.messages[1];
    assert.equal(reply.status, 'error');
    assert.equal(reply.content, 'Hello');
    assert.match(reply.error?.message ?? '', /500/);
    assert.ok(recorder.events.includes('ended 1 error'));
    assert.match(warnings.join('\n'), /the reply failed: The service failed \(500\)/);
  });

  it('when the pages cannot be told of a reply, it ends (nothing stays "replying") and the caller hears why', async () => {
    const { state, recorder } = setup();
    recorder.failStart = true;
    await assert.rejects(state.send('Hello?'), /could not be told/);
    assert.equal(state.runningReply, undefined);
    assert.deepEqual(recorder.events, ['streaming', 'idle']);
    recorder.failStart = false;
    await state.send('Again');
    assert.ok(recorder.events.includes('ended 2 done'), 'the next operation runs');
  });

  it('dispose mid-reply: the reply is kept, marked interrupted, saved at once', async () => {
    const { state, holder, source, recorder } = setup();
    source.held = true;
    const sending = state.send('Reload during this');
    await recorder.when(/delta 1 Hello/);
    const before = holder.syncSaves;
    state.dispose();
    assert.equal(holder.syncSaves, before + 1);
    const saved = holder.files.get(holder.conversation.id)?.messages[1];
    assert.equal(saved?.status, 'interrupted');
    assert.equal(saved?.notice, INTERRUPTED_NOTICE);
    assert.equal(saved?.content, 'Hello');
    await sending;
    assert.ok(!recorder.events.includes('ended 1 stopped'), 'a disposed state tells nothing more');
  });

  it('grounded: asks for sources with the prompt, keeps them and the note, and redraws once the reply ends', async () => {
    const asked: string[] = [];
    const { state, holder, source, recorder } = setup({
      settings: { groundByDefault: true },
      ground: (prompt) => {
        asked.push(prompt);
        return Promise.resolve({
          kind: 'grounded',
          answer: 'TypeScript appeared in 2012.',
          sources: [{ title: 'TypeScript', url: 'https://example.org/ts' }],
          facts: [],
          note: 'Cached facts went along.',
        });
      },
    });
    await state.send('When did TypeScript appear?');
    assert.deepEqual(asked, ['When did TypeScript appear?']);
    const reply = holder.conversation.messages[1];
    assert.deepEqual(reply.sources, [{ title: 'TypeScript', url: 'https://example.org/ts' }]);
    assert.equal(reply.notice, 'Cached facts went along.');
    assert.match(source.requests[0].messages.at(-1)?.content ?? '', /TypeScript appeared in 2012/);
    assert.deepEqual(recorder.events.slice(-2), ['ended 1 done', 'redraw']);
    assert.ok(recorder.events.includes('notice 1 Cached facts went along.'));

    await state.setGround(false);
    await state.send('Not grounded now');
    assert.equal(asked.length, 1, 'the conversation turned grounding off');
    assert.equal(state.groundWithAxo, false);
  });

  it("another window's change: redrawn at once when idle, after the reply when one streams", async () => {
    const { state, holder, source, recorder } = setup();
    holder.fire({ conversation: true, list: true });
    await recorder.when(/redraw/);
    holder.fire({ conversation: false, list: true });
    await recorder.when(/list/);
    source.held = true;
    const sending = state.send('Streaming');
    await recorder.when(/delta 1 Hello/);
    const redraws = recorder.events.filter((e) => e === 'redraw').length;
    holder.fire({ conversation: true, list: true });
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(recorder.events.filter((e) => e === 'redraw').length, redraws, 'no redraw mid-reply');
    source.release();
    await sending;
    assert.equal(recorder.events.at(-1), 'redraw');
  });

  it('rename: any conversation, the one shown redrawn, another only listed; a blank title is refused', async () => {
    const { state, holder, recorder } = setup();
    await state.send('Other');
    const other = holder.conversation.id;
    await state.newConversation();
    await state.send('Shown');
    const shown = holder.conversation.id;
    recorder.events.length = 0;
    assert.equal(await state.rename(other, '  Renamed   elsewhere '), true);
    assert.equal(holder.files.get(other)?.title, 'Renamed elsewhere');
    assert.deepEqual(recorder.events, ['list']);
    assert.equal(await state.rename(shown, 'Here'), true);
    assert.equal(holder.conversation.title, 'Here');
    assert.equal(holder.files.get(shown)?.title, 'Here', 'saved');
    assert.equal(recorder.events.at(-1), 'redraw');
    assert.equal(await state.rename(shown, '   '), false);
    assert.equal(holder.conversation.title, 'Here');
    assert.equal(await state.rename('missing', 'x'), false);
  });

  it('pin: a pinned conversation is kept pinned in its file until unpinned', async () => {
    const { state, holder } = setup();
    await state.send('Keep me');
    const id = holder.conversation.id;
    await state.newConversation();
    assert.equal(await state.setPinned(id, true), true);
    assert.equal(holder.files.get(id)?.pinned, true);
    assert.equal(await state.setPinned(id, false), true);
    assert.equal(holder.files.get(id)?.pinned, undefined);
  });

  it('duplicate: a copy under a new id with the same messages, shown; the original stays', async () => {
    const { state, holder, source, recorder } = setup();
    await state.send('Original question');
    const id = holder.conversation.id;
    await state.setPinned(id, true);
    source.held = true;
    const sending = state.send('Second, streaming');
    await recorder.when(/delta 2 Hello/);
    const copyId = await state.duplicate(id);
    await sending;
    assert.ok(copyId && copyId !== id);
    assert.equal(holder.conversation.id, copyId, 'the copy is shown');
    assert.equal(holder.conversation.title, 'Original question (copy)');
    assert.equal(holder.conversation.pinned, undefined, 'a copy is not pinned');
    assert.deepEqual(shape(holder.conversation.messages), shape(holder.files.get(id)?.messages ?? []));
    assert.equal(
      holder.conversation.messages[3].status,
      'stopped',
      'the copy holds the stopped reply, not a running one',
    );
    assert.equal(await state.duplicate('missing'), undefined);
  });

  it('delete and Undo: the deleted conversation comes back whole, shown again when it was the one shown', async () => {
    const { state, holder } = setup();
    await state.send('Precious');
    const id = holder.conversation.id;
    const removed = await state.delete(id);
    assert.equal(holder.files.has(id), false);
    assert.notEqual(holder.conversation.id, id);
    assert.ok(removed);
    await state.restore(removed);
    assert.equal(holder.conversation.id, id, 'shown again');
    assert.deepEqual(shape(holder.conversation.messages), ['user: Precious', 'ALPHA (done): Hello, world.']);
    await state.send('Elsewhere');
    const other = holder.conversation.id;
    await state.newConversation();
    await state.send('Busy here');
    const again = await state.delete(other);
    assert.ok(again);
    await state.restore(again);
    assert.ok(holder.files.has(other), 'listed again');
    assert.deepEqual(shape(holder.conversation.messages)[0], 'user: Busy here', 'the conversation shown stays');
  });

  it('the budget counts the conversation and the pending context against the model', async () => {
    const { state } = setup();
    const empty = state.budget();
    assert.equal(empty.usedTokens, 0);
    assert.ok(empty.limitTokens > 0);
    state.addContext([{ id: 'c', label: 'big.ts', content: 'x'.repeat(4000) }]);
    assert.ok(state.budget().usedTokens > 100);
  });
});
