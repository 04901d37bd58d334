import * as assert from 'node:assert/strict';
import { fenceFor, parseCodeBlocks, pickCodeBlock, streamingCodeBlock } from '../../../../src/core/assist/codeBlocks';
import { fenceMatches, fenceTag, languageInfo } from '../../../../src/core/assist/languages';

describe('assist code blocks', () => {
  describe('parseCodeBlocks', () => {
    it('finds backtick and tilde blocks in order, with info strings and code', () => {
      const md = [
        'Intro',
        '```ts',
        'const a = 1;',
        '```',
        'Between',
        '~~~ python title="x.py" ',
        'print(1)',
        '~~~',
        '```',
        'plain',
        '```',
      ].join('\n');
      assert.deepEqual(parseCodeBlocks(md), [
        { info: 'ts', code: 'const a = 1;', closed: true },
        { info: 'python title="x.py"', code: 'print(1)', closed: true },
        { info: '', code: 'plain', closed: true },
      ]);
    });

    it('normalises CRLF and CR line ends', () => {
      assert.deepEqual(parseCodeBlocks('```js\r\na\r\nb\r```'), [{ info: 'js', code: 'a\nb', closed: true }]);
    });

    it('a closing fence must be the same character and at least as long', () => {
      const md = ['````md', '```', 'inner', '~~~~', '```', '`````'].join('\n');
      assert.deepEqual(parseCodeBlocks(md), [{ info: 'md', code: '```\ninner\n~~~~\n```', closed: true }]);
      const tilde = ['~~~', '```', '~~', '~~~~'].join('\n');
      assert.deepEqual(parseCodeBlocks(tilde), [{ info: '', code: '```\n~~', closed: true }]);
    });

    it('a closing fence takes no info string', () => {
      assert.deepEqual(parseCodeBlocks('```\na\n```js\nb\n```'), [{ info: '', code: 'a\n```js\nb', closed: true }]);
    });

    it('a backtick fence with a backtick in its info string is not a fence', () => {
      assert.deepEqual(parseCodeBlocks('```a`b\nnot code\n```ts\ncode\n```'), [
        { info: 'ts', code: 'code', closed: true },
      ]);
      assert.deepEqual(parseCodeBlocks('~~~a`b\ncode\n~~~'), [{ info: 'a`b', code: 'code', closed: true }]);
    });

    it('an indented fence (up to three spaces) strips that much indentation from its lines', () => {
      const md = ['  ```ts', '  if (x) {', '    y();', ' }', '  ```'].join('\n');
      assert.deepEqual(parseCodeBlocks(md), [{ info: 'ts', code: 'if (x) {\n  y();\n}', closed: true }]);
      assert.deepEqual(parseCodeBlocks('    ```ts\n    x\n    ```'), [], 'four spaces is an indented code block');
    });

    it('an unclosed last block runs to the end and says so', () => {
      assert.deepEqual(parseCodeBlocks('Text\n```ts\nconst a = 1;\nconst b'), [
        { info: 'ts', code: 'const a = 1;\nconst b', closed: false },
      ]);
      assert.deepEqual(parseCodeBlocks('```'), [{ info: '', code: '', closed: false }]);
    });

    it('keeps empty lines and an empty block', () => {
      assert.deepEqual(parseCodeBlocks('```\n\na\n\n```\n```\n```'), [
        { info: '', code: '\na\n', closed: true },
        { info: '', code: '', closed: true },
      ]);
    });

    it('finds nothing in prose and inline code', () => {
      assert.deepEqual(parseCodeBlocks('Use `x` and ``y``; no blocks here.'), []);
    });
  });

  describe('pickCodeBlock', () => {
    const reply = ['```python', 'py()', '```', '```', 'untagged()', '```', '```typescript', 'ts()', '```'].join('\n');

    it('takes the first block tagged with the file’s language, by any of its fence names', () => {
      assert.equal(pickCodeBlock(reply, 'typescript'), 'ts()');
      assert.equal(pickCodeBlock(reply, 'python'), 'py()');
      assert.equal(pickCodeBlock('```TS {1,3}\nupper()\n```', 'typescript'), 'upper()', 'case and attributes');
      assert.equal(pickCodeBlock('```py\na()\n```', 'python'), 'a()');
      assert.equal(pickCodeBlock('```jsx\na()\n```', 'javascriptreact'), 'a()');
    });

    it('falls back to the first untagged block, never to another language', () => {
      assert.equal(pickCodeBlock(reply, 'go'), 'untagged()');
      assert.equal(pickCodeBlock('```python\npy()\n```', 'typescript'), undefined);
    });

    it('ignores an unclosed block and prose-only replies', () => {
      assert.equal(pickCodeBlock('```ts\nhalf', 'typescript'), undefined);
      assert.equal(pickCodeBlock('```ts\nwhole\n```\n```ts\nhalf', 'typescript'), 'whole');
      assert.equal(pickCodeBlock('No code, sorry.', 'typescript'), undefined);
    });

    it('matches a language id itself even when it is not in the table', () => {
      assert.equal(pickCodeBlock('```zig\nconst x = 1;\n```', 'zig'), 'const x = 1;');
    });
  });

  describe('streamingCodeBlock', () => {
    it('returns the open block without its partial last line', () => {
      assert.deepEqual(streamingCodeBlock('Sure:\n```ts\nline1\nline2\nli', 'typescript'), {
        info: 'ts',
        code: 'line1\nline2',
        closed: false,
      });
    });

    it('keeps the last line once its line end arrived', () => {
      assert.equal(streamingCodeBlock('```ts\nline1\nline2\n', 'typescript')?.code, 'line1\nline2');
      assert.equal(streamingCodeBlock('```ts\nline1\n', 'typescript')?.code, 'line1');
    });

    it('gives nothing of a block whose first line is still arriving', () => {
      assert.equal(streamingCodeBlock('```ts\nconst', 'typescript')?.code, '');
      assert.equal(streamingCodeBlock('```ts', 'typescript')?.code, '');
    });

    it('returns a closed block whole, and works on tilde fences', () => {
      assert.deepEqual(streamingCodeBlock('~~~js\na\nb\n~~~\nDone', 'javascript'), {
        info: 'js',
        code: 'a\nb',
        closed: true,
      });
      assert.equal(streamingCodeBlock('~~~js\na\nb', 'javascript')?.code, 'a');
    });

    it('is undefined before any block of the language (or untagged) started', () => {
      assert.equal(streamingCodeBlock('Thinking about it…', 'typescript'), undefined);
      assert.equal(streamingCodeBlock('```python\nx = 1\n', 'typescript'), undefined);
    });

    it('grows monotonically as a reply arrives character by character', () => {
      const reply = 'Here:\n```ts\nconst a = 1;\nconst b = 2;\n```\nDone.';
      let previous = '';
      for (let i = 0; i <= reply.length; i++) {
        const code = streamingCodeBlock(reply.slice(0, i), 'typescript')?.code ?? '';
        assert.ok(code.startsWith(previous), `at ${i}: "${code}" does not extend "${previous}"`);
        previous = code;
      }
      assert.equal(previous, pickCodeBlock(reply, 'typescript'));
    });
  });

  describe('fenceFor', () => {
    it('is three backticks, or one longer than the longest backtick run', () => {
      assert.equal(fenceFor('plain'), '```');
      assert.equal(fenceFor('a `b` c'), '```');
      assert.equal(fenceFor('```'), '````');
      assert.equal(fenceFor('x ````` y ``` z'), '``````');
    });
  });

  describe('languages', () => {
    it('fenceTag is the first fence name, the id itself for unknown ids, "text" for none', () => {
      assert.equal(fenceTag('typescript'), 'ts');
      assert.equal(fenceTag('shellscript'), 'bash');
      assert.equal(fenceTag('csharp'), 'csharp');
      assert.equal(fenceTag('Zig'), 'zig');
      assert.equal(fenceTag(''), 'text');
    });

    it('fenceMatches reads the first word only, case-insensitively', () => {
      assert.ok(fenceMatches('Python title="a.py"', 'python'));
      assert.ok(fenceMatches('ts{1,2}', 'typescript'));
      assert.ok(fenceMatches('c#', 'csharp'));
      assert.ok(!fenceMatches('', 'typescript'));
      assert.ok(!fenceMatches('javascript', 'typescript'));
      assert.ok(!fenceMatches('text ts', 'typescript'));
    });

    it('languageInfo: names, test frameworks (React variants take their base’s), neutral for unknown ids', () => {
      assert.equal(languageInfo('typescriptreact').name, 'TypeScript React');
      assert.equal(languageInfo('typescriptreact').testFramework, languageInfo('typescript').testFramework);
      assert.equal(languageInfo('go').testFramework, 'the standard testing package, table-driven');
      assert.equal(languageInfo('PYTHON').name, 'Python');
      const unknown = languageInfo('Zig');
      assert.equal(unknown.name, 'Zig');
      assert.deepEqual(unknown.fences, ['zig']);
      assert.equal(unknown.testFramework, undefined);
      assert.equal(languageInfo('').name, 'plain text');
    });
  });
});
