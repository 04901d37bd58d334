// The extension-host suite in desktop VS Code through @vscode/test-electron, for machines with internet access
// (it downloads VS Code into .vscode-test/). `npm test` runs the same suite in code-server instead, which needs
// no download: `node scripts/test.mjs --only exthost`.
//   npm run test:electron [-- --version stable|insiders|1.104.0]
import { runTests } from '@vscode/test-electron';
import { execSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const versionIndex = process.argv.indexOf('--version');
const version = versionIndex > 0 ? process.argv[versionIndex + 1] : 'stable';
const results = join(root, '.vscode-test', 'results', 'exthost-electron.json');
const workspace = join(root, '.vscode-test', 'electron-ws');
mkdirSync(workspace, { recursive: true });

execSync('npx tsc -p . && node esbuild.mjs', { cwd: root, stdio: 'inherit' });
try {
  await runTests({
    version,
    extensionDevelopmentPath: root,
    extensionTestsPath: join(root, 'out', 'test', 'e2e', 'extHost', 'index.js'),
    launchArgs: [workspace, '--disable-extensions', '--disable-workspace-trust'],
    extensionTestsEnv: { ALPHA_AXO_EXTHOST_RESULTS: results },
  });
} catch (error) {
  console.error(`The extension-host suite failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
try {
  const { passed, failed } = JSON.parse(readFileSync(results, 'utf8'));
  console.log(`${passed} passed, ${failed} failed`);
} catch {
  console.log(`no results in ${results}`);
}
