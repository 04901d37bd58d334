// Takes the README's screenshots: compiles, packages the extension, starts the fake service and code-server like
// the UI tests, and saves chat streaming, code-block actions, an encyclopedia article, a hover, a grounded answer, math,
// the prompt queue and the instructions with the context gauge into media/screenshots/
// (test/e2e/screenshots/readme.test.ts). The .vsix leaves that folder out (.vscodeignore).
//   npm run screenshots
// Packaging cleans dist/ and code-server wants the machine to itself: where others test on the same checkout, run it
// as `flock /tmp/alpha-axo-test.lock npm run screenshots`.
import { spawnSync } from 'node:child_process';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function run(command, args) {
  console.log(`[screenshots] ${[command, ...args].join(' ')}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`[screenshots] FAILED: exit ${result.status ?? result.signal}`);
    process.exit(1);
  }
}

run(join(root, 'node_modules', '.bin', 'tsc'), ['-p', '.']);
run(process.execPath, [join(root, 'scripts', 'package.mjs')]);
run(process.execPath, [join(root, 'scripts', 'installTestHost.mjs')]);
run(process.execPath, [
  join(root, 'out', 'test', 'e2e', 'harness', 'mochaRunner.js'),
  '--results',
  join(root, '.vscode-test', 'results', 'screenshots.json'),
  '--timeout',
  '120000',
  join(root, 'out', 'test', 'e2e', 'screenshots', 'readme.test.js'),
]);
