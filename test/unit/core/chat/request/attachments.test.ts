import * as assert from 'node:assert/strict';
import {
  MAX_ATTACHMENT_BYTES,
  fuzzyScore,
  looksBinary,
  plainTerminalText,
  rankPaths,
  refusal,
} from '../../../../../src/core/chat/request/attachments';

describe('chat core: attachments (src/core/chat/request/attachments)', () => {
  it('refuses binary and huge files with the reason; text is accepted', () => {
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    assert.match(refusal('logo.png', png) ?? '', /logo\.png is a binary file/);
    const huge = new Uint8Array(MAX_ATTACHMENT_BYTES + 1).fill(0x61);
    assert.match(refusal('dump.log', huge) ?? '', /dump\.log is too large to attach \(512 KB\b.*at most 512 KB\)/);
    assert.equal(refusal('notes.md', Buffer.from('# Notes\n\nÜber alles. \x1b[1mbold\x1b[0m\n')), undefined);
    assert.equal(looksBinary(Buffer.from('tabs\tand\r\nlines\n')), false);
    assert.equal(looksBinary(Uint8Array.from({ length: 200 }, (_, i) => (i % 2 ? 1 : 65))), true, 'mostly control');
  });

  it('fuzzy file search: characters in order, the file name and word starts first', () => {
    const paths = [
      'src/core/chat/conversation/conversation.ts',
      'docs/notes.md',
      'notes/old/readme.md',
      'src/nothing.ts',
    ];
    assert.deepEqual(rankPaths('notes', paths, 10).slice(0, 1), ['docs/notes.md']);
    assert.deepEqual(rankPaths('conv', paths, 10), ['src/core/chat/conversation/conversation.ts']);
    assert.equal(fuzzyScore('xyz', 'src/a.ts'), undefined);
    assert.ok((fuzzyScore('cts', 'src/core/chat/conversation/conversation.ts') ?? -1) >= 0, 'a subsequence matches');
    assert.deepEqual(rankPaths('', paths, 2).length, 2, 'nothing typed lists files');
  });

  it('terminal output loses its colours, titles and shell integration marks', () => {
    const raw = '\x1b]633;C\x07\x1b[32m✓ 12 passed\x1b[0m\r\n\x1b]0;title\x07\x1b[1;31mFAIL\x1b[0m done\r\n';
    assert.equal(plainTerminalText(raw), '✓ 12 passed\nFAIL done\n');
  });
});
