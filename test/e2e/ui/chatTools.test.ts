import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import type { ChatMessage } from '../../fakeService/chatContent';
import { DEFAULT_AXO_KEY, DEFAULT_CHAT_KEY } from '../../fakeService/fakeService';
import { useFakeService } from '../harness/fakeServiceHooks';
import { vsixPath } from '../harness/paths';
import { useWorkbench } from '../harness/session';
import { fillInputBox, inputBox, poll, runCommand, screenshot, waitForToast } from '../harness/workbench';
import { AXE_THEMES, runAxe, switchTheme } from './a11yHelpers';
import {
  activeEditor,
  clickNotificationButton,
  editorText,
  openWorkspaceFile,
  selectLines,
  waitForEditorText,
  waitForNotification,
} from './assistHelpers';
import {
  conversationFiles,
  exportedFile,
  openChat,
  reloadWindow,
  replies,
  sendPrompt,
  waitForReplyEnd,
} from './chatHelpers';

/*
 * ALPHA's tools in our chat, through the real UI against the fake's scripted agent: the prompt's
 * `%agent:call %tool:NAME %args:B64` makes the fake's ALPHA write that call when the request carries the tools
 * message, and answer with the result quoted when the last message is one ("The NAME tool answered: … Done.").
 * `%` rather than `#`: the composer takes `#` for an attachment.
 */

const PARSE_TS = 'export function parseTrim(turns: string[]): string[] {\n  return turns.slice(0, -1);\n}\n';
const NOTES_MD = '# Notes\n\nOld line.\n';

/** The base64url of a JSON value, as the fake's `%args:` takes it. */
function b64(value: unknown): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
}

/** The prompt that makes the fake's ALPHA call `tool` with `args`. */
function callPrompt(words: string, tool: string, args: unknown): string {
  return `${words} %agent:call %tool:${tool} %args:${b64(args)}`;
}

function steps(reply: Locator): Locator {
  return reply.locator('.step');
}

