import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { listedTools } from '../../fakeService/agentScript';
import type { ChatMessage } from '../../fakeService/chatContent';
import { DEFAULT_AXO_KEY, DEFAULT_CHAT_KEY } from '../../fakeService/fakeService';
import { useFakeService } from '../harness/fakeServiceHooks';
import { vsixPath } from '../harness/paths';
import { useWorkbench } from '../harness/session';
import { poll, runCommand, screenshot } from '../harness/workbench';

/*
 * ALPHA in VS Code's Agent mode, signed out of Copilot. VS Code hands a chat request to Copilot's built-in agent
 * without a sign-in only when the user has a model of their own in "Manage Models" (VS Code keeps that list in
 * `User/chatLanguageModels.json`; written here as the Models editor would) and anonymous access is allowed
 * (`chat.allowAnonymousAccess`); otherwise it asks to sign in. The agent then sends ALPHA its system message and
 * tools, runs the call ALPHA writes, and calls ALPHA again with the result. The fake's scripted agent is told what to
 * call with `%agent:call %tool:NAME %args:B64` (VS Code's chat rewrites `#name` as one of its own references).
 */

describe('ALPHA in VS Code’s Agent mode', function () {
  this.timeout(180_000);
  const service = useFakeService({ chatKey: DEFAULT_CHAT_KEY, axoKey: DEFAULT_AXO_KEY, tokenDelayMs: 1 });
  const session = useWorkbench('agent-mode', () => ({
    vsix: vsixPath,
    baseUrl: service().url,
    disableAIFeatures: false,
    settings: { 'chat.agent.enabled': true, 'chat.allowAnonymousAccess': true },
    userFiles: { 'chatLanguageModels.json': JSON.stringify([{ vendor: 'alpha', name: 'ALPHA' }]) },
    env: { ALPHA_API_KEY: DEFAULT_CHAT_KEY, AXO_API_KEY: DEFAULT_AXO_KEY },
  }));

  it('offers ALPHA in Agent mode', async () => {
    const page = session.page;
    // The extension activates on its own views: from then on VS Code lists ALPHA's models.
    await runCommand(page, 'ALPHA: Open Chat');
    await runCommand(page, 'Chat: Open Chat');
    await chatInput(page).waitFor({ state: 'visible', timeout: 30_000 });
    await toolbarLabel(page, 'Agent').waitFor({ state: 'visible', timeout: 30_000 });
    const picker = toolbarLabel(page, '(Auto|ALPHA|Models|Sign in to use Copilot)');
    const row = page.locator('.action-widget .monaco-list-row', { hasText: 'ALPHA' }).first();
    // Agent mode lists only models that call tools: ALPHA is there, and is picked.
    await poll(
      async () => {
        if (await toolbarLabel(page, 'ALPHA').isVisible()) {
          return true;
        }
        await page.keyboard.press('Escape');
        await picker.click({ timeout: 5_000 });
        if (await row.isVisible({ timeout: 3_000 }).catch(() => false)) {
          // The list is drawn again while the models come in (the row detached under the click): the next round
          // opens it again.
          await row.click({ timeout: 3_000 }).catch(() => undefined);
        }
        return toolbarLabel(page, 'ALPHA').isVisible();
      },
      45_000,
      'the Agent-mode model picker did not offer ALPHA',
    );
    await screenshot(page, 'agent-mode-1-alpha-picked');
  });

  it('runs the create_file call ALPHA writes, calls ALPHA again with the result, and shows its answer', async () => {
    const page = session.page;
    service().reset();
    const file = path.join(session.server.workspaceDir, 'from-alpha.txt');
    const text = 'Written by ALPHA in Agent mode.\n';
    await sendInChat(page, `Create from-alpha.txt %agent:call %args:${b64({ filePath: file, content: text })}`);
    await poll(
      // The answer's last word: the whole answer has streamed in.
      async () => /The create_file tool answered.*Done\./.test(await lastResponseText(page)),
      // The first request waits for Copilot's agent to start ("Getting chat ready"): seconds on a busy machine.
      120_000,
      async () => `no answer after the call: ${await lastResponseText(page)}`,
    );
    // The agent creates the file, then writes its text through an edit that is saved a moment later.
    const onDisk = () => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '(no file)');
    await poll(
      () => Promise.resolve(onDisk() === text),
      30_000,
      () => `VS Code did not create the file with the text ALPHA gave: ${JSON.stringify(onDisk())}`,
    );
    const asked = chatRequests();
    assert.equal(asked.length, 2, 'one request for the call, one with its result');
    assert.ok(listedTools(asked[0]).includes('create_file'), 'the first request described VS Code’s tools');
    const result = asked[1].at(-1);
    assert.equal(result?.role, 'user');
    assert.match(result?.content ?? '', /^Result of create_file/, 'the second request carries the call’s result');
    await screenshot(page, 'agent-mode-2-create-file');
  });

  it('runs ALPHA’s call of the extension’s own axo_ask', async () => {
    const page = session.page;
    service().reset();
    await sendInChat(page, `Who was Alan Turing? %agent:call %tool:axo_ask %args:${b64({ question: 'Alan Turing' })}`);
    await poll(
      async () => /The axo_ask tool answered.*Done\./.test(await lastResponseText(page)),
      60_000,
      async () => `no answer after the lookup: ${await lastResponseText(page)}`,
    );
    assert.deepEqual(
      service().requests.map((r) => r.path),
      ['/v1/alpha', '/v1/axo/ask', '/v1/alpha'],
      'ALPHA, then the lookup with the encyclopedia key, then ALPHA with its answer',
    );
    assert.equal(service().requests[1].keyKind, 'axo');
    assert.match(chatRequests()[1].at(-1)?.content ?? '', /^Result of axo_ask/);
    assert.match(await lastResponseText(page), /Turing/, 'the answer quotes what AXO said');
    await screenshot(page, 'agent-mode-3-axo-ask');
  });

  /** The messages of each request to ALPHA since the last reset. */
  function chatRequests(): ChatMessage[][] {
    return service()
      .requests.filter((r) => r.path === '/v1/alpha')
      .map((r) => (r.body as { messages: ChatMessage[] }).messages);
  }
});

/** The base64url of a JSON value, as the fake's `%args:` directive takes it. */
function b64(value: unknown): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
}

/** The chat view's input box (a Monaco editor). */
function chatInput(page: Page): Locator {
  return page.locator('.interactive-input-part .interactive-input-editor .monaco-editor').first();
}

/** A label of the chat input's toolbar (the mode, the model) whose whole text matches. */
function toolbarLabel(page: Page, text: string): Locator {
  return page.locator('.interactive-input-part .action-label', { hasText: new RegExp(`^\\s*${text}\\s*$`) }).first();
}

function responses(page: Page): Locator {
  return page.locator('.interactive-list .interactive-item-container.interactive-response');
}

async function lastResponseText(page: Page): Promise<string> {
  return (
    await responses(page)
      .last()
      .innerText({ timeout: 2_000 })
      .catch(() => '')
  ).replace(/\s+/g, ' ');
}

/** Types a prompt into VS Code's chat and sends it; waits for its response to appear. */
async function sendInChat(page: Page, text: string): Promise<void> {
  const before = await responses(page).count();
  await chatInput(page).click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Backspace');
  await page.keyboard.type(text);
  await page.keyboard.press('Enter');
  await poll(async () => (await responses(page).count()) > before, 15_000, `no response to "${text}" appeared`);
}
