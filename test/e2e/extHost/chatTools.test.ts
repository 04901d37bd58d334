import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ChatTool, ToolRunContext } from '../../../src/core/chat/tools/chatTool';
import { SEARCH_LINE_CHARS, SEARCH_MAX_MATCHES } from '../../../src/core/chat/tools/textSearch';
import { silentLogger } from '../../../src/core/logger';
import { PROPOSAL_SCHEME, ProposalContentProvider } from '../../../src/features/assist/proposalContentProvider';
import { ProposalReview } from '../../../src/features/assist/proposalReview';
import { ChatToolboxImpl } from '../../../src/features/chat/tools/chatToolbox';
import { until } from '../../support/until';

/** A run's context: `answer` answers the secret question, every question asked is kept. */
function contextOf(answer = false): ToolRunContext & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    signal: new AbortController().signal,
    confirm: async (question: string) => {
      asked.push(question);
      return answer;
    },
  };
}

const proposalTabs = () =>
  vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .filter((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.scheme === PROPOSAL_SCHEME);

describe('chat tools: the workspace under the rules of #', () => {
  const ws = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath as string;
  const dir = path.join(ws ?? '', 'chat-tools');
  let outside: string;
  let trusted = true;
  let content: ProposalContentProvider;
  let review: ProposalReview;
  let toolbox: ChatToolboxImpl;
  const tool = (name: string): ChatTool => {
    const found = toolbox.tools('edit').find((t) => t.spec.name === name);
    assert.ok(found, `no tool ${name}`);
    return found;
  };

  before(function () {
    this.timeout(20_000);
    outside = fs.mkdtempSync(path.join(os.tmpdir(), 'aa-tools-outside-'));
    fs.writeFileSync(path.join(outside, 'outside.txt'), 'outside secret text\n');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(
      path.join(dir, 'inside.txt'),
      Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n') + '\n',
    );
    fs.writeFileSync(path.join(dir, '.gitignore'), 'ignored.txt\n');
    fs.writeFileSync(path.join(dir, 'ignored.txt'), 'git-ignored text\n');
    fs.symlinkSync(path.join(outside, 'outside.txt'), path.join(dir, 'link.txt'));
    fs.writeFileSync(path.join(dir, 'id_rsa'), '-----BEGIN OPENSSH PRIVATE KEY-----\nabc\n');
    fs.writeFileSync(path.join(dir, 'big.txt'), 'x'.repeat(600 * 1024));
    // 200 lines of 2,006 characters: under the 512 KB bound.
    const long = `${'a'.repeat(1000)}needle${'b'.repeat(1000)}`;
    fs.writeFileSync(path.join(dir, 'many.txt'), `${long}\n`.repeat(200));
    content = new ProposalContentProvider();
    review = new ProposalReview(content);
    toolbox = new ChatToolboxImpl({
      lookups: {
        lookup: async () => ({ kind: 'search', query: 'x', results: [] }),
        model: () => 'axo',
        keyAdvice: 'the key command',
      },
      review,
      log: silentLogger,
      isTrusted: () => trusted,
    });
  });

  after(async function () {
    this.timeout(20_000);
    await vscode.window.tabGroups.close(proposalTabs());
    toolbox.dispose();
    review.dispose();
    content.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(outside, { recursive: true, force: true });
  });

  it('reads a range of lines and says which of how many', async function () {
    this.timeout(20_000);
    const read = tool('read_file');
    const input = { path: 'chat-tools/inside.txt', start_line: 3, end_line: 5 };
    assert.equal(read.title(input), 'Read `chat-tools/inside.txt`, lines 3–5');
    const result = await read.run(input, contextOf());
    assert.equal(result.status, 'done', result.text);
    assert.match(result.text, /chat-tools\/inside\.txt, lines 3–5 of 10:\n```\w*\nline 3\nline 4\nline 5\n```/);
    assert.equal(result.title, 'Read `chat-tools/inside.txt`, lines 3–5');
  });

  it('refuses, in one sentence, an ignored file, a link out of the workspace and a file over 512 KB', async function () {
    this.timeout(20_000);
    const read = tool('read_file');
    const ignored = await read.run({ path: 'chat-tools/ignored.txt' }, contextOf());
    assert.equal(ignored.status, 'refused');
    assert.match(ignored.text, /^chat-tools\/ignored\.txt is not among the files .* ignore files leave it out\.$/);
    const link = await read.run({ path: 'chat-tools/link.txt' }, contextOf(true));
    assert.equal(link.status, 'refused');
    assert.match(link.text, /^chat-tools\/link\.txt is (a link that leads outside the workspace folders|not among)/);
    assert.ok(!link.text.includes('outside secret text'));
    const big = await read.run({ path: 'chat-tools/big.txt' }, contextOf());
    assert.equal(big.status, 'refused');
    assert.match(big.text, /too large/);
    const escape = await read.run({ path: `chat-tools/../../${path.basename(outside)}/outside.txt` }, contextOf());
    assert.equal(escape.status, 'refused');
  });

  it('asks before a secret-looking file, naming it; declined, ALPHA is told so', async function () {
    this.timeout(20_000);
    const context = contextOf(false);
    const result = await tool('read_file').run({ path: 'chat-tools/id_rsa' }, context);
    assert.equal(result.status, 'refused');
    assert.equal(result.text, 'The user declined to share chat-tools/id_rsa.');
    assert.equal(context.asked.length, 1);
    assert.match(context.asked[0], /chat-tools\/id_rsa/);
    const agreed = await tool('read_file').run({ path: 'chat-tools/id_rsa' }, contextOf(true));
    assert.equal(agreed.status, 'done');
    assert.match(agreed.text, /BEGIN OPENSSH PRIVATE KEY/);
  });

  it('searches within its bounds: 50 lines, each cut around the match; ignored and secret files not searched', async function () {
    this.timeout(30_000);
    const search = tool('search_text');
    const result = await search.run({ query: 'NEEDLE', include: 'chat-tools/**' }, contextOf());
    assert.equal(result.status, 'done', result.text);
    const rows = result.text.split('\n').filter((l) => l.startsWith('chat-tools/'));
    assert.equal(rows.length, SEARCH_MAX_MATCHES);
    assert.ok(
      rows.every((r) => r.startsWith('chat-tools/many.txt:') && r.length < SEARCH_LINE_CHARS + 40),
      rows[0],
    );
    assert.match(result.text, /cap of matches/);
    assert.equal(result.title, `Searched for \`NEEDLE\`: ${SEARCH_MAX_MATCHES} matches`);
    const hidden = await search.run({ query: 'git-ignored text' }, contextOf());
    assert.match(hidden.text, /No line holds/);
    const secret = await search.run({ query: 'OPENSSH' }, contextOf(true));
    assert.match(secret.text, /No line holds/);
  });

  it('finds files as # offers them', async function () {
    this.timeout(30_000);
    const result = await until(async () => {
      const found = await tool('find_files').run({ pattern: 'chat-tools/*.txt' }, contextOf());
      return found.text.includes('chat-tools/inside.txt') ? found : undefined;
    }, 'find_files does not list inside.txt');
    assert.equal(result.status, 'done');
    assert.ok(!result.text.includes('ignored.txt'), result.text);
  });

  it('offers only the AXO tools in an untrusted workspace, and each level its own', () => {
    const names = (access: 'none' | 'axo' | 'read' | 'edit') => toolbox.tools(access).map((t) => t.spec.name);
    trusted = false;
    try {
      assert.deepEqual(names('edit'), ['axo_ask', 'axo_search', 'axo_article']);
    } finally {
      trusted = true;
    }
    assert.deepEqual(names('none'), []);
    assert.deepEqual(names('axo'), ['axo_ask', 'axo_search', 'axo_article']);
    assert.ok(names('read').includes('read_file') && !names('read').includes('propose_edit'));
    assert.ok(names('edit').includes('propose_edit'));
  });

  it('proposes an edit: opens the review, returns at once, writes nothing; the review reopens by its id', async function () {
    this.timeout(30_000);
    const file = path.join(dir, 'inside.txt');
    const before = fs.readFileSync(file, 'utf8');
    const result = await tool('propose_edit').run(
      { path: 'chat-tools/inside.txt', edits: [{ search: 'line 3', replace: 'LINE THREE' }] },
      contextOf(),
    );
    assert.equal(result.status, 'done', result.text);
    assert.equal(
      result.text,
      'Proposed the change to chat-tools/inside.txt; the user reviews it and applies it or not.',
    );
    assert.equal(result.title, 'Proposed a change to `chat-tools/inside.txt` (Review)');
    assert.equal(result.review?.file, 'chat-tools/inside.txt');
    await until(async () => (proposalTabs().length ? true : undefined), 'no review diff opened');
    assert.equal(fs.readFileSync(file, 'utf8'), before, 'the file is unchanged');
    const open = vscode.workspace.textDocuments.find((d) => d.uri.fsPath === file);
    assert.ok(!open?.isDirty, 'the document is not changed either');
    assert.equal(await toolbox.openReview(result.review?.id ?? ''), true);
    const modified = (proposalTabs()[0].input as vscode.TabInputTextDiff).modified;
    await vscode.window.tabGroups.close(proposalTabs());
    // Closing the diff discards the review: its texts are dropped, and then it no longer reopens.
    await until(
      async () => (content.provideTextDocumentContent(modified).includes('no longer available') ? true : undefined),
      'closing the diff does not end the review',
    );
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(await toolbox.openReview(result.review?.id ?? ''), false);
    assert.equal(fs.readFileSync(file, 'utf8'), before, 'discarded: still unchanged');
    const ambiguous = await tool('propose_edit').run(
      { path: 'chat-tools/inside.txt', edits: [{ search: 'line 1', replace: 'x' }] },
      contextOf(),
    );
    assert.equal(ambiguous.status, 'refused');
    assert.match(ambiguous.text, /occurs more than once/);
  });
});
