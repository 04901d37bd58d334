import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { AXO_TOOL_SPECS } from '../../../src/core/mcp/axoToolSpecs';
import { startFakeService, type FakeService } from '../../fakeService/fakeService';
import { extHostUserDataDir, filesUnder } from '../harness/paths';
import { poll } from '../../support/until';

const EXTENSION_ID = 'alpha-axo.alpha-axo';

/** `vscode.lm`'s tool API as VS Code 1.139 has it (`@types/vscode` is pinned below it). */
interface LmTools {
  readonly tools: readonly { name: string; description: string; inputSchema?: object }[];
  invokeTool(
    name: string,
    options: { input: object; toolInvocationToken: undefined },
    token?: vscode.CancellationToken,
  ): Thenable<{ content: unknown[] }>;
}

const lm = (vscode as unknown as { lm: LmTools }).lm;
/** Whether this VS Code has the tool API (1.95+): the pinned test host does, the oldest one (1.90) does not. */
const hasTools = typeof (lm as Partial<LmTools> | undefined)?.invokeTool === 'function';

/** The extension's log ("ALPHA & AXO" output channel) of this run. */
function extensionLog(): string {
  return filesUnder(path.join(extHostUserDataDir(), 'logs'), (file) => path.basename(file) === 'ALPHA & AXO.log')
    .map((file) => fs.readFileSync(file, 'utf8'))
    .join('\n');
}

/** The text parts of a tool result. */
function textOf(result: { content: unknown[] }): string {
  return result.content.map((part) => (part as { value?: unknown }).value ?? '').join('');
}

const ours = () => lm.tools.filter((tool) => tool.name.startsWith('axo_')).map((tool) => tool.name);
const invoke = (name: string, input: object, token?: vscode.CancellationToken) =>
  lm.invokeTool(name, { input, toolInvocationToken: undefined }, token);

