// `npm run test:oldest`: the extension-host suite and a smoke UI test in the oldest VS Code the extension claims
// (package.json engines.vscode = code-server 4.90.0's VS Code 1.90, installed by scripts/installTestHostOldest.mjs).
// CI (.ci/run) runs it after `npm test`. The extension-host suite takes, on that host's Node 20.9, the paths a newer
// Node API would fail first on (networkPaths.test.ts: an HTTP proxy, SOCKS5, a gzip body, a company CA).
// Ends with the line `N passed, N failed`; exits 1 on any failure.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const results = join(root, '.vscode-test', 'results');
const harness = join(root, 'out', 'test', 'e2e', 'harness');
const env = { ...process.env, ALPHA_AXO_TEST_HOST: 'test-host-oldest' };

function step(title, command, args) {
  console.log(`\n━━ ${title} ━━\n$ ${[command, ...args].join(' ')}`);
  const result = spawnSync(command, args, { cwd: root, env, stdio: 'inherit' });
  return result.status === 0;
}

function counted(name) {
  const file = join(results, `oldest-${name}.json`);
  if (!existsSync(file)) {
    return { passed: 0, failed: 1, failures: [{ title: `${name}: no results`, error: '' }] };
  }
  return JSON.parse(readFileSync(file, 'utf8'));
}

function main() {
  const setup = [
    ['install the oldest test host', process.execPath, [join(root, 'scripts', 'installTestHostOldest.mjs')]],
    ['compile', join(root, 'node_modules', '.bin', 'tsc'), ['-p', '.']],
    ['package', process.execPath, [join(root, 'scripts', 'package.mjs')]],
  ];
  for (const [title, command, args] of setup) {
    if (!step(title, command, args)) {
      console.log(`\n✗ ${title} failed`);
      process.exit(1);
    }
  }
  for (const name of ['exthost', 'smoke']) {
    rmSync(join(results, `oldest-${name}.json`), { force: true });
  }
  step('extension host (VS Code 1.90)', process.execPath, [
    join(harness, 'extHostRunner.js'),
    '--results',
    join(results, 'oldest-exthost.json'),
  ]);
  step('smoke UI (VS Code 1.90)', process.execPath, [
    join(harness, 'mochaRunner.js'),
    '--timeout',
    '120000',
    '--results',
    join(results, 'oldest-smoke.json'),
    join(root, 'out', 'test', 'e2e', 'oldest', 'smoke.test.js'),
  ]);
  const all = ['exthost', 'smoke'].map(counted);
  const passed = all.reduce((sum, r) => sum + r.passed, 0);
  const failures = all.flatMap((r) => r.failures);
  console.log('\n━━ summary (oldest VS Code) ━━');
  for (const failure of failures) {
    console.log(`\n✗ ${failure.title}\n  ${failure.error.replace(/\n/g, '\n  ')}`);
  }
  console.log(`${passed} passed, ${failures.length} failed`);
  process.exit(failures.length > 0 ? 1 : 0);
}

main();
