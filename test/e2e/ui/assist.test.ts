import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { lastUserContent, replyDirective } from '../../fakeService/chatContent';
import { type RecordedRequest } from '../../fakeService/fakeService';
import { useFakeService } from '../harness/fakeServiceHooks';
import { vsixPath } from '../harness/paths';
import { useWorkbench } from '../harness/session';
import { chatFrame, clearNotifications, fillInputBox, poll, waitForToast } from '../harness/workbench';
import {
  activeEditor,
  clickNotificationButton,
  editorText,
  selectLines,
  tabLabels,
  titleBarButton,
  waitForEditorText,
  openWorkspaceFile,
  runCommandOnSelection,
  waitForNotification,
} from './assistHelpers';
import { replies, waitForReplyEnd, waitForReplyText } from './chatHelpers';

// Each file carries a `#reply:` directive in a comment above its code: the comment travels in the prompt as
// surrounding code, and the fake then answers with exactly the reply the test wants.

const EXPLAIN_JS = ['// #fault:slow', '', 'function greet(name) {', "  return 'Hello, ' + name;", '}', ''].join('\n');

const DOCUMENTED = [
  '/**',
  ' * Adds two numbers.',
  ' * @param {number} a',
  ' * @param {number} b',
  ' * @returns {number}',
  ' */',
  'function add(a, b) {',
  '  return a + b;',
  '}',
].join('\n');
const DOC_REPLY = `Here is the function with its documentation:\n\n\`\`\`js\n${DOCUMENTED}\n\`\`\`\n\nI added a JSDoc comment.`;
const DOC_JS = [`// ${replyDirective(DOC_REPLY)}`, '', 'function add(a, b) {', '  return a + b;', '}', ''].join('\n');
const REFACTORED = ['const mul = (a, b) => a * b;'].join('\n');
const REFACTOR_REPLY = `\`\`\`js\n${REFACTORED}\n\`\`\`\n\nAn arrow function says the same in one line.`;
const REFACTOR_JS = [
  `// ${replyDirective(REFACTOR_REPLY)}`,
  '',
  'function mul(a, b) {',
  '  return a * b;',
  '}',
  '',
].join('\n');
const NO_CODE_REPLY = 'This function is small and its name says what it does; I would leave it without a comment.';
const NO_CODE_JS = [`// ${replyDirective(NO_CODE_REPLY)}`, '', 'function sub(a, b) {', '  return a - b;', '}', ''].join(
  '\n',
);

const TESTS_CODE = [
  "const test = require('node:test');",
  "const assert = require('node:assert');",
  "const { twice } = require('./calc');",
  '',
  "test('twice doubles', () => {",
  '  assert.strictEqual(twice(2), 4);',
  '});',
].join('\n');
const TESTS_REPLY = `\`\`\`js\n${TESTS_CODE}\n\`\`\`\n\nRun it with \`node --test\`.`;
const CALC_JS = [
  `// ${replyDirective(TESTS_REPLY)}`,
  '',
  'function twice(x) {',
  '  return x * 2;',
  '}',
  'module.exports = { twice };',
  '',
].join('\n');

const FIX_REPLY = '```ts\nconst total: number = 1 + 2;\n```\n\nThe value was a string.';
const BROKEN_TS = [
  `// ${replyDirective(FIX_REPLY)}`,
  '',
  "const total: number = 'three';",
  'export { total };',
  '',
].join('\n');

const REVIEW = /Review ALPHA's proposal for/;

/** Waits until no tab shows a proposal's diff any more (it closes just after the edit is shown). */
async function diffClosed(page: Page, message: string): Promise<void> {
  await poll(async () => !(await tabLabels(page)).some((label) => label.includes("ALPHA's proposal")), 10_000, message);
}

/** Clears the notifications, opens `file`, selects lines `from`–`to` and runs `command` on the selection. */
async function runOnLines(page: Page, file: string, from: number, to: number, command: string): Promise<void> {
  await clearNotifications(page);
  await openWorkspaceFile(page, file);
  await selectLines(page, activeEditor(page), from, to);
  await runCommandOnSelection(page, command);
}

