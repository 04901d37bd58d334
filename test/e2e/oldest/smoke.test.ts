import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chatReply } from '../../fakeService/chatContent';
import { DEFAULT_AXO_KEY, DEFAULT_CHAT_KEY } from '../../fakeService/fakeService';
import { useFakeService } from '../harness/fakeServiceHooks';
import { filesUnder, repoRoot, testHostDir, vsixPath } from '../harness/paths';
import { useWorkbench } from '../harness/session';
import { fillInputBox, poll, runCommand } from '../harness/workbench';
import { openChat, replies, sendPrompt, waitForReplyEnd, waitForReplyText } from '../ui/chatHelpers';
import { encyclopediaFrame } from '../ui/encyclopediaHelpers';

/*
 * The packaged extension in the oldest VS Code it claims (package.json engines.vscode), run by `npm run test:oldest`
 * with ALPHA_AXO_TEST_HOST=test-host-oldest: it activates, the chat webview streams a reply, a lookup shows its
 * answer, and the APIs that VS Code does not have yet (the language model provider) are left out with a log line.
 */

/** The extension's log ("ALPHA & AXO" output channel) under the run's user data. */
function extensionLog(userDataDir: string): string {
  return filesUnder(path.join(userDataDir, 'logs'), (file) => path.basename(file) === 'ALPHA & AXO.log')
    .map((file) => fs.readFileSync(file, 'utf8'))
    .join('\n');
}

function readJson(file: string): unknown {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

describe('the oldest VS Code we claim', function () {
  this.timeout(120_000);
  const service = useFakeService({ chatKey: DEFAULT_CHAT_KEY, axoKey: DEFAULT_AXO_KEY });
  const session = useWorkbench('oldest', () => ({
    vsix: vsixPath,
    baseUrl: service().url,
    env: { ALPHA_API_KEY: DEFAULT_CHAT_KEY, AXO_API_KEY: DEFAULT_AXO_KEY },
  }));

  it('runs the VS Code of engines.vscode', async () => {
    const manifest = readJson(path.join(repoRoot, 'package.json')) as { engines: { vscode: string } };
    const floor = /^\^(\d+\.\d+)\.\d+$/.exec(manifest.engines.vscode)?.[1];
    const host = readJson(path.join(testHostDir, 'node_modules', 'code-server', 'lib', 'vscode', 'package.json'));
    const { version } = host as { version: string };
    assert.ok(floor && version.startsWith(`${floor}.`), `engines.vscode ${manifest.engines.vscode}, host ${version}`);
  });

  it('activates, registers what this VS Code has and logs what it leaves out', async () => {
    await runCommand(session.page, 'ALPHA: Open Chat');
    let log = '';
    await poll(
      async () => /Activated in/.test((log = extensionLog(session.server.userDataDir))),
      30_000,
      'the extension did not log its activation',
    );
    assert.match(log, /Native chat: this VS Code has no language model provider API/);
    assert.match(log, /Agent tools: this VS Code has no language model tool API/);
    assert.match(log, /Agent tools: this VS Code has no MCP server definition API/);
    assert.doesNotMatch(log, /\[error\]/);
  });

  it('the chat webview sends a prompt and streams the reply', async () => {
    const frame = await openChat(session.page);
    const prompt = 'Tell me about cafés #long:4000';
    await sendPrompt(frame, prompt);
    const early = await waitForReplyText(frame, 5);
    await waitForReplyEnd(frame, 60_000);
    const request = await service().waitFor((r) => r.path === '/v1/alpha' && r.completed);
    const expected = chatReply([{ role: 'user', content: prompt }]);
    const text = await replies(frame).last().locator('.content').innerText();
    assert.ok(early.length < text.length, 'the reply did not grow while it streamed');
    assert.equal(request.keyKind, 'chat');
    const tail = expected.trim().split(/\s+/).slice(-3).join(' ');
    assert.ok(text.replace(/\s+/g, ' ').includes(tail), `the reply does not end with "${tail}"`);
  });

  it('an encyclopedia lookup shows its answer and citations', async () => {
    await runCommand(session.page, 'AXO: Ask the Encyclopedia…');
    await fillInputBox(session.page, 'Who was Alan Turing?');
    const frame = await encyclopediaFrame(session.page);
    await frame.getByRole('heading', { name: 'Who was Alan Turing?' }).waitFor({ timeout: 20_000 });
    const article = frame.getByRole('article').first();
    assert.match(await article.innerText(), /English mathematician and computer scientist/);
    const request = await service().waitFor((r) => r.path === '/v1/axo/ask' && r.completed);
    assert.equal(request.keyKind, 'axo');
  });
});
