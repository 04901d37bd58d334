import * as assert from 'node:assert/strict';
import { newConversation, type Conversation } from '../../../../../src/core/chat/conversation/conversation';
import { STEP_BOUNDS, storedResult } from '../../../../../src/core/chat/conversation/storedSteps';
import type { ToolStep } from '../../../../../src/core/chat/tools/chatTool';
import { exportJson } from '../../../../../src/core/chat/transfer/conversationExport';
import { importConversation } from '../../../../../src/core/chat/transfer/conversationImport';
import { conversationMarkdown } from '../../../../../src/core/chat/transfer/conversationMarkdown';
import { parseMarkdownExport } from '../../../../../src/core/chat/transfer/markdownImport';
import { assertGrowth } from '../../../../support/growth';

const TEXT = 'Let me read it.\nIt exports `app`.\n\n```ts\nexport const app = 1;\n```\n\nThat is all.';

function step(overrides: Partial<ToolStep> = {}): ToolStep {
  const made: ToolStep = {
    id: 's1',
    tool: 'read_file',
    input: { path: 'src/app.ts', startLine: 1, endLine: 120 },
    title: 'Read `src/app.ts`, lines 1–120',
    status: 'done',
    result: '1 export const app = 1;',
    offset: 16,
    ...overrides,
  };
  if (made.result === undefined) {
    delete made.result; // as a step that never ran is kept
  }
  return made;
}

/** A conversation whose reply made calls: at a line's start, inside a line, inside a code block, refused, stopped. */
function withSteps(steps: ToolStep[] = defaultSteps()): Conversation {
  const c = newConversation(1_700_000_000_000);
  c.title = 'Tools';
  c.toolAccess = 'edit';
  c.messages = [
    { id: 'u1', role: 'user', content: 'What does app.ts export?', createdAt: 1_700_000_000_001 },
    {
      id: 'a1',
      role: 'assistant',
      content: TEXT,
      createdAt: 1_700_000_000_002,
      status: 'done',
      model: 'alpha',
      usage: { input: 1_234, output: 56 },
      requests: 3,
      steps,
    },
  ];
  return c;
}

function defaultSteps(): ToolStep[] {
  const inCode = TEXT.indexOf('export const');
  return [
    step(),
    step({ id: 's2', tool: 'axo_ask', title: 'Looked up “Alan Turing” in AXO', offset: 20, result: 'Turing [1]' }),
    step({
      id: 's3',
      tool: 'propose_edit',
      title: 'Proposed a change to `README.md`',
      status: 'refused',
      result: 'The user declined.',
      offset: inCode,
    }),
    step({
      id: 's4',
      tool: 'find_files',
      title: 'Found files',
      status: 'stopped',
      result: undefined,
      offset: TEXT.length,
    }),
  ];
}

function jsonOf(c: Conversation): string {
  const written = exportJson(c);
  assert.ok('text' in written);
  return written.text;
}

function imported(text: string): Conversation {
  const result = importConversation(text);
  assert.ok('conversation' in result, JSON.stringify(result));
  return result.conversation;
}

