import * as assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { newConversation, type StoredMessage } from '../../../src/core/chat/conversation/conversation';
import { linkCitationMarkers } from '../../../src/core/chat/request/citations';
import { groundingQuery } from '../../../src/core/chat/request/grounding';
import { EXPORT_FORMAT } from '../../../src/core/chat/transfer/conversationExport';
import { importConversation } from '../../../src/core/chat/transfer/conversationImport';
import { conversationMarkdown } from '../../../src/core/chat/transfer/conversationMarkdown';
import { parseMarkdownExport } from '../../../src/core/chat/transfer/markdownImport';
import { IgnoreRules } from '../../../src/core/chat/workspace/workspaceIgnore';
import { assertGrowth } from '../../support/growth';

/**
 * The growth allowed where the larger input's strings leave the young generation: the collector adds up to about 4
 * times on a busy machine. Quadratic work still grows 64 times, and at these sizes the old readers also pass the
 * 2-second bound at 8n by minutes.
 */
const SPIKY = 32;

/** Runs `work` once and fails when it takes more than `ms`; returns what it gave. */
function within<T>(ms: number, what: string, work: () => T): T {
  const started = performance.now();
  const result = work();
  const took = performance.now() - started;
  assert.ok(took <= ms, `${what}: ${took.toFixed(0)} ms (at most ${ms})`);
  return result;
}

/** A grounded reply in a conversation, exported as Markdown (the path "Export as Markdown" takes). */
function exportedReply(content: string): string {
  const c = newConversation(1_700_000_000_000);
  const reply: StoredMessage = {
    id: 'a1',
    role: 'assistant',
    content,
    createdAt: 1_700_000_000_002,
    status: 'done',
    sources: [{ title: 'One', url: 'https://example.org/one' }],
  };
  c.messages = [{ id: 'u1', role: 'user', content: 'q', createdAt: 1_700_000_000_001 }, reply];
  return conversationMarkdown(c);
}

describe('Core readers of outside text run in linear time', function () {
  this.timeout(30_000);

  it('# applies a .gitignore line of many ** to a file 60 folders deep within 200 ms', () => {
    const rules = new IgnoreRules([{ dir: '', text: `**${'/a/**'.repeat(6)}/zz\n*.log\n` }]);
    const deep = `${'a/'.repeat(60)}b.txt`;
    const selection = within(200, 'the listing', () => rules.select([deep, 'x.log', 'y.txt'], 5_000, 1_000));
    assert.deepEqual(selection.kept, [0, 2], 'the other rules still apply');
    assert.equal(rules.skipped.length, 1, 'the line whose matching cannot be bounded is named');
    assert.match(rules.skipped[0].pattern, /^\*\*\/a\/\*\*/);
    assert.equal(rules.ignores('a/zz'), false, 'the skipped line ignores nothing');
  });

  it('# leaves out ignored files before its cap: an ignored .venv of 6,000 files leaves room for the rest', () => {
    const rules = new IgnoreRules([{ dir: '', text: '.venv/\n' }]);
    const paths = [
      ...Array.from({ length: 6_000 }, (_, i) => `.venv/lib/site-packages/p${i}.py`),
      'src/main.py',
      'README.md',
    ];
    const selection = within(1_000, '6,002 paths', () => rules.select(paths, 5_000, 1_000));
    assert.deepEqual(
      selection.kept.map((i) => paths[i]),
      ['src/main.py', 'README.md'],
    );
    const capped = rules.select(['a.txt', 'b.txt', 'c.txt'], 2, 1_000);
    assert.deepEqual(capped.kept, [0, 1], 'at most the cap');
    let now = 0;
    const slow = rules.select(['a.txt', 'b.txt', 'c.txt'], 10, 5, () => (now += 4));
    assert.equal(slow.unjudged, 2, 'past the budget the rest is left out, not offered unjudged');
    assert.equal(rules.select([`${'d/'.repeat(70)}x`], 10, 1_000).tooDeep, 1);
  });

  it('a Markdown import of a prompt of 200,000 blank lines', () => {
    const text = (n: number) => `## You · x\n${'\n'.repeat(n)}hi\n`;
    const read = within(1_500, '200,000 blank lines', () => parseMarkdownExport(text(200_000)));
    assert.ok('conversation' in read);
    assert.equal(read.conversation.messages[0].content, 'hi');
    assertGrowth('blank lines', text, (t) => parseMarkdownExport(t), { n: 40_000 });
  });

  it('a grounded reply of unclosed code spans, exported as Markdown', () => {
    const reply = (n: number) => '`[1] '.repeat(n);
    within(2_000, '`[1] × 60,000', () => exportedReply(reply(60_000)));
    assertGrowth('code spans', reply, (r) => linkCitationMarkers(r, 1), { n: 40_000, factor: SPIKY });
    assert.equal(
      linkCitationMarkers('a [1] `[1]` b [1]', 1),
      'a [\\[1\\]](#alpha-source-1) `[1]` b [\\[1\\]](#alpha-source-1)',
    );
  });

  it('a grounded prompt of fence openers each ended by \\r', () => {
    const prompt = (n: number) => '```\r'.repeat(n);
    within(2_000, '```\\r × 60,000', () => groundingQuery(prompt(60_000)));
    assertGrowth('fences and \\r', prompt, groundingQuery, { n: 40_000, rounds: 5, factor: SPIKY });
    assertGrowth('fences, no line end', (n) => '```x '.repeat(n), groundingQuery, { n: 20_000 });
    assert.equal(groundingQuery('What is\r```ts\rlet x = 1;\r```\rTypeScript `a`?'), 'What is TypeScript ?');
  });

  it('an import of millions of empty lists is refused before it is walked', () => {
    const text = `{"format":"x","conversation":{"messages":[${'[],'.repeat(4_000_000)}[]]}}`;
    const result = within(1_500, '4 million empty lists', () => importConversation(text));
    assert.ok('problems' in result);
    assert.match(result.problems[0], /not a conversation|more than/);
    const good = `{"format":"${EXPORT_FORMAT}","version":1,"conversation":{"messages":[${'[],'.repeat(4_000_000)}[]]}}`;
    const refused = within(1_500, 'the same, of the right format', () => importConversation(good));
    assert.ok('problems' in refused);
  });
});
