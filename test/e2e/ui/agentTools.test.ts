import * as assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';
import { DEFAULT_AXO_KEY, DEFAULT_CHAT_KEY } from '../../fakeService/fakeService';
import { useFakeService } from '../harness/fakeServiceHooks';
import { vsixPath } from '../harness/paths';
import { useWorkbench } from '../harness/session';
import { poll, runCommand, screenshot, waitForToast } from '../harness/workbench';
import { quickPickRow } from './encyclopediaHelpers';

/*
 * VS Code itself lists what the extension offers agents: its MCP server among VS Code's MCP servers (MCP: List
 * Servers), started through VS Code's own server actions, and the server's three tools in the chat's tool picker.
 * VS Code's chat needs `chat.disableAIFeatures` off.
 */

const SERVER = 'AXO Encyclopedia';
const TOOLS = ['axo_ask', 'axo_search', 'axo_article'];

/** The open quick pick's text, for messages. */
async function quickPickText(page: Page): Promise<string> {
  return (
    await page
      .locator('.quick-input-widget')
      .innerText({ timeout: 2_000 })
      .catch(() => '(no quick pick)')
  ).replace(/\s+/g, ' ');
}

/** The description VS Code shows beside our server in MCP: List Servers (its state), after opening the list. */
async function serverRow(page: Page): Promise<Locator> {
  await runCommand(page, 'MCP: List Servers');
  const row = quickPickRow(page, SERVER);
  await row.waitFor({ state: 'visible', timeout: 20_000 }).catch(async () => {
    throw new Error(`MCP: List Servers does not list "${SERVER}": ${await quickPickText(page)}`);
  });
  return row;
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

  it('is listed by MCP: List Servers and starts from VS Code’s server actions', async () => {
    const page = session.page;
    const row = await serverRow(page);
    await row.click();
    const start = quickPickRow(page, 'Start Server');
    await start.waitFor({ state: 'visible', timeout: 15_000 }).catch(async () => {
      throw new Error(`no "Start Server" among the server's actions: ${await quickPickText(page)}`);
    });
    await start.click();
    // VS Code may ask whether to trust a server before its first start.
    const trust = page.getByRole('button', { name: /^Trust/ }).first();
    let state = '';
    await poll(
      async () => {
        if (await trust.isVisible().catch(() => false)) {
          await trust.click();
        }
        const listed = await serverRow(page);
        state = await listed.innerText();
        await page.keyboard.press('Escape');
        return /Running/i.test(state);
      },
      60_000,
      () => `the server did not come up as running: "${state}"`,
    );
    await screenshot(page, 'agent-tools-1-server-running');
  });

  it('has its three tools listed in the chat’s tool picker', async () => {
    const page = session.page;
    await runCommand(page, 'Chat: Open Chat');
    const configure = page.getByRole('button', { name: /Configure Tools/ }).first();
    await configure.waitFor({ state: 'visible', timeout: 30_000 });
    const filter = page.locator('.quick-input-widget .quick-input-box input');
    let text = '';
    // The picker shows its groups folded (the server, the extension's tools); filtering by a tool's name shows it.
    for (const tool of TOOLS) {
      await poll(
        async () => {
          await page.keyboard.press('Escape');
          await configure.click({ timeout: 5_000 });
          await filter.waitFor({ state: 'visible', timeout: 5_000 });
          const all = await quickPickText(page);
          await filter.fill(tool);
          text = await quickPickText(page);
          return all.includes(SERVER) && text.includes(tool);
        },
        60_000,
        () => `the tool picker does not list "${SERVER}" and, filtered, ${tool}: ${text}`,
      );
    }
    await screenshot(page, 'agent-tools-2-tool-picker');
    await page.keyboard.press('Escape');
    assert.ok(
      service().requests.every((r) => r.keyKind !== 'chat'),
      'nothing used the billed chat key',
    );
  });
});