describe('AXO agent tools', function () {
  this.timeout(30_000);
  let fake: FakeService;
  const config = () => vscode.workspace.getConfiguration('alphaAxo');

  before(async () => {
    fake = await startFakeService({ tokenDelayMs: 1 });
    process.env.AXO_API_KEY = fake.axoKey;
    await config().update('baseUrl', fake.url, vscode.ConfigurationTarget.Global);
    await vscode.extensions.getExtension(EXTENSION_ID)?.activate();
    if (hasTools) {
      await poll(() => (ours().length === 3 ? true : undefined), 10_000, 'the three AXO tools in vscode.lm.tools');
    } else {
      // Only the oldest host may lack it (`npm run test:oldest` names it in ALPHA_AXO_TEST_HOST).
      assert.ok(process.env.ALPHA_AXO_TEST_HOST, 'this VS Code has no vscode.lm.invokeTool, which the test host has');
    }
  });

  beforeEach(function () {
    if (!hasTools && !this.currentTest?.title.startsWith('register what this VS Code has')) {
      this.skip();
    }
  });

  it('register what this VS Code has, and log what it leaves out', async () => {
    const commands = await vscode.commands.getCommands(true);
    assert.ok(commands.includes('axo.copyMcpConfig'));
    const log = await poll(
      () => (/Agent tools: .*(registered|not available)/.test(extensionLog()) ? extensionLog() : undefined),
      10_000,
      'the extension logged nothing about its agent tools',
    );
    if (hasTools) {
      assert.match(log, /Agent tools: axo_ask, axo_search and axo_article registered\./);
      assert.match(log, /Agent tools: the AXO MCP server is offered to VS Code\./);
    } else {
      assert.equal((vscode as unknown as { lm?: { tools?: unknown } }).lm?.tools, undefined);
      assert.match(log, /Agent tools: this VS Code has no language model tool API/);
      assert.match(log, /Agent tools: this VS Code has no MCP server definition API/);
    }
    assert.doesNotMatch(log, /Agent tools: .*not registered/);
  });

  after(async () => {
    delete process.env.AXO_API_KEY;
    await config().update('baseUrl', undefined, vscode.ConfigurationTarget.Global);
    await config().update('requestTimeoutSeconds', undefined, vscode.ConfigurationTarget.Global);
    await fake.close();
  });

  beforeEach(() => fake.reset());

  it('are listed in vscode.lm.tools with their descriptions and bounded inputs', () => {
    for (const spec of AXO_TOOL_SPECS) {
      const tool = lm.tools.find((t) => t.name === spec.name);
      assert.ok(tool, spec.name);
      assert.equal(tool.description, spec.modelDescription);
      const schema = tool.inputSchema as { properties: Record<string, { maxLength: number }> };
      assert.equal(schema.properties[spec.argument].maxLength, spec.maxLength);
    }
  });

  it('answer with citations, list search titles and read an article with its facts', async () => {
    const ask = textOf(await invoke('axo_ask', { question: 'Who was Alan Turing?' }));
    assert.match(ask, /English mathematician/);
    assert.match(ask, /^Sources:$/m);
    assert.match(ask, /^\[1\] Alan Turing — https:\/\/axo\.example\/wiki\/Alan_Turing$/m);
    const search = textOf(await invoke('axo_search', { query: 'Turing' }));
    assert.match(search, /^1\. Alan Turing — .+\(https:\/\/axo\.example\/wiki\/Alan_Turing\)$/m);
    const article = textOf(await invoke('axo_article', { title: 'Alan Turing' }));
    assert.match(article, /^# Alan Turing$/m);
    assert.match(article, /^\| Fact \| Value \|$/m);
    assert.deepEqual(
      fake.requests.map((r) => [r.path, r.keyKind]),
      [
        ['/v1/axo/ask', 'axo'],
        ['/v1/axo/search', 'axo'],
        ['/v1/axo/article', 'axo'],
      ],
    );
  });

  it('add no hover term: an article an agent read does not hover in an editor', async () => {
    await invoke('axo_article', { title: 'Ada Lovelace' });
    const document = await vscode.workspace.openTextDocument({ content: 'Ada Lovelace wrote notes.' });
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
      'vscode.executeHoverProvider',
      document.uri,
      new vscode.Position(0, 2),
    );
    const text = hovers
      .flatMap((hover) => hover.contents)
      .map((c) => (typeof c === 'string' ? c : c.value))
      .join('\n');
    assert.doesNotMatch(text, /Lovelace/);
  });

  it('abort the request when the call is cancelled', async () => {
    const source = new vscode.CancellationTokenSource();
    const call = Promise.resolve(invoke('axo_ask', { question: 'Who was Alan Turing? #fault:stall' }, source.token));
    await fake.waitFor((r) => r.path === '/v1/axo/ask' && r.fault === 'stall');
    source.cancel();
    await call.then(
      () => undefined,
      () => undefined,
    );
    const seen = await fake.waitFor((r) => r.path === '/v1/axo/ask' && r.aborted, 5000);
    assert.equal(seen.aborted, true);
    source.dispose();
  });

  it('say in one sentence that the key is missing', async () => {
    delete process.env.AXO_API_KEY;
    try {
      const text = textOf(await invoke('axo_ask', { question: 'Who was Grace Hopper?' }));
      assert.equal(
        text,
        'AXO is not set up: no encyclopedia API key is set. The user can set one with the command “AXO: Set ' +
          'Encyclopedia API Key”.',
      );
    } finally {
      process.env.AXO_API_KEY = fake.axoKey;
    }
  });

  it('say in one sentence that the key was rejected, that requests are limited, or that AXO did not answer', async () => {
    assert.match(
      textOf(await invoke('axo_search', { query: 'Turing #fault:401' })),
      /^AXO rejected the encyclopedia API key \(HTTP 401\)\. The user can set a valid one with the command/,
    );
    assert.match(
      textOf(await invoke('axo_search', { query: 'Turing #fault:429' })),
      /^AXO is limiting requests \(HTTP 429\): try again in 2 seconds\.$/,
    );
    await config().update('requestTimeoutSeconds', 1, vscode.ConfigurationTarget.Global);
    try {
      const text = textOf(await invoke('axo_article', { title: 'Alan Turing #fault:stall-headers' }));
      assert.match(text, /^AXO did not answer in time: .*1 s\.$/);
      assert.doesNotMatch(text, /\n|at .+\.js/);
    } finally {
      await config().update('requestTimeoutSeconds', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('hand on hostile answers as inert text', async () => {
    const results = [
      textOf(await invoke('axo_ask', { question: 'Who was Alan Turing? #fault:shape:hostile' })),
      textOf(await invoke('axo_search', { query: 'Turing #fault:shape:hostile' })),
      textOf(await invoke('axo_article', { title: 'Alan Turing #fault:shape:hostile' })),
    ];
    for (const text of results) {
      assert.doesNotMatch(text, /<script|<img|<iframe|<a |<b /i);
      // A link only where the bracket is not escaped: `\[Quit\](command:…)` is text in Markdown.
      assert.doesNotMatch(text, /(?<!\\)\]\((?:javascript|command):/i);
      assert.doesNotMatch(text, /(?<!\\)\]:\s*command:/i);
      assert.doesNotMatch(text, /[\u001b\u202e]/);
    }
    assert.match(results[0], /\[3\] Alan Turing — https:\/\/axo\.example\/wiki\/Alan_Turing/);
  });

  it('cannot be called while alphaAxo.agentTools.enabled is off, and can again when it is on', async () => {
    // VS Code keeps every contributed tool in vscode.lm.tools (the `when` clause hides them from the pickers and the
    // models); what turning them off must do is leave nothing to call: the implementations are unregistered.
    const outcome = () =>
      Promise.resolve(invoke('axo_search', { query: 'Turing' })).then(
        (result) => `invoked: ${textOf(result)}`,
        (failure: unknown) => `failed: ${String(failure)}`,
      );
    await config().update('agentTools.enabled', false, vscode.ConfigurationTarget.Global);
    try {
      await poll(
        async () => ((await outcome()).startsWith('failed:') ? true : undefined),
        10_000,
        'axo_search to have no implementation while the tools are off',
      );
      assert.match(await outcome(), /does not have an implementation|not found|not registered/i);
    } finally {
      await config().update('agentTools.enabled', undefined, vscode.ConfigurationTarget.Global);
    }
    await poll(
      async () => ((await outcome()).startsWith('invoked:') ? true : undefined),
      10_000,
      'axo_search to answer again once the tools are on',
    );
    assert.equal(ours().length, 3);
  });
});