describe('ALPHA code assistance in the packaged extension', function () {
  this.timeout(120_000);
  const chatKey = `fkc_${randomBytes(12).toString('hex')}`;
  const service = useFakeService({ chatKey });
  const session = useWorkbench('assist', () => ({
    vsix: vsixPath,
    baseUrl: service().url,
    env: { ALPHA_API_KEY: chatKey },
    settings: {
      'alphaAxo.requestTimeoutSeconds': 10,
      'files.autoSave': 'off',
      // The editors' text is read from the page: no whitespace glyphs in a selection, no minimap.
      'editor.renderWhitespace': 'none',
      'editor.minimap.enabled': false,
    },
    workspaceFiles: {
      'explain.js': EXPLAIN_JS,
      'doc.js': DOC_JS,
      'refactor.js': REFACTOR_JS,
      'nocode.js': NO_CODE_JS,
      'calc.js': CALC_JS,
      'broken.ts': BROKEN_TS,
      'tsconfig.json': '{ "compilerOptions": { "strict": true, "target": "ES2022", "module": "commonjs" } }\n',
    },
  }));

  /** The prompt of the latest finished `POST /v1/alpha` after `start`. */
  async function lastPrompt(start: number): Promise<string> {
    let found: RecordedRequest | undefined;
    await poll(
      async () => {
        found = service()
          .requests.slice(start)
          .filter((r) => r.path === '/v1/alpha')
          .at(-1);
        return found !== undefined;
      },
      15_000,
      'no chat request reached the service',
    );
    const body = found?.body as { messages: { role: string; content: string }[] };
    return lastUserContent(body.messages);
  }

  function onDisk(name: string): string {
    return fs.readFileSync(path.join(session.server.workspaceDir, name), 'utf8');
  }

  it('Explain (nothing selected) streams an explanation of the enclosing function into the chat view', async () => {
    const page = session.page;
    const start = service().requests.length;
    await openWorkspaceFile(page, 'explain.js');
    await selectLines(page, activeEditor(page), 4);
    await runCommandOnSelection(page, 'ALPHA: Explain Selection');
    const frame = await chatFrame(page);
    const stop = frame.getByRole('button', { name: 'Stop generating' });
    await stop.waitFor({ state: 'visible', timeout: 15_000 });
    const early = await waitForReplyText(frame, 10);
    assert.ok(await stop.isVisible(), 'the reply is still streaming after its first characters');
    await waitForReplyEnd(frame, 60_000);
    const text = await replies(frame).last().locator('.content').innerText();
    // It grew after it was first read while Stop showed (by how much depends on how busy the machine is).
    assert.ok(text.length > early.length, `the reply grew from ${early.length} to ${text.length} characters`);
    assert.match(text, /Here is what I found/);
    assert.match(text, /Messages received: \d+\./);
    const prompt = await lastPrompt(start);
    assert.match(prompt, /Explain the selected code/);
    assert.match(prompt, /explain\.js:3-5/, 'the attached selection is the enclosing function, lines 3–5');
    assert.match(prompt, /function greet\(name\) \{\n {2}return 'Hello, ' \+ name;\n\}/);
  });

  it('Document shows a diff; Apply changes the file in one edit and one Undo restores it', async () => {
    const page = session.page;
    const start = service().requests.length;
    await runOnLines(page, 'doc.js', 3, 3, 'ALPHA: Document Selection');
    await waitForToast(page, REVIEW);
    const diff = page.locator('.editor-group-container.active .monaco-diff-editor').first();
    await diff.waitFor({ state: 'visible', timeout: 15_000 });
    assert.ok(
      (await tabLabels(page)).some((label) => label.includes("doc.js: ALPHA's proposal (Document Selection)")),
      `tabs: ${(await tabLabels(page)).join(' | ')}`,
    );
    await diff.locator('.editor.modified .view-line', { hasText: 'Adds two numbers.' }).waitFor({ timeout: 10_000 });
    const prompt = await lastPrompt(start);
    assert.match(prompt, /Add documentation comments to the selected JavaScript code/);
    assert.match(prompt, /Selected: lines 3–5\./);

    await clickNotificationButton(page, REVIEW, 'Apply');
    const expected = DOC_JS.replace('function add(a, b) {\n  return a + b;\n}', DOCUMENTED);
    const text = activeEditor(page);
    await waitForEditorText(text, expected);
    await diffClosed(page, 'the diff did not close after Apply');
    assert.equal(onDisk('doc.js'), DOC_JS, 'Apply edits the document, it does not save it');

    await text.locator('.view-line', { hasText: 'Adds two numbers.' }).click();
    await page.keyboard.press('Control+Z');
    await waitForEditorText(text, DOC_JS);
  });

  it('Apply refuses, saying why, when the document changed after the proposal', async () => {
    const page = session.page;
    await runOnLines(page, 'doc.js', 3, 3, 'ALPHA: Document Selection');
    await waitForToast(page, REVIEW);
    await page.locator('.monaco-diff-editor').first().waitFor({ state: 'visible', timeout: 15_000 });

    await openWorkspaceFile(page, 'doc.js');
    await selectLines(page, activeEditor(page), 4);
    await page.keyboard.press('End');
    await page.keyboard.type(' // edited by hand');
    const edited = DOC_JS.replace('return a + b;', 'return a + b; // edited by hand');
    await waitForEditorText(activeEditor(page), edited);

    await clickNotificationButton(page, REVIEW, 'Apply');
    const warning = await waitForNotification(page, /was not applied/);
    assert.match(warning, /doc\.js changed after the proposal was made/);
    assert.match(warning, /Run "Document Selection" again/);
    await openWorkspaceFile(page, 'doc.js');
    await waitForEditorText(activeEditor(page), edited);
    assert.ok(!(await editorText(activeEditor(page))).includes('Adds two numbers'), 'nothing of the proposal');

    // The review stays open: once the hand edit is undone, Apply in the diff's title bar applies the proposal.
    await activeEditor(page).locator('.view-line', { hasText: 'edited by hand' }).click();
    await poll(
      async () => {
        if ((await editorText(activeEditor(page))) === DOC_JS) {
          return true;
        }
        await page.keyboard.press('Control+Z');
        return false;
      },
      10_000,
      'Undo did not take the hand edit back',
    );
    const diffTab = page.locator('.editor-group-container.active .tab').filter({ hasText: "ALPHA's proposal" }).first();
    await diffTab.click();
    await page.locator('.editor-group-container.active .monaco-diff-editor').first().waitFor({ timeout: 10_000 });
    await titleBarButton(page, "Apply ALPHA's Proposal").click();
    await waitForEditorText(activeEditor(page), DOC_JS.replace('function add(a, b) {\n  return a + b;\n}', DOCUMENTED));
    await diffClosed(page, 'the diff did not close after Apply');
    await activeEditor(page).locator('.view-line', { hasText: 'Adds two numbers.' }).click();
    await page.keyboard.press('Control+Z');
    await waitForEditorText(activeEditor(page), DOC_JS);
  });

  it("Discard in the diff's title bar closes the diff and leaves the document as it was", async () => {
    const page = session.page;
    await clearNotifications(page);
    await openWorkspaceFile(page, 'doc.js');
    const before = await editorText(activeEditor(page));
    await selectLines(page, activeEditor(page), 3, 3);
    await runCommandOnSelection(page, 'ALPHA: Document Selection');
    await waitForToast(page, REVIEW);
    await page.locator('.monaco-diff-editor').first().waitFor({ state: 'visible', timeout: 15_000 });
    await titleBarButton(page, "Discard ALPHA's Proposal").click();
    await diffClosed(page, 'the diff did not close on Discard');
    await openWorkspaceFile(page, 'doc.js');
    assert.equal(await editorText(activeEditor(page)), before, 'Discard changed nothing');
  });

  it('Refactor asks what to change, sends it with the code, and Apply writes the proposal', async () => {
    const page = session.page;
    const start = service().requests.length;
    await runOnLines(page, 'refactor.js', 3, 3, 'ALPHA: Refactor Selection…');
    await fillInputBox(page, 'Use an arrow function');
    await waitForToast(page, REVIEW);
    const diff = page.locator('.editor-group-container.active .monaco-diff-editor').first();
    await diff.waitFor({ state: 'visible', timeout: 15_000 });
    await diff.locator('.editor.modified .view-line', { hasText: 'const mul' }).waitFor({ timeout: 10_000 });
    const prompt = await lastPrompt(start);
    assert.match(prompt, /Use an arrow function/, 'the request says what to change');
    assert.match(prompt, /function mul\(a, b\)/, 'the request carries the code');
    await clickNotificationButton(page, REVIEW, 'Apply');
    await waitForEditorText(
      activeEditor(page),
      REFACTOR_JS.replace('function mul(a, b) {\n  return a * b;\n}', REFACTORED),
    );
    await diffClosed(page, 'the diff did not close after Apply');
  });

  it('a reply without code goes to the chat as the answer, without asking ALPHA a second time', async () => {
    const page = session.page;
    const start = service().requests.length;
    await runOnLines(page, 'nocode.js', 3, 3, 'ALPHA: Document Selection');
    await waitForToast(page, /without code for nocode\.js:3-5; the answer is in the chat/);
    const frame = await chatFrame(page);
    await waitForReplyText(frame, NO_CODE_REPLY.length);
    assert.equal((await replies(frame).last().locator('.content').innerText()).trim(), NO_CODE_REPLY);
    // Give a second request, if there were one, the time to arrive.
    await page.waitForTimeout(1_000);
    const asked = service()
      .requests.slice(start)
      .filter((r) => r.path === '/v1/alpha');
    assert.equal(asked.length, 1, 'ALPHA was asked once: its reply is shown, not asked for again');
  });

  it('Generate Tests opens an untitled JavaScript editor with the tests', async () => {
    const page = session.page;
    const start = service().requests.length;
    await runOnLines(page, 'calc.js', 3, 3, 'ALPHA: Generate Tests');
    await poll(
      // An untitled editor's tab is named after its first line, with "Untitled-N" after it.
      async () => (await tabLabels(page)).some((label) => /\bUntitled-\d/.test(label)),
      20_000,
      'no untitled editor opened',
    );
    await waitForEditorText(activeEditor(page), TESTS_CODE, 20_000);
    const mode = page.locator('.statusbar-item[id="status.editor.mode"]');
    assert.equal((await mode.innerText()).trim(), 'JavaScript');
    const prompt = await lastPrompt(start);
    assert.match(prompt, /Write unit tests for the selected JavaScript code/);
    assert.match(prompt, /Import the code under test from `calc\.js`/);
  });

  it('"Fix with ALPHA" is offered on a diagnostic and proposes a fix that the diff title bar\'s Apply writes', async () => {
    const page = session.page;
    await clearNotifications(page);
    const start = service().requests.length;
    await openWorkspaceFile(page, 'broken.ts');
    // The built-in TypeScript server reports: Type 'string' is not assignable to type 'number'.
    await activeEditor(page).locator('.squiggly-error').first().waitFor({ state: 'attached', timeout: 60_000 });
    // The cursor on `total`, where TypeScript reports the problem.
    await selectLines(page, activeEditor(page), 3);
    for (let i = 0; i < 'const t'.length; i++) {
      await page.keyboard.press('ArrowRight');
    }
    const fix = page.locator('.action-widget').getByText('Fix with ALPHA', { exact: true }).first();
    for (let attempt = 0; ; attempt++) {
      await page.keyboard.press('Control+.');
      try {
        await fix.waitFor({ state: 'visible', timeout: 5_000 });
        break;
      } catch (error) {
        await page.keyboard.press('Escape');
        if (attempt >= 3) {
          throw error;
        }
      }
    }
    await fix.click();
    await waitForToast(page, REVIEW, 30_000);
    const prompt = await lastPrompt(start);
    assert.match(prompt, /Fix the problems reported on the selected code/);
    assert.match(prompt, /- error at 3:\d+–3:\d+ \[ts 2322\]: Type 'string' is not assignable to type 'number'\./);
    const fixed = BROKEN_TS.replace("'three'", '1 + 2');
    const modified = page.locator('.editor-group-container.active .monaco-diff-editor .editor.modified').first();
    await waitForEditorText(modified, fixed);
    // Apply from the diff's title bar this time (the notification's Apply is tested above).
    await titleBarButton(page, "Apply ALPHA's Proposal").click();
    // Apply shows the document itself (no Quick Open here: the focus moving to the editor could take its Enter).
    await waitForEditorText(activeEditor(page), fixed);
  });
});
