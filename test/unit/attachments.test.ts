import * as assert from 'node:assert/strict';
import {
  MAX_ATTACHMENT_BYTES,
  fitAttachments,
  fuzzyScore,
  looksBinary,
  plainTerminalText,
  rankPaths,
  refusal,
} from '../../src/core/chat/attachments';
import type { ContextItem } from '../../src/core/chat/conversation';
import { estimateTokens } from '../../src/core/service/tokenEstimate';

function item(label: string, content: string): ContextItem {
  return { id: label, label, content, language: 'ts' };
}

function tokensOf(items: readonly ContextItem[]): number {
  return items.reduce((sum, i) => sum + estimateTokens(i.content) + 8, 0);
}

describe('chat core: attachments (src/core/chat/attachments)', () => {
  it('refuses binary and huge files with the reason; text is accepted', () => {
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    assert.match(refusal('logo.png', png) ?? '', /logo\.png is a binary file/);
    const huge = new Uint8Array(MAX_ATTACHMENT_BYTES + 1).fill(0x61);
    assert.match(refusal('dump.log', huge) ?? '', /dump\.log is too large to attach \(512 KB\b.*at most 512 KB\)/);
    assert.equal(refusal('notes.md', Buffer.from('# Notes\n\nÜber alles. \x1b[1mbold\x1b[0m\n')), undefined);
    assert.equal(looksBinary(Buffer.from('tabs\tand\r\nlines\n')), false);
    assert.equal(looksBinary(Uint8Array.from({ length: 200 }, (_, i) => (i % 2 ? 1 : 65))), true, 'mostly control');
  });

  it('the budget: attachments that fit are left alone', () => {
    const items = [item('a.ts', 'const a = 1;\n'), item('b.ts', 'const b = 2;\n')];
    const fit = fitAttachments(items, 1_000);
    assert.deepEqual(fit.items, items);
    assert.equal(fit.notice, undefined);
  });

  it('the budget: the largest attachment is trimmed at a line end to fit, visibly in its label, text and a notice', () => {
    const big = Array.from({ length: 2_000 }, (_, i) => `line ${i} of the big file`).join('\n');
    const items = [item('small.ts', 'const small = true;\n'), item('big.ts', big)];
    const available = 1_000;
    const fit = fitAttachments(items, available);
    assert.ok(tokensOf(fit.items) <= available, `${tokensOf(fit.items)} tokens fit in ${available}`);
    assert.equal(fit.items[0], items[0], 'the small one is untouched');
    assert.equal(fit.items[1].label, 'big.ts (trimmed)');
    assert.ok(fit.items[1].content.startsWith('line 0 of the big file\n'));
    assert.match(
      fit.items[1].content,
      /of the big file\n… \(trimmed to fit the context\)\n$/,
      'cut at a line end, marked',
    );
    assert.match(fit.notice ?? '', /Trimmed to fit the context \(1K tokens left for attachments\): big\.ts\./);
  });

  it('the budget: with no room at all every attachment is cut to its mark, and each is named', () => {
    const items = [item('one.ts', 'x'.repeat(4_000)), item('two.ts', 'y'.repeat(4_000))];
    const fit = fitAttachments(items, 0);
    assert.deepEqual(
      fit.items.map((i) => i.label),
      ['one.ts (trimmed)', 'two.ts (trimmed)'],
    );
    assert.match(fit.notice ?? '', /one\.ts/);
    assert.match(fit.notice ?? '', /two\.ts/);
  });

  it('fuzzy file search: characters in order, the file name and word starts first', () => {
    const paths = ['src/core/chat/conversation.ts', 'docs/notes.md', 'notes/old/readme.md', 'src/nothing.ts'];
    assert.deepEqual(rankPaths('notes', paths, 10).slice(0, 1), ['docs/notes.md']);
    assert.deepEqual(rankPaths('conv', paths, 10), ['src/core/chat/conversation.ts']);
    assert.equal(fuzzyScore('xyz', 'src/a.ts'), undefined);
    assert.ok((fuzzyScore('cts', 'src/core/chat/conversation.ts') ?? -1) >= 0, 'a subsequence matches');
    assert.deepEqual(rankPaths('', paths, 2).length, 2, 'nothing typed lists files');
  });

  it('terminal output loses its colours, titles and shell integration marks', () => {
    const raw = '\x1b]633;C\x07\x1b[32m✓ 12 passed\x1b[0m\r\n\x1b]0;title\x07\x1b[1;31mFAIL\x1b[0m done\r\n';
    assert.equal(plainTerminalText(raw), '✓ 12 passed\nFAIL done\n');
  });
});
