import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Conversation, StoredMessage } from '../../../../../src/core/chat/conversation/conversation';
import { parseConversation } from '../../../../../src/core/chat/conversation/conversationParse';
import { parseSteps, STEP_BOUNDS, storedResult } from '../../../../../src/core/chat/conversation/storedSteps';
import { ConversationEncoder } from '../../../../../src/core/chat/store/conversationEncoder';
import { CONVERSATION_VERSION, migrateConversation } from '../../../../../src/core/chat/store/conversationSchema';
import { ConversationStore } from '../../../../../src/core/chat/store/conversationStore';
import type { ToolStep } from '../../../../../src/core/chat/tools/chatTool';
import { silentLogger } from '../../../../../src/core/logger';
import { assertGrowth } from '../../../../support/growth';

const ID = 'c0ffee00-1111-4222-8333-444455556666';

/** A step as the chat writes it. */
function step(overrides: Partial<ToolStep> = {}): ToolStep {
  return {
    id: 's1',
    tool: 'read_file',
    input: { path: 'src/app.ts', startLine: 1, endLine: 120 },
    title: 'Read `src/app.ts`, lines 1–120',
    status: 'done',
    result: 'export const app = 1;',
    offset: 5,
    ...overrides,
  };
}

/** A file of the current version whose reply holds `steps` (raw: anything a file may hold). */
function fileWith(steps: unknown, reply: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    version: CONVERSATION_VERSION,
    id: ID,
    title: 'Tools',
    createdAt: 1,
    updatedAt: 2,
    toolAccess: 'read',
    messages: [
      { id: 'u1', role: 'user', content: 'What does app.ts export?', createdAt: 1 },
      {
        id: 'a1',
        role: 'assistant',
        content: 'Let me look. It exports app.',
        createdAt: 2,
        status: 'done',
        steps,
        ...reply,
      },
    ],
  };
}

function replyOf(file: Record<string, unknown>, keepStreaming = false): StoredMessage {
  const conversation = parseConversation(file, keepStreaming);
  assert.ok(conversation);
  return conversation.messages[1];
}

