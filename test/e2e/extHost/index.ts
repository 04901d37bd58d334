import * as path from 'node:path';
import { findFiles, runMochaFiles, writeResults } from '../harness/mochaRunner';
import { vscodeTestDir } from '../harness/paths';

/** Where the results go: `ALPHA_AXO_EXTHOST_RESULTS`, else `.vscode-test/exthost-results.json`. */
export function extHostResultsFile(): string {
  return process.env.ALPHA_AXO_EXTHOST_RESULTS || path.join(vscodeTestDir, 'exthost-results.json');
}

/**
 * The `extensionTestsPath` module: VS Code calls `run()` inside the extension host. Runs mocha over every compiled
 * `*.test.js` beside this file and writes `{passed, failed, failures}` to the results file (the host's console is
 * not relayed cleanly). Rejects when a test failed, so VS Code exits with code 1.
 */
export async function run(): Promise<void> {
  const results = await runMochaFiles(findFiles(__dirname, '.test.js'), {
    grep: process.env.ALPHA_AXO_GREP || undefined,
    timeoutMs: 30_000,
  });
  writeResults(extHostResultsFile(), results);
  if (results.failed > 0) {
    throw new Error(`${results.failed} extension-host test(s) failed`);
  }
}
