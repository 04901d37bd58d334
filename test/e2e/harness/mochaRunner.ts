import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';
import { parentOf } from './paths';
import { runEnd } from './runEnd';
import { ignorePageStyles } from '../../support/pageStyles';

/** What a suite run reports, to a results file the test command reads. */
export interface TestResults {
  passed: number;
  failed: number;
  failures: { title: string; error: string }[];
  /** How long each test and each set-up or tear-down hook took, in milliseconds, in the order they ran. */
  durations?: TestDuration[];
}

/** One test's or hook's time. */
export interface TestDuration {
  title: string;
  ms: number;
}

/** A hook shorter than this is not listed among the durations. */
const SLOW_HOOK_MS = 100;

/** How to run a set of compiled test files. */
export interface MochaRunOptions {
  grep?: string;
  timeoutMs?: number;
  color?: boolean;
  /** The mocha reporter printing progress (default `spec`). */
  reporter?: string;
}

/** Runs mocha (BDD) over the given files in this process and counts passes and failures (hooks included). */
export async function runMochaFiles(files: string[], options: MochaRunOptions = {}): Promise<TestResults> {
  ignorePageStyles();
  const mocha = new Mocha({
    ui: 'bdd',
    reporter: options.reporter ?? 'spec',
    timeout: options.timeoutMs ?? 10_000,
    color: options.color ?? false,
    ...(options.grep ? { grep: options.grep } : {}),
  });
  for (const file of files) {
    mocha.addFile(path.resolve(file));
  }
  // What suites left open for the next one of the run (a shared workbench, a fake service) is closed at its end.
  mocha.suite.afterAll('close what the suites left open', async function () {
    this.timeout(60_000);
    await runEnd();
  });
  const results: TestResults = { passed: 0, failed: 0, failures: [], durations: [] };
  const timed = (runnable: Mocha.Runnable) => {
    if (typeof runnable.duration === 'number') {
      results.durations?.push({ title: runnable.fullTitle(), ms: runnable.duration });
    }
  };
  await new Promise<void>((resolve) => {
    const runner = mocha.run(() => resolve());
    runner.on('pass', (test) => {
      results.passed++;
      timed(test);
    });
    runner.on('fail', (test, error: unknown) => {
      results.failed++;
      results.failures.push({ title: test.fullTitle(), error: describe(error) });
      if (test.type === 'test') {
        timed(test);
      }
    });
    // Set-up and tear-down (a code-server started, a page loaded) is time too, and often the most of it.
    // Only the hooks that take a noticeable time: a `beforeEach` runs once per test.
    runner.on('hook end', (hook) => {
      if ((hook.duration ?? 0) >= SLOW_HOOK_MS) {
        timed(hook);
      }
    });
  });
  return results;
}

/** Every file under `dir` whose name ends with `suffix`, sorted. */
export function findFiles(dir: string, suffix: string): string[] {
  if (!fs.existsSync(dir)) {
    return [];
  }
  const found: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name.endsWith(suffix)) {
      found.push(path.join(parentOf(entry), entry.name));
    }
  }
  return found.sort();
}

/** Writes results as JSON, creating the folder. */
export function writeResults(file: string, results: TestResults): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    return (error.stack ?? `${error.name}: ${error.message}`).split('\n').slice(0, 12).join('\n');
  }
  return String(error);
}

/**
 * `node mochaRunner.js --results FILE [--grep X] [--timeout MS] FILE...`: runs the files in this Node, writes the
 * results and exits 1 when one failed.
 */
async function main(argv: string[]): Promise<void> {
  const files: string[] = [];
  let resultsFile: string | undefined;
  const options: MochaRunOptions = { color: process.stdout.isTTY };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--results') {
      resultsFile = argv[++i];
    } else if (arg === '--grep') {
      options.grep = argv[++i];
    } else if (arg === '--timeout') {
      options.timeoutMs = Number(argv[++i]);
    } else {
      files.push(arg);
    }
  }
  const results = await runMochaFiles(files, options);
  if (resultsFile) {
    writeResults(resultsFile, results);
  }
  // Like mocha's --exit: a handle left open (a socket, a timer) must not keep the run from ending.
  process.exit(results.failed > 0 ? 1 : 0);
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
