import * as fs from 'node:fs';
import * as path from 'node:path';
import { launchBrowser, newPage } from './browser';
import { startCodeServer } from './codeServer';
import { writeResults, type TestResults } from './mochaRunner';
import { repoRoot, runDirFor, vscodeTestDir } from './paths';
import { screenshot } from './workbench';

/** How to run the extension-host suite. */
export interface ExtHostRunOptions {
  grep?: string;
  /** How long the whole suite may take, from the page load to `codeAutomationExit`. */
  timeoutMs?: number;
}

const NAME = 'exthost';

/**
 * Runs `out/test/e2e/extHost/index.js` inside code-server's extension host with the repository as the extension
 * under development (like @vscode/test-electron, without downloading VS Code): the server runs with the smoke-test
 * driver, the page opens with the test payload, and VS Code calls `codeAutomationExit(code)` when the suite ends.
 */
export async function runExtensionHostTests(options: ExtHostRunOptions = {}): Promise<TestResults> {
  const resultsFile = path.join(vscodeTestDir, `${NAME}-results.json`);
  fs.rmSync(resultsFile, { force: true });
  const timeoutMs = options.timeoutMs ?? 300_000;
  const server = await startCodeServer({
    name: NAME,
    smokeTestDriver: true,
    // The native chat (participants, vscode.lm model providers) is under test here.
    disableAIFeatures: false,
    env: {
      ALPHA_AXO_EXTHOST_RESULTS: resultsFile,
      ALPHA_AXO_GREP: options.grep ?? '',
      // The suite reads the extension's log from the user data, which lives under this process's short temp root.
      ALPHA_AXO_EXTHOST_USER_DATA: path.join(runDirFor(NAME), 'ud'),
    },
  });
  const browser = await launchBrowser(NAME);
  let exitCode: number | undefined;
  try {
    const page = await newPage(browser, NAME);
    const exited = new Promise<number>((resolve) => {
      void page.exposeFunction('codeAutomationExit', (code: number) => resolve(code));
    });
    const payload: [string, string][] = [
      ['extensionDevelopmentPath', server.remoteUri(repoRoot)],
      ['extensionTestsPath', server.remoteUri(path.join(repoRoot, 'out', 'test', 'e2e', 'extHost', 'index.js'))],
    ];
    await page.goto(server.workbenchUrl(payload));
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), timeoutMs)));
    exitCode = await Promise.race([exited, timedOut]);
    clearTimeout(timer);
    if (exitCode === undefined) {
      await screenshot(page, `${NAME}-timeout`).catch(() => undefined);
    }
  } finally {
    await browser.close().catch(() => undefined);
    await server.stop();
  }
  return readResults(resultsFile, exitCode, server.logFile, timeoutMs);
}

function readResults(file: string, exitCode: number | undefined, logFile: string, timeoutMs: number): TestResults {
  if (fs.existsSync(file)) {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as TestResults;
  }
  const why =
    exitCode === undefined
      ? `the suite did not finish within ${timeoutMs} ms`
      : `the suite exited with code ${exitCode} without writing ${file} (did the extension host start? see ${logFile})`;
  return { passed: 0, failed: 1, failures: [{ title: 'extension-host suite', error: why }] };
}

/** `node extHostRunner.js [--results FILE] [--grep X]`: runs the suite, prints a summary, exits 1 on a failure. */
async function main(argv: string[]): Promise<void> {
  const option = (name: string): string | undefined => {
    const index = argv.indexOf(name);
    return index >= 0 ? argv[index + 1] : undefined;
  };
  const results = await runExtensionHostTests({ grep: option('--grep') });
  const out = option('--results');
  if (out) {
    writeResults(out, results);
  }
  for (const failure of results.failures) {
    console.log(`  ✗ ${failure.title}\n    ${failure.error.replace(/\n/g, '\n    ')}`);
  }
  console.log(`extension host: ${results.passed} passed, ${results.failed} failed`);
  process.exit(results.failed > 0 ? 1 : 0);
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