describe('ALPHA’s tools in the chat: steps, rules and review', function () {
  this.timeout(180_000);
  const service = useFakeService({ chatKey: DEFAULT_CHAT_KEY, axoKey: DEFAULT_AXO_KEY, tokenDelayMs: 1 });
  const session = useWorkbench('chat-tools', () => ({
    vsix: vsixPath,
    baseUrl: service().url,
    settings: { 'alphaAxo.chat.tools': 'edit' },
    workspaceFiles: { 'src/parse.ts': PARSE_TS, 'notes.md': NOTES_MD, 'secrets/.env': 'TOKEN=not-for-alpha\n' },
    env: { ALPHA_API_KEY: DEFAULT_CHAT_KEY, AXO_API_KEY: DEFAULT_AXO_KEY },
  }));
  let frame: FrameLocator;

  /** The messages of each request to ALPHA since `start`. */
  function chatRequests(start: number): ChatMessage[][] {
    return service()
      .requests.slice(start)
      .filter((r) => r.path === '/v1/alpha')
      .map((r) => (r.body as { messages: ChatMessage[] }).messages);
  }

  it('a question makes ALPHA read a file and quote it, as a step in its reply', async () => {
    frame = await openChat(session.page);
    await frame.getByRole('combobox', { name: 'ALPHA may use' }).waitFor({ timeout: 15_000 });
    const start = service().requests.length;
    await sendPrompt(
      frame,
      callPrompt('Why does parseTrim drop the last turn?', 'read_file', { path: 'src/parse.ts' }),
    );
    await waitForReplyEnd(frame, 60_000);
    const reply = replies(frame).last();
    await steps(reply).first().waitFor({ timeout: 10_000 });
    assert.match(await steps(reply).first().innerText(), /Read\s+src\/parse\.ts/);
    assert.match(await reply.locator('.content').last().innerText(), /The read_file tool answered/);
    assert.match(await reply.innerText(), /turns\.slice\(0, -1\)/, 'the answer quotes the file');
    const asked = chatRequests(start);
    assert.equal(asked.length, 2, 'the call, then its result');
    assert.match(asked[1].at(-1)?.content ?? '', /^Result of read_file/);
    assert.match(asked[1].at(-1)?.content ?? '', /turns\.slice\(0, -1\)/);
    // The step opens to show what went to ALPHA.
    await steps(reply).first().getByRole('button', { expanded: false }).first().click();
    await reply.locator('.step-result-text').first().waitFor({ timeout: 5_000 });
    assert.match(await reply.locator('.step-result-text').first().innerText(), /slice\(0, -1\)/);
    assert.match(await reply.innerText(), /2 requests/, 'the footer counts both billed requests');
    await screenshot(session.page, 'chat-tools-1-read-file');
  });

  it('the context gauge counts the tools message as a part of its own, which follows the control', async () => {
    const gauge = frame.locator('details.budget');
    await gauge.locator('summary').click();
    const toolsPart = async () => Number((await gauge.locator('dd[data-part="tools"]').innerText()).replace(/\D/g, ''));
    const control = frame.getByRole('combobox', { name: 'ALPHA may use' });
    const edits = await toolsPart();
    assert.ok(edits > 500, `the tools message is counted: ≈${edits} tokens`);
    await control.selectOption('none');
    await poll(async () => (await toolsPart()) === 0, 10_000, 'the tools part did not drop to 0 with "Nothing"');
    await control.selectOption('axo');
    await poll(
      async () => (await toolsPart()) > 0 && (await toolsPart()) < edits,
      10_000,
      'the tools part did not follow "AXO"',
    );
    await control.selectOption('edit');
    await poll(async () => (await toolsPart()) === edits, 10_000, 'the tools part did not come back');
    await gauge.locator('summary').click();
  });

  it('a lookup is a step, and its source joins the reply’s Sources', async () => {
    const start = service().requests.length;
    await sendPrompt(frame, callPrompt('Who was Alan Turing?', 'axo_ask', { question: 'Alan Turing' }));
    await waitForReplyEnd(frame, 60_000);
    const reply = replies(frame).last();
    assert.match(await steps(reply).first().innerText(), /Looked up “Alan Turing” in AXO/);
    const lookup = service()
      .requests.slice(start)
      .find((r) => r.path === '/v1/axo/ask');
    assert.equal(lookup?.keyKind, 'axo', 'the lookup used the encyclopedia key');
    const sources = reply.getByRole('region', { name: 'Sources' });
    await sources.waitFor({ timeout: 10_000 });
    assert.ok((await sources.getByRole('listitem').count()) > 0, 'the lookup’s source is listed');
  });

  it('a proposed edit opens the diff; Apply changes the file, one Undo restores it', async () => {
    const page = session.page;
    const edits = [{ search: 'Old line.', replace: 'New line from ALPHA.' }];
    await sendPrompt(frame, callPrompt('Update the notes', 'propose_edit', { path: 'notes.md', edits }));
    await waitForReplyEnd(frame, 60_000);
    const reply = replies(frame).last();
    assert.match(await steps(reply).first().innerText(), /Proposed a change to\s+notes\.md/);
    const diff = page.locator('.editor-group-container.active .monaco-diff-editor').first();
    await diff.waitFor({ state: 'visible', timeout: 15_000 });
    assert.equal(read('notes.md'), NOTES_MD, 'proposing wrote nothing');
    await clickNotificationButton(page, /ALPHA's proposal|proposed a change/i, 'Apply');
    const editor = activeEditor(page);
    await waitForEditorText(editor, NOTES_MD.replace('Old line.', 'New line from ALPHA.'));
    await editor.locator('.view-line', { hasText: 'New line from ALPHA.' }).click();
    await page.keyboard.press('Control+Z');
    await waitForEditorText(editor, NOTES_MD);
    frame = await openChat(page);
  });

  it('a proposal the file moved away from is not applied, and the warning says to ask in the chat again', async () => {
    const page = session.page;
    const edits = [{ search: 'Old line.', replace: 'A second line from ALPHA.' }];
    await sendPrompt(frame, callPrompt('Update the notes again', 'propose_edit', { path: 'notes.md', edits }));
    await waitForReplyEnd(frame, 60_000);
    await page.locator('.editor-group-container.active .monaco-diff-editor').first().waitFor({ timeout: 15_000 });
    // The file changes while the review is open: typed by hand, as in the code-assistance test.
    await openWorkspaceFile(page, 'notes.md');
    const editor = activeEditor(page);
    await selectLines(page, editor, 3);
    await page.keyboard.press('End');
    await page.keyboard.type(' By hand.');
    const moved = NOTES_MD.replace('Old line.', 'Old line. By hand.');
    await waitForEditorText(editor, moved);
    await clickNotificationButton(page, /ALPHA's proposal|proposed a change/i, 'Apply');
    const warning = await waitForNotification(page, /was not applied/);
    assert.match(warning, /notes\.md changed after the proposal was made/);
    assert.match(warning, /Ask ALPHA in the chat for a new one\./);
    assert.doesNotMatch(warning, /Run "/, 'no command to run again: the proposal came from the chat');
    await openWorkspaceFile(page, 'notes.md');
    await waitForEditorText(editor, moved);
    // The hand edit undone (a word at a time), the file is as it was; the review stays open until the reload below.
    await editor.locator('.view-line', { hasText: 'By hand.' }).click();
    await poll(
      async () => {
        if ((await editorText(editor)) === NOTES_MD) {
          return true;
        }
        await page.keyboard.press('Control+Z');
        return false;
      },
      15_000,
      'Undo did not take the hand edit back',
    );
    frame = await openChat(page);
  });

  it('a secret-looking file asks first; declined, ALPHA is told so and nothing is read', async () => {
    const page = session.page;
    const start = service().requests.length;
    await sendPrompt(frame, callPrompt('Read the env file', 'read_file', { path: 'secrets/.env' }));
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.waitFor({ state: 'visible', timeout: 30_000 });
    assert.match(await dialog.innerText(), /\.env/, 'the question names the file');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await waitForReplyEnd(frame, 60_000);
    const reply = replies(frame).last();
    assert.match(await steps(reply).first().innerText(), /\.env/);
    const asked = chatRequests(start);
    assert.match(asked.at(-1)?.at(-1)?.content ?? '', /declined/);
    assert.ok(!JSON.stringify(asked).includes('not-for-alpha'), 'the file’s text went nowhere');
  });

  it('the steps survive a reload and a JSON export and import', async () => {
    const page = session.page;
    const before = await replies(frame).locator('.step').count();
    assert.ok(before >= 4, `steps on the page before the reload: ${before}`);
    await reloadWindow(page);
    frame = await openChat(page);
    await poll(
      async () => (await replies(frame).locator('.step').count()) === before,
      30_000,
      async () => `after the reload the page shows ${await replies(frame).locator('.step').count()} steps`,
    );
    // The save dialog proposes the conversation's title as the name: taken as is, and read back from the notice.
    await runCommand(page, 'ALPHA: Export Conversation as JSON');
    const input = await inputBox(page);
    await poll(async () => (await input.inputValue()).endsWith('.json'), 15_000, 'the save dialog proposed no name');
    await input.press('Enter');
    const { file: target, notice } = await exportedFile(page);
    assert.ok(fs.existsSync(target), `the file was written: ${notice}`);
    await runCommand(page, 'ALPHA: Import Conversation…');
    await fillInputBox(page, target);
    await waitForToast(page, /Imported “/);
    const stored = conversationFiles(session.server.userDataDir)
      .map((file) => JSON.parse(fs.readFileSync(file, 'utf8')) as { messages: { steps?: unknown[] }[] })
      .filter((c) => c.messages.some((m) => (m.steps?.length ?? 0) > 0));
    assert.equal(stored.length, 2, 'the original and its import both keep steps');
    assert.deepEqual(stepsOf(stored[0]), stepsOf(stored[1]));
  });

  it('axe finds no serious or critical violation with steps on the page, in Dark, Light and High Contrast', async () => {
    const page = session.page;
    const found: string[] = [];
    for (const [theme, cls] of AXE_THEMES) {
      await switchTheme(page, session.server.userDataDir, theme, cls);
      // A step opened, so its result is checked too.
      const step = replies(frame).locator('.step').first();
      if ((await step.getByRole('button', { expanded: false }).count()) > 0) {
        await step.getByRole('button', { expanded: false }).first().click();
      }
      for (const f of await runAxe(frame)) {
        found.push(`${theme}: ${f.id} at ${f.targets.join(', ')}: ${f.why.join(' | ')}`);
      }
    }
    assert.deepEqual(found, [], 'serious or critical violations');
  });

  function read(name: string): string {
    return fs.readFileSync(path.join(session.server.workspaceDir, name), 'utf8');
  }
});

function stepsOf(conversation: { messages: { steps?: unknown[] }[] }): unknown[] {
  return conversation.messages.flatMap((m) => m.steps ?? []);
}

describe('ALPHA’s tools in an untrusted workspace', function () {
  this.timeout(180_000);
  const service = useFakeService({ chatKey: DEFAULT_CHAT_KEY, axoKey: DEFAULT_AXO_KEY, tokenDelayMs: 1 });
  const session = useWorkbench('chat-tools-untrusted', () => ({
    vsix: vsixPath,
    baseUrl: service().url,
    untrusted: true,
    settings: { 'alphaAxo.chat.tools': 'edit' },
    workspaceFiles: { 'src/parse.ts': PARSE_TS },
    env: { ALPHA_API_KEY: DEFAULT_CHAT_KEY, AXO_API_KEY: DEFAULT_AXO_KEY },
  }));

  it('offers ALPHA only the AXO tools: no workspace step happens', async () => {
    const page: Page = session.page;
    const frame = await openChat(page);
    await sendPrompt(frame, callPrompt('Read it', 'read_file', { path: 'src/parse.ts' }));
    await waitForReplyEnd(frame, 60_000);
    const request = service().requests.find((r) => r.path === '/v1/alpha');
    const messages = (request?.body as { messages: ChatMessage[] }).messages;
    const tools = messages.find((m) => m.role === 'system' && m.content.startsWith('You can call tools'));
    assert.ok(tools, 'the AXO tools are described');
    assert.doesNotMatch(tools.content, /read_file|propose_edit|search_text/);
    const reply = replies(frame).last();
    assert.equal(
      await steps(reply).filter({ hasText: /Read/ }).count(),
      0,
      'no workspace step: the call is not one of the tools offered',
    );
  });
});
