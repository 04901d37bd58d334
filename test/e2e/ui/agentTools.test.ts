import * as assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
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
    env: { AXO_API_KEY: DEFAULT_AXO_KEY },
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
        // A click that a busy workbench does not take in time is tried again, not the end of the test.
        const opened = await configure
          .click({ timeout: 5_000 })
          .then(() => page.locator('.quick-input-widget').waitFor({ state: 'visible', timeout: 5_000 }))
          .then(() => true)
          .catch((error: Error) => ((text = `(the picker did not open: ${error.message.split('\n')[0]})`), false));
        text = opened ? await quickPickText(page) : text;
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
          // The list is redrawn as VS Code learns tools: a row gone before the click is tried again by the poll.
          await rows
            .filter({ hasText: /^ALPHA & AXO$/ })
            .locator('.monaco-tl-twistie')
            .click({ timeout: 2_000 })
            .catch(() => undefined);
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
            await update
              .first()
              .click({ timeout: 2_000 })
              .catch(() => undefined);
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
});
