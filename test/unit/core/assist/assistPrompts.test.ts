import * as assert from 'node:assert/strict';
import {
  buildAssistPrompt,
  buildChatHandoff,
  buildCodeQuestionPrompt,
  buildDocumentPrompt,
  buildExplainPrompt,
  buildFixPrompt,
  buildRefactorPrompt,
  buildTestsPrompt,
  describeDiagnostic,
  selectionLabel,
  type AssistTask,
} from '../../../../src/core/assist/assistPrompts';
import { parseCodeBlocks } from '../../../../src/core/assist/codeBlocks';
import type { CodeContext, DiagnosticInfo } from '../../../../src/core/assist/codeContext';

const TYPE_ERROR: DiagnosticInfo = {
  message: "Type 'string' is not assignable\n  to type 'number'.",
  severity: 'error',
  startLine: 11,
  startCharacter: 8,
  endLine: 11,
  endCharacter: 13,
  source: 'ts',
  code: '2322',
};

/** A TypeScript selection on lines 11–13 (0-based 10–12) with two lines on each side. */
function context(overrides: Partial<CodeContext> = {}): CodeContext {
  return {
    languageId: 'typescript',
    path: 'src/math.ts',
    selection: { text: 'function add(a: number, b: number) {\n  return a + b;\n}', startLine: 10, endLine: 12 },
    before: { startLine: 8, lines: ["import { log } from './log';", ''], clipped: true },
    after: { startLine: 13, lines: ['', 'export { add };'], clipped: false },
    diagnostics: [],
    ...overrides,
  };
}

const TASKS: AssistTask[] = ['explain', 'document', 'refactor', 'tests', 'fix'];