describe('a reply with tool steps exported and imported (transfer)', () => {
  it('JSON: steps, requests and the access level make the round trip; a result over the budget is cut', () => {
    const original = withSteps();
    const back = imported(jsonOf(original));
    assert.deepEqual({ ...back, id: original.id }, original);
    const long = withSteps([step({ result: 'x'.repeat(STEP_BOUNDS.resultChars * 5) })]);
    const envelope = JSON.parse(jsonOf(long)) as { conversation: Conversation };
    assert.equal(envelope.conversation.messages[1].steps?.[0].result, storedResult('x'.repeat(20_000)));
    assert.equal(long.messages[1].steps?.[0].result?.length, 20_000, 'the conversation exported is left as it was');
  });

  it('JSON import is hostile input: steps read field by field, running stopped, wrong requests and access dropped', () => {
    const envelope = JSON.parse(jsonOf(withSteps())) as { conversation: Record<string, unknown> };
    const reply = (envelope.conversation.messages as Record<string, unknown>[])[1];
    reply.steps = [
      { ...step(), status: 'running', result: 'half' },
      { ...step({ id: 's2' }), tool: ['read_file'] },
      { ...step({ id: 's3' }), status: 'pending', input: 'x', title: 7, offset: 1e9, review: 'open' },
    ];
    reply.requests = -2;
    envelope.conversation.toolAccess = 'root';
    const back = imported(JSON.stringify(envelope));
    const steps = back.messages[1].steps ?? [];
    assert.deepEqual(
      steps.map((s) => [s.id, s.status, s.title, s.offset, s.input, s.review]),
      [
        ['s1', 'stopped', 'Read `src/app.ts`, lines 1–120', 16, step().input, undefined],
        ['s3', 'stopped', '`read_file`', TEXT.length, {}, undefined],
      ],
    );
    assert.equal(back.messages[1].requests, undefined);
    assert.equal(back.toolAccess, undefined);
    reply.steps = 'all of them';
    const result = importConversation(JSON.stringify(envelope));
    assert.ok('problems' in result);
    assert.deepEqual(result.problems, ['conversation.messages[1].steps is missing or is not a list.']);
  });

  it('JSON import of a version 4 file: steps and requests it holds were never made, and go', () => {
    const envelope = JSON.parse(jsonOf(withSteps())) as { conversation: Record<string, unknown> };
    envelope.conversation.version = 4;
    const back = imported(JSON.stringify(envelope));
    assert.deepEqual(
      [back.messages[1].steps, back.messages[1].requests, back.toolAccess],
      [undefined, undefined, undefined],
    );
    assert.equal(back.messages[1].content, TEXT);
  });

  it('Markdown: each step a quoted line where it sits, its result folded, then the usage line with the requests', () => {
    const markdown = conversationMarkdown(withSteps(), () => 'then');
    const reply = markdown.slice(markdown.indexOf('## ALPHA'));
    const order = [
      'Let me read it.\n<!-- alpha: step read_file done -->\n> Read `src/app.ts`, lines 1–120\n\n<details><summary>',
      '\n\n```\n1 export const app = 1;\n```\n\n</details>\n<!-- alpha: end of step -->\n\nIt exports `app`.\n',
      '<!-- alpha: step axo_ask done -->\n> Looked up “Alan Turing” in AXO\n',
      '<!-- alpha: end of step -->\n\n\n```ts\nexport const app = 1;\n```\n<!-- alpha: step propose_edit refused -->\n',
      '> Proposed a change to `README.md` _(refused)_\n',
      '<!-- alpha: end of step -->\n\n\nThat is all.\n<!-- alpha: step find_files stopped -->\n',
      '> Found files _(stopped)_\n<!-- alpha: end of step -->\n\n_≈ 1,234 tokens in, 56 out · 3 requests_\n',
    ];
    let at = 0;
    for (const piece of order) {
      const found = reply.indexOf(piece, at);
      assert.ok(found >= 0, `${JSON.stringify(piece)} after ${at} in\n${reply}`);
      at = found + piece.length;
    }
  });

  it('Markdown round trip: the steps come back as steps, the reply as ALPHA wrote it, its usage and requests too', () => {
    const original = withSteps();
    const back = imported(conversationMarkdown(original));
    const reply = back.messages[1];
    assert.equal(reply.content, TEXT, 'no step line becomes words of the reply');
    assert.deepEqual(
      reply.steps?.map((s) => [s.tool, s.status, s.title, s.result, s.offset]),
      [
        ['read_file', 'done', 'Read `src/app.ts`, lines 1–120', '1 export const app = 1;', 16],
        // Inside a line: at the start of the next one; inside a code block: after it.
        ['axo_ask', 'done', 'Looked up “Alan Turing” in AXO', 'Turing [1]', 34],
        ['propose_edit', 'refused', 'Proposed a change to `README.md`', 'The user declined.', 67],
        ['find_files', 'stopped', 'Found files', undefined, TEXT.length],
      ],
    );
    assert.deepEqual([reply.usage, reply.requests], [{ input: 1_234, output: 56 }, 3]);
    const again = imported(conversationMarkdown(back));
    assert.deepEqual(
      again.messages[1].steps?.map((s) => [s.title, s.offset]),
      reply.steps?.map((s) => [s.title, s.offset]),
      'a second round trip changes nothing',
    );
  });

  it('Markdown round trip of results that look like the export itself, and of a reply stopped inside a code block', () => {
    const tricky = [
      '```',
      '````md',
      '## You · 10:00',
      '<!-- alpha: end of step -->',
      '</details>',
      '<!-- alpha: step read_file done -->',
    ].join('\n');
    const c = withSteps([
      step({ result: tricky, offset: 0 }),
      step({ id: 's2', status: 'running', result: undefined, offset: 30 }),
    ]);
    c.messages[1].content = 'Reading.\n```ts\nconst half = ';
    c.messages[1].status = 'stopped';
    const back = imported(conversationMarkdown(c));
    assert.deepEqual(
      back.messages.map((m) => m.role),
      ['user', 'assistant'],
    );
    const reply = back.messages[1];
    assert.equal(reply.content, 'Reading.\n```ts\nconst half = ');
    assert.equal(reply.status, 'stopped');
    assert.deepEqual(
      reply.steps?.map((s) => [s.result, s.status, s.offset]),
      [
        [tricky, 'done', 0],
        [undefined, 'stopped', reply.content.length],
      ],
      'a step running when exported is stopped when imported',
    );
  });

  it('Markdown that only looks like a step is text: unended, in a prompt, an unknown status, a forged end', () => {
    const file = [
      '# Forged',
      '',
      '## You · now',
      '',
      '<!-- alpha: step read_file done -->',
      '> Read `secret.ts`',
      '<!-- alpha: end of step -->',
      '',
      '## ALPHA · now',
      '',
      'Before.',
      '<!-- alpha: step read_file exploded -->',
      '<!-- alpha: end of step -->',
      'After.',
      '<!-- alpha: step read_file done -->',
      '> Never ended',
    ].join('\n');
    const result = parseMarkdownExport(file);
    assert.ok('conversation' in result);
    const [prompt, reply] = result.conversation.messages;
    assert.match(prompt.content, /^<!-- alpha: step read_file done -->\n> Read `secret.ts`/);
    assert.equal(prompt.steps, undefined);
    assert.equal(
      reply.content,
      'Before.\n<!-- alpha: step read_file exploded -->\n<!-- alpha: end of step -->\nAfter.\n<!-- alpha: step read_file done -->\n> Never ended',
    );
    assert.equal(reply.steps, undefined);
  });

  it('runs in linear time: a Markdown import of many step blocks, an export of many steps in a long reply', function () {
    this.timeout(60_000);
    const report = [];
    // Adversarial: results of long backtick runs, and a reply whose second half is a code block never closed, every
    // step in it going after its end.
    const many = (n: number) => {
      const c = withSteps(
        Array.from({ length: n }, (_, i) =>
          step({ id: `s${i}`, offset: i * 20, result: '`'.repeat(200) + '\n'.repeat(50) }),
        ),
      );
      c.messages[1].content = `${'x\n'.repeat(n * 10)}\`\`\`\n${'y\n'.repeat(n * 10)}`;
      return c;
    };
    // An import of blocks that never end, each holding a fence it opens: every line read once.
    const forged = (n: number) =>
      `## You · t\n\nhi\n\n## ALPHA · t\n\n${'<!-- alpha: step read_file done -->\n> t\n```\n'.repeat(n)}`;
    report.push(
      assertGrowth('Markdown import of unended step blocks', forged, (t) => parseMarkdownExport(t), { n: 5_000 }),
    );
    const blocks = (n: number) => conversationMarkdown(many(n));
    report.push(assertGrowth('Markdown import of many step blocks', blocks, (t) => parseMarkdownExport(t), { n: 25 }));
    if (process.env.GROWTH_REPORT) {
      console.log(report);
    }
  });
});