describe('chat core: a reply keeps its tool steps (schema version 5, storedSteps)', () => {
  it('upgrades a version 4 file: what it holds stays, and steps, requests or an access level found in it go', () => {
    const v4 = fileWith([step()], { requests: 3, trim: { limit: 8_000 } });
    v4.version = 4;
    (v4 as { branches: unknown[] }).branches = [
      { id: 'a0', role: 'assistant', content: 'Old', createdAt: 2, parentId: 'u1', steps: [step()], requests: 2 },
    ];
    const migrated = migrateConversation(structuredClone(v4));
    assert.equal(migrated.version, 5);
    assert.equal(CONVERSATION_VERSION, 5);
    const conversation = parseConversation(v4);
    assert.ok(conversation);
    const reply = conversation.messages[1];
    assert.equal(reply.content, 'Let me look. It exports app.');
    assert.deepEqual(reply.trim, { limit: 8_000 }, 'what version 4 wrote stays');
    assert.equal(reply.steps, undefined, 'version 4 made no calls: steps found there were never made');
    assert.equal(reply.requests, undefined, 'nor billed more requests');
    assert.equal(conversation.toolAccess, undefined, 'nor chose an access level');
    assert.deepEqual(
      conversation.branches?.map((m) => [m.content, m.steps, m.requests]),
      [['Old', undefined, undefined]],
    );
  });

  it('reads a version 5 file whole: steps with every field, requests and the access level', () => {
    const sources = [{ title: 'Alan Turing', url: 'https://example.org/turing' }, { title: 'No link' }];
    const steps = [
      step(),
      step({ id: 's2', tool: 'axo_ask', input: { query: 'Turing' }, title: 'Asked AXO', offset: 12, sources }),
      step({
        id: 's3',
        tool: 'propose_edit',
        title: 'Proposed',
        status: 'refused',
        review: { file: 'a.ts', id: 'p1' },
      }),
    ];
    steps[2].offset = 12;
    const conversation = parseConversation(fileWith(steps, { requests: 3 }));
    assert.ok(conversation);
    assert.deepEqual(conversation.messages[1].steps, steps);
    assert.equal(conversation.messages[1].requests, 3);
    assert.equal(conversation.toolAccess, 'read');
  });

  it('hostile steps are read field by field: each wrong field dropped or replaced, the step kept when it can be', () => {
    const raw: unknown[] = [
      'not a step',
      null,
      [step()],
      { ...step(), tool: 42 }, // no tool's name: nothing to say what it was
      { ...step(), tool: '' },
      { ...step(), tool: 'x'.repeat(STEP_BOUNDS.shortChars + 1) },
      { tool: 'find_files' }, // every other field missing
      {
        ...step({ id: 'a1-step-7' }), // an id already taken
        input: ['not', 'an', 'object'],
        title: { text: 'no' },
        status: 'exploded',
        result: { text: 'no' },
        offset: 'late',
        sources: [{ title: 7 }, 'x', { title: 'Kept', url: 3 }],
        review: { file: 'a.ts' },
      },
      { ...step({ id: 'far' }), offset: 1e12, title: 'Line\none\t two ', status: 'failed' },
      { ...step({ id: 'back' }), offset: -5, input: null, review: { file: 1, id: 'p' } },
      { ...step({ id: 'nan' }), offset: Number.NaN, sources: 'all of them' },
    ];
    const reply = replyOf(fileWith(raw));
    const steps = reply.steps ?? [];
    assert.deepEqual(
      steps.map((s) => [s.id, s.tool, s.status, s.offset]),
      [
        ['a1-step-7', 'find_files', 'stopped', 0],
        ['a1-step-8', 'read_file', 'stopped', 0],
        ['far', 'read_file', 'failed', reply.content.length],
        ['back', 'read_file', 'done', reply.content.length],
        ['nan', 'read_file', 'done', reply.content.length],
      ],
      'a missing or taken id is made from the message; an unknown status is stopped; offsets within the text, in order',
    );
    const [bare, wrong, far, back, nan] = steps;
    assert.deepEqual(bare.input, {});
    assert.equal(bare.title, '`find_files`', 'no title: the tool names itself');
    assert.equal(bare.result, undefined);
    assert.deepEqual(wrong.input, {});
    assert.equal(wrong.title, '`read_file`');
    assert.equal(wrong.result, undefined);
    assert.deepEqual(wrong.sources, [{ title: 'Kept' }]);
    assert.equal(wrong.review, undefined);
    assert.equal(far.title, 'Line one two', 'a title is one line');
    assert.deepEqual(back.input, {});
    assert.equal(back.review, undefined);
    assert.equal(nan.sources, undefined);
    const polluted = JSON.parse('{"path": "a.ts", "__proto__": {"polluted": true}}') as Record<string, unknown>;
    const [kept] = replyOf(fileWith([step({ input: polluted })])).steps ?? [];
    assert.deepEqual(kept.input, { path: 'a.ts' });
    assert.equal(Object.getPrototypeOf(kept.input), Object.prototype, 'an input keeps the prototype of an object');
    assert.equal(replyOf(fileWith('steps')).steps, undefined, 'not a list: no steps');
    assert.equal(replyOf(fileWith([])).steps, undefined, 'an empty list: no steps');
  });

  it('requests is a whole number of at least one, the access level one of the levels; else each is dropped', () => {
    for (const bad of [0, -1, 1.5, '3', Number.NaN, Number.MAX_SAFE_INTEGER + 2, null, true]) {
      assert.equal(replyOf(fileWith(undefined, { requests: bad })).requests, undefined, String(bad));
    }
    assert.equal(replyOf(fileWith(undefined, { requests: 4 })).requests, 4);
    for (const bad of ['all', 'READ', 1, null, ['read']]) {
      assert.equal(parseConversation({ ...fileWith(undefined), toolAccess: bad })?.toolAccess, undefined, String(bad));
    }
    for (const level of ['none', 'axo', 'read', 'edit']) {
      assert.equal(parseConversation({ ...fileWith(undefined), toolAccess: level })?.toolAccess, level);
    }
    const prompt = parseConversation({
      ...fileWith(undefined),
      messages: [{ id: 'u1', role: 'user', content: 'Hi', createdAt: 1, steps: [step()], requests: 2 }],
    })?.messages[0];
    assert.deepEqual([prompt?.steps, prompt?.requests], [undefined, undefined], 'a prompt calls no tools');
  });

  it('a step still running in a file is stopped: its reply was interrupted and nothing resumes it', () => {
    const running = [step({ status: 'done' }), step({ id: 's2', status: 'running', result: undefined })];
    const reply = replyOf(fileWith(running, { status: 'streaming' }));
    assert.equal(reply.status, 'interrupted');
    assert.deepEqual(
      reply.steps?.map((s) => s.status),
      ['done', 'stopped'],
    );
    const kept = replyOf(fileWith(running, { status: 'streaming' }), true);
    assert.deepEqual(
      kept.steps?.map((s) => s.status),
      ['done', 'running'],
      'another window still writing the reply: a merge sees its call running',
    );
    const done = replyOf(fileWith(running, { status: 'done' }), true);
    assert.deepEqual(
      done.steps?.map((s) => s.status),
      ['done', 'stopped'],
      'a reply that ended has no call running, whoever reads it',
    );
  });

  it(`keeps ${STEP_BOUNDS.resultChars} characters of a result, saying how many it left out; reading it again changes nothing`, () => {
    const whole = `${'a'.repeat(9_999)}😀${'b'.repeat(10_000)}`;
    const kept = storedResult(whole);
    assert.ok(kept.length <= STEP_BOUNDS.resultChars, `${kept.length}`);
    const note = /\n\[… (\d+) more characters of this result were not kept with the conversation\]$/.exec(kept);
    assert.ok(note, kept.slice(-120));
    const start = kept.slice(0, note.index);
    assert.ok(whole.startsWith(start));
    assert.equal(Number(note[1]), whole.length - start.length, 'the sentence counts what was left out');
    assert.equal(storedResult(kept), kept, 'a kept result is kept as it is');
    const pair = storedResult('x'.repeat(STEP_BOUNDS.resultChars - 80) + '😀'.repeat(100));
    assert.doesNotMatch(pair, /[\uD800-\uDBFF]\n/, 'no half of a character');
    assert.equal(storedResult('short'), 'short');
    const reply = replyOf(fileWith([step({ result: whole })]));
    assert.equal(reply.steps?.[0].result, kept, 'a file is read within the budget');
  });

  it(`bounds a reply to ${STEP_BOUNDS.steps} steps, an input to its entries that fit, a title and its sources`, () => {
    const many = Array.from({ length: STEP_BOUNDS.steps + 50 }, (_, i) => step({ id: `s${i}` }));
    assert.equal(replyOf(fileWith(many)).steps?.length, STEP_BOUNDS.steps);
    const [read] = replyOf(
      fileWith([
        step({
          input: { path: 'a.ts', text: 'x'.repeat(STEP_BOUNDS.inputChars), startLine: 3 },
          title: 'T'.repeat(STEP_BOUNDS.titleChars * 3),
          sources: Array.from({ length: STEP_BOUNDS.sources * 2 }, (_, i) => ({ title: `S${i}` })),
        }),
      ]),
    ).steps!;
    assert.deepEqual(read.input, { path: 'a.ts', startLine: 3 }, 'the entry that does not fit is left out');
    assert.equal(read.title.length, STEP_BOUNDS.titleChars);
    assert.ok(read.title.endsWith('…'));
    assert.equal(read.sources?.length, STEP_BOUNDS.sources);
  });

  it('the store writes steps within the budget and reads them back after a reload, a running one stopped', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chat-steps-'));
    try {
      const conversation = parseConversation(fileWith([]))!;
      const reply = conversation.messages[1];
      reply.status = 'streaming';
      reply.requests = 2;
      reply.steps = [step({ result: 'r'.repeat(20_000) }), step({ id: 's2', status: 'running', result: undefined })];
      const encoder = new ConversationEncoder();
      const written = JSON.parse(Buffer.concat(encoder.encode(conversation, 'r1')).toString('utf8')) as Conversation;
      const stored = written.messages[1].steps!;
      assert.equal(stored[0].result, storedResult('r'.repeat(20_000)), 'the file keeps the budget');
      assert.equal(stored[1].status, 'running', 'the reply is still written: its call runs');
      assert.equal(reply.steps[0].result?.length, 20_000, 'the reply on screen keeps what ALPHA was sent');
      const store = new ConversationStore(dir, silentLogger);
      await store.save(conversation);
      const loaded = await new ConversationStore(dir, silentLogger).load(ID);
      assert.ok(loaded);
      const back = loaded.messages[1];
      assert.deepEqual(
        [back.status, back.requests, back.steps?.map((s) => s.status), loaded.toolAccess],
        ['interrupted', 2, ['done', 'stopped'], 'read'],
      );
      assert.equal(back.steps?.[0].result, stored[0].result);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads many steps with huge results in linear time', () => {
    // Adversarial: every step over every bound, ids that collide, offsets running backwards.
    const make = (n: number) =>
      fileWith(
        Array.from({ length: n }, (_, i) => ({
          id: 'same',
          tool: 'read_file',
          input: { a: 'x'.repeat(5_000), b: [1, 2, 3] },
          title: 't '.repeat(400),
          status: 'running',
          result: 'r'.repeat(20_000),
          offset: n - i,
          sources: Array.from({ length: 60 }, () => ({ title: 's' })),
        })),
      );
    assertGrowth('parseConversation of many steps', make, (file) => parseConversation(file), { n: 20 });
    assertGrowth(
      'parseSteps of a few long replies',
      (n) => Array.from({ length: n }, () => step({ result: 'r'.repeat(50_000) })),
      (steps) => parseSteps(steps, { id: 'a', content: 'x', streaming: false }),
      { n: 25 },
    );
  });
});