describe('assist prompts', () => {
  describe('every task', () => {
    for (const task of TASKS) {
      it(`${task}: names the file, its language and the 1-based lines, and quotes the selection once`, () => {
        const prompt = buildAssistPrompt(task, context());
        assert.ok(prompt.includes('File: `src/math.ts` (TypeScript). Selected: lines 11–13.'), prompt);
        const blocks = parseCodeBlocks(prompt);
        const selected = blocks.filter((b) => b.code === context().selection.text);
        assert.equal(selected.length, 1, 'the selection is quoted exactly once');
        assert.equal(selected[0].info, 'ts');
        assert.ok(
          blocks.every((b) => b.closed),
          'every fence is closed',
        );
      });

      it(`${task}: carries the surrounding lines, labelled with their 1-based numbers`, () => {
        const prompt = buildAssistPrompt(task, context());
        assert.ok(prompt.includes('Code just before the selection (lines 9–10, for context only):'), prompt);
        assert.ok(prompt.includes('Code just after the selection (lines 14–15, for context only):'), prompt);
        const codes = parseCodeBlocks(prompt).map((b) => b.code);
        assert.ok(codes.includes("import { log } from './log';\n"));
        assert.ok(codes.includes('\nexport { add };'));
      });

      it(`${task}: with the selection attached, says so instead of quoting it`, () => {
        const prompt = buildAssistPrompt(task, context(), { attached: true });
        assert.ok(prompt.includes('The selected code is attached as `src/math.ts:11-13`.'), prompt);
        assert.ok(!prompt.includes('return a + b;'), 'the selected code is not in the prompt');
      });
    }

    it('leaves out empty surroundings and empty user words', () => {
      const prompt = buildExplainPrompt(
        context({
          before: { startLine: 0, lines: [], clipped: false },
          after: { startLine: 3, lines: [], clipped: false },
        }),
        '   ',
      );
      assert.ok(!prompt.includes('Code just before'));
      assert.ok(!prompt.includes('Code just after'));
      assert.ok(!prompt.includes('Their question'));
      assert.ok(!prompt.includes('\n\n\n'), 'no empty sections');
    });

    it('says "line N" for a one-line selection', () => {
      const prompt = buildAssistPrompt('fix', context({ selection: { text: 'x = 1', startLine: 4, endLine: 4 } }));
      assert.ok(prompt.includes('Selected: line 5.'));
      assert.ok(prompt.includes('new text of the selected line 5,'));
    });
  });

  describe('explain', () => {
    it('asks for a Markdown explanation and passes the question', () => {
      const prompt = buildExplainPrompt(context(), '  why the plus?  ');
      assert.ok(prompt.startsWith('Explain the selected code'));
      assert.ok(prompt.includes('Answer in Markdown.'));
      assert.ok(prompt.includes('Their question: why the plus?\n'));
      assert.ok(!prompt.includes('Reply with one'), 'explain asks for no replacement block');
    });

    it('lists the problems on the selection', () => {
      const prompt = buildExplainPrompt(context({ diagnostics: [TYPE_ERROR] }));
      assert.ok(prompt.includes('Problems reported on the selection:\n- error at 12:9–12:14 [ts 2322]'), prompt);
    });

    it('buildAssistPrompt passes the instruction as the question', () => {
      assert.equal(
        buildAssistPrompt('explain', context(), { instruction: 'what about overflow?' }),
        buildExplainPrompt(context(), 'what about overflow?'),
      );
    });
  });

  describe('document', () => {
    it('asks for comments in the language’s own style and no change to the code', () => {
      const prompt = buildDocumentPrompt(context());
      assert.ok(prompt.startsWith('Add documentation comments to the selected TypeScript code'));
      assert.ok(prompt.includes('JSDoc `/** … */` comments'));
      assert.ok(prompt.includes('Do not change the code itself'));
      assert.ok(
        prompt.includes('Reply with one ```ts block holding the complete new text of the selected lines 11–13'),
      );
    });

    it('uses each language’s style (Python docstrings, Rust ///)', () => {
      const python = buildDocumentPrompt(context({ languageId: 'python' }));
      assert.ok(python.includes('PEP 257 docstrings'));
      assert.ok(python.includes('```python block'));
      const rust = buildDocumentPrompt(context({ languageId: 'rust' }));
      assert.ok(rust.includes('`///` doc comments in Markdown'));
      assert.ok(rust.includes('```rust block'));
    });

    it('passes what the user adds', () => {
      assert.ok(buildDocumentPrompt(context(), 'in German').includes('The user adds: in German'));
    });
  });

  describe('refactor', () => {
    it('carries the request and keeps behaviour by default', () => {
      const prompt = buildRefactorPrompt(context(), ' use an arrow function ');
      assert.ok(prompt.startsWith('Refactor the selected TypeScript code as the user asks: use an arrow function\n'));
      assert.ok(prompt.includes('Keep its behaviour, its public names and its signatures'));
      assert.ok(prompt.includes('Reply with one ```ts block'));
    });

    it('has a default request when the user gave none', () => {
      assert.ok(buildRefactorPrompt(context(), '  ').includes('as the user asks: Improve readability and structure.'));
      assert.ok(buildAssistPrompt('refactor', context()).includes('Improve readability and structure.'));
    });
  });

  describe('tests', () => {
    it('names the framework, the import path and asks for one test file', () => {
      const prompt = buildTestsPrompt(context());
      assert.ok(prompt.startsWith('Write unit tests for the selected TypeScript code, using the test framework'));
      assert.ok(prompt.includes('Mocha with node:assert'));
      assert.ok(prompt.includes('Import the code under test from `src/math.ts`'));
      assert.ok(prompt.includes('Reply with one complete test file in a single ```ts block'));
    });

    it('suggests pytest for Python and a neutral framework for an unknown language', () => {
      assert.ok(buildTestsPrompt(context({ languageId: 'python' })).includes('using pytest.'));
      const zig = buildTestsPrompt(context({ languageId: 'zig' }));
      assert.ok(zig.includes('using the usual zig test framework.'), zig);
      assert.ok(zig.includes('single ```zig block'));
    });
  });

  describe('fix', () => {
    it('with diagnostics: fixes the listed problems, each with its range, source and code', () => {
      const warning: DiagnosticInfo = {
        message: 'Unused variable',
        severity: 'warning',
        startLine: 10,
        startCharacter: 0,
        endLine: 10,
        endCharacter: 3,
      };
      const prompt = buildFixPrompt(context({ diagnostics: [warning, TYPE_ERROR] }));
      assert.ok(prompt.startsWith('Fix the problems reported on the selected code'));
      assert.ok(
        prompt.includes(
          "Problems reported on the selection:\n- warning at 11:1–11:4: Unused variable\n- error at 12:9–12:14 [ts 2322]: Type 'string' is not assignable to type 'number'.",
        ),
        prompt,
      );
      assert.ok(prompt.includes('Reply with one ```ts block'));
    });

    it('without diagnostics: looks for bugs and may return the code unchanged', () => {
      const prompt = buildFixPrompt(context());
      assert.ok(prompt.startsWith('No problems are reported on the selected code.'));
      assert.ok(prompt.includes('If it has no bug, return it unchanged.'));
      assert.ok(!prompt.includes('Problems reported on the selection'));
    });
  });

  describe('code questions and the chat handoff', () => {
    it('buildCodeQuestionPrompt puts the user’s words first, then the code', () => {
      const prompt = buildCodeQuestionPrompt(context({ diagnostics: [TYPE_ERROR] }), '  Is this safe?  ');
      assert.ok(prompt.startsWith('Is this safe?\n\nFile: `src/math.ts`'));
      assert.ok(prompt.includes('Selected code:\n```ts\nfunction add'));
      assert.ok(prompt.includes('[ts 2322]'));
    });

    it('buildChatHandoff attaches the selection with its path:lines label and language', () => {
      const handoff = buildChatHandoff('explain', context(), { instruction: 'briefly' });
      assert.deepEqual(handoff.context, {
        label: 'src/math.ts:11-13',
        content: context().selection.text,
        language: 'typescript',
      });
      assert.equal(handoff.prompt, buildExplainPrompt(context(), 'briefly', true));
      assert.ok(!handoff.prompt.includes('return a + b;'));
    });

    it('selectionLabel: one line or a range, 1-based', () => {
      assert.equal(selectionLabel(context()), 'src/math.ts:11-13');
      assert.equal(selectionLabel(context({ selection: { text: 'x', startLine: 0, endLine: 0 } })), 'src/math.ts:1');
    });
  });

  describe('describeDiagnostic', () => {
    it('writes severity, 1-based range, origin and a one-line message', () => {
      assert.equal(
        describeDiagnostic(TYPE_ERROR),
        "- error at 12:9–12:14 [ts 2322]: Type 'string' is not assignable to type 'number'.",
      );
    });

    it('leaves out a missing or empty origin, and keeps a code without a source', () => {
      const base = {
        message: ' m ',
        severity: 'hint' as const,
        startLine: 0,
        startCharacter: 0,
        endLine: 1,
        endCharacter: 2,
      };
      assert.equal(describeDiagnostic(base), '- hint at 1:1–2:3: m');
      assert.equal(describeDiagnostic({ ...base, source: '', code: '' }), '- hint at 1:1–2:3: m');
      assert.equal(describeDiagnostic({ ...base, code: 'E1' }), '- hint at 1:1–2:3 [E1]: m');
      assert.equal(describeDiagnostic({ ...base, message: 'a\r\n   b\nc' }), '- hint at 1:1–2:3: a b c');
    });
  });

  describe('fences', () => {
    it('a selection with backtick runs gets a longer fence, so it cannot close its block early', () => {
      const text = 'const md = `\n```ts\nx\n```\n````\n`;';
      const prompt = buildExplainPrompt(context({ selection: { text, startLine: 0, endLine: 5 } }));
      assert.ok(prompt.includes(`\`\`\`\`\`ts\n${text}\n\`\`\`\`\``), prompt);
      const selected = parseCodeBlocks(prompt).find((b) => b.code === text);
      assert.ok(selected, 'the selection comes back whole from its block');
      assert.equal(selected.closed, true);
    });

    it('surrounding lines with backticks are fenced the same way', () => {
      const prompt = buildFixPrompt(context({ before: { startLine: 0, lines: ['const a = ```;'], clipped: false } }));
      assert.ok(prompt.includes('````ts\nconst a = ```;\n````'), prompt);
    });
  });
});
