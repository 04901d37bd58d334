// A demo to click through: the fake service, and code-server with the packaged extension installed, pointed at
// it, with the keys in the environment (the extension falls back to ALPHA_API_KEY / AXO_API_KEY when none is
// stored). Ctrl-C, SIGTERM and SIGHUP (a closed terminal) stop everything and free both ports.
//   node scripts/demo.mjs [--port N] [--framing lines]   (code-server's port, default 8080 unless busy; how the
//   fake frames its streams: `lines` is the spec's one data: line per event, no blank line, held open after [DONE])
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const FAKE_PORT = 8787;
const SERVER_PORT = 8080;

const say = (message) => console.log(`[demo] ${message}`);

function step(what, command, args) {
  say(`${what}: ${[command, ...args].join(' ')}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    say(`${what} failed (${result.status ?? result.signal})`);
    process.exit(1);
  }
}

/** Builds what is missing: compiled harness and fake service, the packaged extension, the test host. */
function setUp() {
  const compiled = ['out/test/fakeService/cli.js', 'out/test/e2e/harness/codeServer.js'];
  if (!compiled.every((file) => existsSync(join(root, file)))) {
    step('compile', join(root, 'node_modules', '.bin', 'tsc'), ['-p', '.']);
  }
  if (!existsSync(join(root, '.vscode-test', 'alpha-axo.vsix'))) {
    step('build and package', process.execPath, [join(root, 'scripts', 'package.mjs')]);
  }
  step('test host', process.execPath, [join(root, 'scripts', 'installTestHost.mjs')]);
}

/** `port` when it is free on 127.0.0.1, else 0 (any free one). */
function portOrAny(port) {
  return new Promise((resolvePort) => {
    const probe = createServer();
    probe.once('error', () => resolvePort(0));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolvePort(port)));
  });
}

/** Stops a child process: SIGTERM, then SIGKILL after the grace; resolves once it has exited. */
function stopChild(child, graceMs = 3_000) {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve();
  }
  return new Promise((resolveStop) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolveStop();
    });
    child.kill('SIGTERM');
  });
}

/** Starts the fake service's CLI and reads its `{url, chatKey, axoKey}` line. */
async function startFake(port, framing) {
  const args = ['--port', String(port), ...(framing ? ['--framing', framing] : [])];
  const child = spawn(process.execPath, [join(root, 'out', 'test', 'fakeService', 'cli.js'), ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout });
  const first = await new Promise((resolveLine, reject) => {
    lines.once('line', resolveLine);
    child.once('exit', (code) => reject(new Error(`the fake service exited with ${code}`)));
  });
  lines.on('line', (line) => console.log(`[fake] ${line}`));
  return { child, ...JSON.parse(first) };
}

const SAMPLE_WORKSPACE = {
  'README.md':
    '# Demo workspace\n\nSelect some code and try **ALPHA: Explain Selection**, or look up *TypeScript* in AXO.\n',
  'src/inventory.ts': `/** One line of a stock list. */
export interface Item {
  name: string;
  quantity: number;
  unitPrice: number;
}

/** The value of the whole stock, in the items' currency. */
export function stockValue(items: Item[]): number {
  let total = 0;
  for (const item of items) {
    total += item.quantity * item.unitPrice;
  }
  return total;
}

/** Items to reorder: fewer than \`threshold\` left. */
export function toReorder(items: Item[], threshold = 5): Item[] {
  return items.filter((item) => item.quantity < threshold);
}
`,
};

async function main() {
  const portArg = process.argv.indexOf('--port');
  const wantedPort = portArg >= 0 ? Number(process.argv[portArg + 1]) : SERVER_PORT;
  setUp();
  const { startCodeServer, leaveSignalExitToCaller } = require(
    join(root, 'out', 'test', 'e2e', 'harness', 'codeServer.js'),
  );
  const { vsixPath } = require(join(root, 'out', 'test', 'e2e', 'harness', 'paths.js'));

  const framingArg = process.argv.indexOf('--framing');
  const fake = await startFake(await portOrAny(FAKE_PORT), framingArg >= 0 ? process.argv[framingArg + 1] : undefined);
  let server;
  let stopping = false;
  const stopAll = async (code) => {
    if (stopping) {
      return;
    }
    stopping = true;
    say('stopping');
    await server?.stop();
    await stopChild(fake.child);
    process.exit(code);
  };
  // The harness kills code-server on these signals; the demo also stops the fake service before it exits.
  leaveSignalExitToCaller();
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ]) {
    process.once(signal, () => void stopAll(code));
  }
  // `npm run demo` stopped by a signal exits without passing it on: the demo then outlives it. It notices that its
  // parent is gone (it is adopted by another process) and stops as if it had been signalled.
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) {
      say('the process that started the demo is gone');
      void stopAll(143);
    }
  }, 500).unref();
  fake.child.once('exit', (code) => {
    say(`the fake service exited (${code})`);
    void stopAll(1);
  });

  server = await startCodeServer({
    name: 'demo',
    vsix: vsixPath,
    baseUrl: fake.url,
    disableAIFeatures: false,
    port: (await portOrAny(wantedPort)) || undefined,
    env: { ALPHA_API_KEY: fake.chatKey, AXO_API_KEY: fake.axoKey },
    workspaceFiles: SAMPLE_WORKSPACE,
  });
  console.log(`
  Open:              ${server.workbenchUrl()}
  Fake service:      ${fake.url}  (alphaAxo.baseUrl is preset to it)
  Chat key:          ${fake.chatKey}
  Encyclopedia key:  ${fake.axoKey}
  (both keys are also in code-server's environment as ALPHA_API_KEY / AXO_API_KEY)
  Run folder:        ${server.runDir}

  Ctrl-C stops everything.
`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
