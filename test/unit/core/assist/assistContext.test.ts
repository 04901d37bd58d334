import * as assert from 'node:assert/strict';
import {
  DEFAULT_WINDOW,
  MAX_SELECTION_CHARS,
  blockAround,
  buildCodeContext,
  displayPath,
  enclosingSymbolSpan,
  type DiagnosticInfo,
  type DocumentLines,
  type SymbolNode,
} from '../../../../src/core/assist/codeContext';
import { commonIndent, fitProposal, sameCode } from '../../../../src/core/assist/proposalText';

function doc(lines: string[]): DocumentLines {
  return { lineCount: lines.length, lineText: (n) => lines[n] };
}

/** `count` lines named `line 0`, `line 1`… */
function numbered(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `line ${i}`);
}

function diagnostic(startLine: number, startCharacter: number, endLine = startLine, message = 'm'): DiagnosticInfo {
  return { message, severity: 'error', startLine, startCharacter, endLine, endCharacter: startCharacter + 1 };
}

describe('assist code context', () => {
  describe('buildCodeContext', () => {
    const input = {
      languageId: 'typescript',
      path: 'a.ts',
      selectionText: 'line 50\nline 51',
      span: { start: 50, end: 51 },
    };

    it('carries the language, path and selection as given', () => {
      const ctx = buildCodeContext(doc(numbered(100)), input);
      assert.equal(ctx.languageId, 'typescript');
      assert.equal(ctx.path, 'a.ts');
      assert.deepEqual(ctx.selection, { text: 'line 50\nline 51', startLine: 50, endLine: 51 });
    });

    it('takes up to 30 lines on each side by default, and says when it stopped early', () => {
      assert.deepEqual(DEFAULT_WINDOW, { lines: 30, chars: 3000 });
      const ctx = buildCodeContext(doc(numbered(100)), input);
      assert.equal(ctx.before.startLine, 20);
      assert.deepEqual(ctx.before.lines, numbered(50).slice(20));
      assert.equal(ctx.before.clipped, true);
      assert.equal(ctx.after.startLine, 52);
      assert.deepEqual(ctx.after.lines, numbered(82).slice(52));
      assert.equal(ctx.after.clipped, true);
    });

    it('is not clipped when the file ends within the window', () => {
      const ctx = buildCodeContext(doc(numbered(10)), {
        ...input,
        selectionText: 'line 3',
        span: { start: 3, end: 3 },
      });
      assert.deepEqual(ctx.before, { startLine: 0, lines: ['line 0', 'line 1', 'line 2'], clipped: false });
      assert.deepEqual(ctx.after, { startLine: 4, lines: numbered(10).slice(4), clipped: false });
    });

    it('an empty window at the start or the end of the file', () => {
      const lines = numbered(3);
      const ctx = buildCodeContext(doc(lines), {
        ...input,
        selectionText: lines.join('\n'),
        span: { start: 0, end: 2 },
      });
      assert.deepEqual(ctx.before, { startLine: 0, lines: [], clipped: false });
      assert.deepEqual(ctx.after, { startLine: 3, lines: [], clipped: false });
    });

    it('stops at the character limit, nearest lines first (a line counts with its line end)', () => {
      const lines = [
        'a'.repeat(9),
        'b'.repeat(9),
        'c'.repeat(9),
        'SELECTED',
        'd'.repeat(9),
        'e'.repeat(9),
        'f'.repeat(9),
      ];
      const ctx = buildCodeContext(
        doc(lines),
        { ...input, selectionText: 'SELECTED', span: { start: 3, end: 3 } },
        { lines: 30, chars: 20 },
      );
      assert.deepEqual(ctx.before, { startLine: 1, lines: ['b'.repeat(9), 'c'.repeat(9)], clipped: true });
      assert.deepEqual(ctx.after, { startLine: 4, lines: ['d'.repeat(9), 'e'.repeat(9)], clipped: true });
      const tight = buildCodeContext(
        doc(lines),
        { ...input, selectionText: 'SELECTED', span: { start: 3, end: 3 } },
        { lines: 30, chars: 19 },
      );
      assert.deepEqual(tight.before.lines, ['c'.repeat(9)]);
      assert.equal(tight.before.startLine, 2);
    });

    it('a single line longer than the limit leaves the window empty but clipped', () => {
      const lines = ['x'.repeat(5000), 'SELECTED', 'y'.repeat(5000)];
      const ctx = buildCodeContext(doc(lines), { ...input, selectionText: 'SELECTED', span: { start: 1, end: 1 } });
      assert.deepEqual(ctx.before, { startLine: 1, lines: [], clipped: true });
      assert.deepEqual(ctx.after, { startLine: 2, lines: [], clipped: true });
    });

    it('keeps only the diagnostics that touch the selected lines, sorted by position', () => {
      const diagnostics = [
        diagnostic(51, 4, 51, 'second line, later'),
        diagnostic(49, 0, 49, 'before'),
        diagnostic(51, 1, 51, 'second line, earlier'),
        diagnostic(45, 0, 50, 'spans into the selection'),
        diagnostic(52, 0, 52, 'after'),
        diagnostic(50, 2, 60, 'starts inside'),
      ];
      const ctx = buildCodeContext(doc(numbered(100)), { ...input, diagnostics });
      assert.deepEqual(
        ctx.diagnostics.map((d) => d.message),
        ['spans into the selection', 'starts inside', 'second line, earlier', 'second line, later'],
      );
    });

    it('has no diagnostics when none are given', () => {
      assert.deepEqual(buildCodeContext(doc(numbered(100)), input).diagnostics, []);
    });

    it('refuses a selection over the limit with a readable RangeError', () => {
      const big = 'x'.repeat(MAX_SELECTION_CHARS + 1);
      assert.throws(
        () => buildCodeContext(doc([big]), { ...input, selectionText: big, span: { start: 0, end: 0 } }),
        (error: unknown) =>
          error instanceof RangeError &&
          error.message === 'The selection is too large (120,001 characters); select at most 120,000.',
      );
      const limit = 'x'.repeat(MAX_SELECTION_CHARS);
      assert.doesNotThrow(() =>
        buildCodeContext(doc([limit]), { ...input, selectionText: limit, span: { start: 0, end: 0 } }),
      );
    });
  });

  describe('enclosingSymbolSpan', () => {
    const node = (kind: string, startLine: number, endLine: number, children: SymbolNode[] = []): SymbolNode => ({
      kind,
      startLine,
      endLine,
      children,
    });
    const symbols = [
      node('class', 0, 40, [
        node('property', 1, 1),
        node('method', 3, 20, [node('function', 8, 12)]),
        node('constructor', 22, 25),
      ]),
      node('function', 50, 60),
      node('variable', 70, 75),
      node('namespace', 80, 90, [node('interface', 82, 85)]),
    ];

    it('the innermost function-like symbol around the line', () => {
      assert.deepEqual(enclosingSymbolSpan(symbols, 10), { start: 8, end: 12 });
      assert.deepEqual(enclosingSymbolSpan(symbols, 5), { start: 3, end: 20 });
      assert.deepEqual(enclosingSymbolSpan(symbols, 22), { start: 22, end: 25 });
      assert.deepEqual(enclosingSymbolSpan(symbols, 60), { start: 50, end: 60 });
    });

    it('else the innermost class-like symbol', () => {
      assert.deepEqual(enclosingSymbolSpan(symbols, 1), { start: 0, end: 40 });
      assert.deepEqual(enclosingSymbolSpan(symbols, 83), { start: 82, end: 85 });
      assert.deepEqual(enclosingSymbolSpan(symbols, 88), { start: 80, end: 90 });
    });

    it('undefined outside any function or class (a variable does not count)', () => {
      assert.equal(enclosingSymbolSpan(symbols, 45), undefined);
      assert.equal(enclosingSymbolSpan(symbols, 72), undefined);
      assert.equal(enclosingSymbolSpan([], 0), undefined);
    });
  });

  describe('blockAround', () => {
    const lines = ['a', 'b', '', 'c', 'd', 'e', '  ', 'f'];

    it('the block of non-blank lines around the line', () => {
      assert.deepEqual(blockAround(doc(lines), 4), { start: 3, end: 5 });
      assert.deepEqual(blockAround(doc(lines), 0), { start: 0, end: 1 });
      assert.deepEqual(blockAround(doc(lines), 7), { start: 7, end: 7 });
    });

    it('the line itself when it is blank (white space counts as blank)', () => {
      assert.deepEqual(blockAround(doc(lines), 2), { start: 2, end: 2 });
      assert.deepEqual(blockAround(doc(lines), 6), { start: 6, end: 6 });
    });

    it('at most maxLines, grown on both sides of the line', () => {
      const long = numbered(100);
      const span = blockAround(doc(long), 50, 11);
      assert.equal(span.end - span.start + 1, 11);
      assert.ok(span.start <= 50 && span.end >= 50);
      assert.ok(Math.abs(50 - span.start - (span.end - 50)) <= 1, `centred: ${span.start}-${span.end}`);
      assert.deepEqual(blockAround(doc(long), 1, 11), { start: 0, end: 10 }, 'grows downwards at the top');
      assert.deepEqual(blockAround(doc(long), 98, 11), { start: 89, end: 99 }, 'grows upwards at the bottom');
      assert.equal(blockAround(doc(long), 50).end - blockAround(doc(long), 50).start + 1, 60, 'default 60');
    });
  });

  describe('displayPath', () => {
    const one = [{ name: 'app', path: '/home/me/app' }];
    const two = [...one, { name: 'lib', path: '/home/me/lib/' }];

    it('relative to the workspace folder', () => {
      assert.equal(displayPath('/home/me/app/src/a.ts', one), 'src/a.ts');
    });

    it('prefixed with the folder name when there are several folders', () => {
      assert.equal(displayPath('/home/me/lib/index.ts', two), 'lib/index.ts');
      assert.equal(displayPath('/home/me/app/a.ts', two), 'app/a.ts');
    });

    it('only the file name outside the workspace (no absolute path leaves the machine)', () => {
      assert.equal(displayPath('/etc/secret/config.ts', one), 'config.ts');
      assert.equal(displayPath('/home/me/application/x.ts', one), 'x.ts', 'a folder name prefix is not a parent');
      assert.equal(displayPath('Untitled-1', []), 'Untitled-1');
    });

    it('handles Windows separators', () => {
      assert.equal(displayPath('C:\\work\\app\\src\\a.ts', [{ name: 'app', path: 'C:\\work\\app' }]), 'src/a.ts');
      assert.equal(displayPath('D:\\other\\b.ts', [{ name: 'app', path: 'C:\\work\\app' }]), 'b.ts');
    });
  });

  describe('fitProposal', () => {
    it('restores the indentation the model dropped', () => {
      const original = '    foo() {\n      return 1;\n    }';
      const proposal = '/** Foo. */\nfoo() {\n  return 1;\n}';
      assert.equal(fitProposal(proposal, original, '\n'), '    /** Foo. */\n    foo() {\n      return 1;\n    }');
    });

    it('leaves blank lines blank and a correctly indented proposal as it is', () => {
      assert.equal(fitProposal('a()\n\nb()', '  x\n  y', '\n'), '  a()\n\n  b()');
      assert.equal(fitProposal('  a()\n  b()', '  x', '\n'), '  a()\n  b()');
      assert.equal(fitProposal('      deeper()', '  x', '\n'), '      deeper()', 'more indentation is kept');
    });

    it('adds only what is missing when the model kept part of the indentation', () => {
      assert.equal(fitProposal('  a()\n    b()', '    x', '\n'), '    a()\n      b()');
    });

    it('does not mix tabs into space indentation', () => {
      assert.equal(fitProposal(' a()', '\tx', '\n'), ' a()');
    });

    it('writes the document’s line ends', () => {
      assert.equal(fitProposal('a\nb\r\nc\rd', 'x', '\r\n'), 'a\r\nb\r\nc\r\nd');
      assert.equal(fitProposal('a\r\nb', '  x\r\n  y', '\n'), '  a\n  b');
      assert.equal(fitProposal('a\nb', '\tx\r\n\ty', '\r\n'), '\ta\r\n\tb');
    });
  });

  describe('sameCode and commonIndent', () => {
    it('sameCode ignores line-end style and trailing white space only', () => {
      assert.ok(sameCode('a  \r\nb\t\n', 'a\nb'));
      assert.ok(sameCode('\n  a\n', '  a'));
      assert.ok(!sameCode('a\nb', 'a\n  b'));
      assert.ok(!sameCode('  a\nb', 'a\nb'), "the first line's indentation counts");
      assert.ok(!sameCode('a', 'b'));
    });

    it('commonIndent is the shared leading white space of non-blank lines', () => {
      assert.equal(commonIndent(['    a', '  b', '', '      c']), '  ');
      assert.equal(commonIndent(['\t\ta', '\t b']), '\t');
      assert.equal(commonIndent(['a', '  b']), '');
      assert.equal(commonIndent(['', '   ']), '');
    });
  });
});
