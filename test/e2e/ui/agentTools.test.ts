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
import { poll, runCommand, screenshot, waitForToast } from '../harness/workbench';

/*
 * VS Code itself lists what the extension offers agents, in the chat's tool picker: the three language-model tools
 * under the extension's group, and the MCP server its provider defines with the three tools VS Code reads from it
 * once started (the tools' calls are checked through vscode.lm in the extension-host suite, and the server's protocol
 * by the MCP SDK's client in mcpServer.test.ts). VS Code's chat needs `chat.disableAIFeatures` off.
 *
 * Then ALPHA in VS Code's Agent mode, signed out of Copilot. VS Code hands a chat request to Copilot's built-in agent
 * without a sign-in only when the user has a model of their own in "Manage Models" (VS Code keeps that list in
 * `User/chatLanguageModels.json`; written here as the Models editor would) and anonymous access is allowed
 * (`chat.allowAnonymousAccess`); otherwise it asks to sign in. The agent then sends ALPHA its system message and
 * tools, runs the call ALPHA writes, and calls ALPHA again with the result. The fake's scripted agent is told what to
 * call with `%agent:call %tool:NAME %args:B64` (VS Code's chat rewrites `#name` as one of its own references).
 */

const SERVER = 'AXO Encyclopedia';

/** The open quick pick's text, for messages. */
async function quickPickText(page: Page): Promise<string> {
  return (
    await page
      .locator('.quick-input-widget')
      .innerText({ timeout: 2_000 })
      .catch(() => '(no quick pick)')
  ).replace(/\s+/g, ' ');
}

describe('VS Code lists the AXO MCP server and its tools', function () {
  this.timeout(180_000);
  const service = useFakeService({ chatKey: DEFAULT_CHAT_KEY, axoKey: DEFAULT_AXO_KEY, tokenDelayMs: 1 });
  const session = useWorkbench('agent-tools', () => ({
    vsix: vsixPath,
    baseUrl: service().url,
    disableAIFeatures: false,
    settings: { 'chat.agent.enabled': true, 'chat.allowAnonymousAccess': true },
    userFiles: { 'chatLanguageModels.json': JSON.stringify([{ vendor: 'alpha', name: 'ALPHA' }]) },
    env: { ALPHA_API_KEY: DEFAULT_CHAT_KEY, AXO_API_KEY: DEFAULT_AXO_KEY },
  }));

  it('copies the configuration for MCP clients outside VS Code, saying the key is not in it', async () => {
    const page = session.page;
    await runCommand(page, 'AXO: Copy MCP Server Configuration');
    const toast = await waitForToast(page, /Copied the AXO MCP server configuration/);
    assert.match(toast, /Put your encyclopedia key in AXO_API_KEY: the copy holds no key\./);
  });

  it('lists the AXO MCP server and the three tools, its own and the language-model ones, in the chat’s tool picker', async () => {
    const page = session.page;
    await runCommand(page, 'Chat: Open Chat');
    const configure = page.getByRole('button', { name: /Configure Tools/ }).first();
    await configure.waitFor({ state: 'visible', timeout: 30_000 });
    let text = '';
    // The picker shows each source of tools as a folded group: the server our provider defines is one of them.
    await poll(
      async () => {
        await page.keyboard.press('Escape');
        await configure.click({ timeout: 5_000 });
        await page.locator('.quick-input-widget').waitFor({ state: 'visible', timeout: 5_000 });
        text = await quickPickText(page);
        return text.includes(SERVER);
      },
      60_000,
      () => `the tool picker does not list "${SERVER}": ${text}`,
    );
    await screenshot(page, 'agent-tools-2-tool-picker');

    // Its three tools: the language-model tools under the extension's group (by their reference names), and the MCP
    // server's own once VS Code has started it ("Update Tools" in the server's folded group).
    const rows = page.locator('.quick-input-widget .monaco-list-row');
    const shown = async () => (await rows.allInnerTexts()).map((t) => t.replace(/\s+/g, ' '));
    const lists = async (names: string[]) => {
      const texts = await shown();
      return names.every((name) => texts.some((t) => t.startsWith(name)));
    };
    await poll(
      async () => {
        if (!(await lists(['axoAsk', 'axoSearch', 'axoArticle']))) {
          await rows
            .filter({ hasText: /^ALPHA & AXO$/ })
            .locator('.monaco-tl-twistie')
            .click({ timeout: 2_000 });
        }
        return lists(['axoAsk', 'axoSearch', 'axoArticle']);
      },
      30_000,
      async () =>
        `the extension's group does not list axoAsk, axoSearch and axoArticle: ${(await shown()).join(' | ')}`,
    );
    await poll(
      async () => {
        if (!(await lists(['axo_ask', 'axo_search', 'axo_article']))) {
          const update = rows.filter({ hasText: /^Update Tools$/ });
          if (await update.count()) {
            await update.first().click({ timeout: 2_000 });
          }
        }
        return lists(['axo_ask', 'axo_search', 'axo_article']);
      },
      60_000,
      async () => `the MCP server's group does not list its three tools: ${(await shown()).join(' | ')}`,
    );
    const ask = (await shown()).find((t) => t.startsWith('axo_ask')) ?? '';
    assert.match(ask, /Ask the AXO encyclopedia a factual question/, 'with the description the server gives');
    await screenshot(page, 'agent-tools-3-tools-listed');
    await page.keyboard.press('Escape');
    assert.ok(
      service().requests.every((r) => r.keyKind !== 'chat'),
      'nothing used the billed chat key',
    );
  });

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
          await row.click({ timeout: 3_000 });
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
      60_000,
      async () => `no answer after the call: ${await lastResponseText(page)}`,
    );
    assert.equal(fs.readFileSync(file, 'utf8'), text, 'VS Code created the file with the text ALPHA gave');
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
