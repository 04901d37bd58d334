// The one test command. Stages, in order: lint, typecheck and package (side by side), unit and exthost (side by
// side), ui.
//   node scripts/test.mjs [--only lint,typecheck,package,unit,exthost,ui] [--grep PATTERN]
// lint, typecheck and package count as one test each; the suites count their mocha tests. Prints every failure
// with its title and error, the ten slowest tests and hooks and the total time, and ends with the line
// `N passed, N failed`; exits 1 on any failure.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const resultsDir = join(root, '.vscode-test', 'results');
const harness = join(root, 'out', 'test', 'e2e', 'harness');
const STAGES = ['lint', 'typecheck', 'package', 'unit', 'exthost', 'ui'];
const MINUTE = 60_000;

const tally = { passed: 0, failed: 0, skipped: 0, failures: [], timings: [], durations: [] };
/** How many of the slowest tests (and set-up hooks) the summary lists. */
const SLOWEST = 10;
const running = new Set(); // the running children, to stop them on Ctrl-C

function parseArgs(argv) {
  const options = { only: new Set(STAGES), grep: undefined };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split(/=(.*)/s, 2);
    const value = () => inline ?? argv[++i];
    if (flag === '--only') {
      const names = value()
        .split(',')
        .map((name) => name.trim().toLowerCase());
      const unknown = names.filter((name) => !STAGES.includes(name));
      if (unknown.length > 0) {
        usage(`unknown stage ${unknown.join(', ')}`);
      }
      options.only = new Set(names);
    } else if (flag === '--grep') {
      options.grep = value();
    } else if (flag === '--help' || flag === '-h') {
      usage();
    } else {
      usage(`unknown argument ${argv[i]}`);
    }
  }
  return options;
}

function usage(error) {
  const text =
    `usage: node scripts/test.mjs [--only ${STAGES.join(',')}] [--grep PATTERN]\n` +
    '  --grep selects mocha tests by full title; a UI file is one story (its tests build on each other),\n' +
    '  so grep a whole group by its describe title, e.g. --grep "API keys".';
  if (error) {
    console.error(`${error}\n${text}`);
    process.exit(2);
  }
  console.log(text);
  process.exit(0);
}

/**
 * Runs a command in its own process group, its output streamed (or written to `out`, an array of chunks, for a
 * stage that runs beside another) and its tail kept; kills the group after `timeoutMs`. Resolves with `{ ok, tail }`.
 */
function exec(command, args, { timeoutMs, env = {}, out }) {
  const write = (stream, text) => (out ? out.push(text) : stream.write(text));
  write(
    process.stdout,
    `$ ${[command, ...args].map((arg) => (/\s/.test(arg) ? JSON.stringify(arg) : arg)).join(' ')}\n`,
  );
  return new Promise((resolvePromise) => {
    const child = spawn(command, args, {
      cwd: root,
      env: { ...process.env, ...env },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    running.add(child);
    let tail = '';
    const keep = (chunk, stream) => {
      write(stream, chunk);
      tail = (tail + chunk.toString()).slice(-4000);
    };
    child.stdout.on('data', (chunk) => keep(chunk, process.stdout));
    child.stderr.on('data', (chunk) => keep(chunk, process.stderr));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      // SIGTERM first: the harness then stops the code-servers it started (they run in groups of their own).
      killGroup(child, 'SIGTERM');
      setTimeout(() => killGroup(child, 'SIGKILL'), 5_000).unref();
    }, timeoutMs);
    child.on('error', (error) => (tail += `\n${error.message}`));
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      running.delete(child);
      killGroup(child, 'SIGKILL'); // anything the command left running in its group
      if (timedOut) {
        tail += `\n(killed after ${timeoutMs / MINUTE} min)`;
      }
      resolvePromise({ ok: code === 0 && !timedOut, tail: tail.trim(), code: code ?? signal });
    });
  });
}

function killGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

function record(stage, passed, failures) {
  tally.passed += passed;
  tally.failed += failures.length;
  for (const failure of failures) {
    tally.failures.push({ stage, ...failure });
  }
}

/**
 * A stage that counts as one test: every command must succeed. A setup step (`counted: false`) counts only when
 * it fails. With `together`, the commands run at once (each one's output held and printed in order when all end);
 * otherwise in turn, stopping at the first that fails. Returns whether it passed.
 */
async function single(stage, commands, timeoutMs, { counted = true, out, together = false } = {}) {
  const fail = ([command, ...args], tail) => {
    const title = `${counted ? stage : `setup for ${stage}`}: ${[command, ...args].join(' ')}`;
    record(stage, 0, [{ title, error: lastLines(tail, 30) }]);
    return false;
  };
  if (together) {
    const outs = commands.map(() => []);
    const results = await Promise.all(
      commands.map(([command, ...args], i) => exec(command, args, { timeoutMs, out: outs[i] })),
    );
    for (const chunks of outs) {
      if (out) {
        out.push(...chunks);
      } else {
        process.stdout.write(chunks.join(''));
      }
    }
    const failed = results.findIndex((result) => !result.ok);
    if (failed >= 0) {
      return fail(commands[failed], results[failed].tail);
    }
  } else {
    for (const [command, ...args] of commands) {
      const { ok, tail } = await exec(command, args, { timeoutMs, out });
      if (!ok) {
        return fail([command, ...args], tail);
      }
    }
  }
  record(stage, counted ? 1 : 0, []);
  return true;
}

/**
 * A mocha suite run by a harness CLI that writes `{passed, failed, failures}` to a results file; its output goes to
 * `out` when given (see `exec`).
 */
async function suite(stage, script, args, timeoutMs, out) {
  const name = `${stage}${args.label ? `-${args.label}` : ''}`;
  const resultsFile = join(resultsDir, `${name}.json`);
  rmSync(resultsFile, { force: true });
  const command = [join(harness, script), '--results', resultsFile, ...args.argv];
  const { ok, tail, code } = await exec(process.execPath, command, { timeoutMs, out });
  if (!existsSync(resultsFile)) {
    record(stage, 0, [{ title: `${name} (no results; exit ${code})`, error: lastLines(tail, 30) }]);
    return;
  }
  const results = JSON.parse(readFileSync(resultsFile, 'utf8'));
  const failures = results.failures.map((failure) => ({ title: `${name}: ${failure.title}`, error: failure.error }));
  if (!ok && failures.length === 0) {
    failures.push({ title: `${name} (exit ${code})`, error: lastLines(tail, 30) });
  }
  record(stage, results.passed, failures);
  for (const { title, ms } of results.durations ?? []) {
    tally.durations.push({ title: `${name}: ${title}`, ms });
  }
}

/** The summary's list of the slowest tests and hooks, longest first. */
function slowest() {
  const top = [...tally.durations].sort((a, b) => b.ms - a.ms).slice(0, SLOWEST);
  if (top.length === 0) {
    return;
  }
  console.log(`\nslowest ${top.length} tests and hooks:`);
  for (const { title, ms } of top) {
    console.log(`  ${(ms / 1000).toFixed(1).padStart(6)} s  ${title}`);
  }
}

function lastLines(text, count) {
  return text.split('\n').slice(-count).join('\n');
}

/** Compiled test files under `out/<dir>` ending in `.test.js` whose TypeScript source still exists. */
function compiledTests(dir, recursive) {
  const base = join(root, 'out', dir);
  if (!existsSync(base)) {
    return [];
  }
  return readdirSync(base, { withFileTypes: true, recursive })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.test.js'))
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((file) => existsSync(join(root, relative(join(root, 'out'), file)).replace(/\.js$/, '.ts')))
    .sort();
}

/**
 * UI files run in one process, in this order, so that their suites share one workbench (`useChatGroup`): starting one
 * costs a file 15–20 s here. Every other UI file runs in a process of its own.
 */
const UI_GROUPS = {
  'chat-group': [
    'chatMarkdown',
    'chatMath',
    'grounding',
    'links',
    'chatFlows',
    'promptQueue',
    'twoWindows',
    'chat',
    'accessibility',
  ],
};

/** The UI files' runs, `{ label, files }`: a group where its first file comes in the sorted list, other files alone. */
function uiRuns(files) {
  const nameOf = (file) => basename(file).replace(/\.test\.js$/, '');
  const byName = new Map(files.map((file) => [nameOf(file), file]));
  const groupOf = new Map();
  for (const [label, group] of Object.entries(UI_GROUPS)) {
    const missing = group.filter((name) => !byName.has(name));
    if (missing.length > 0) {
      throw new Error(`UI_GROUPS.${label} names files that are not there: ${missing.join(', ')}`);
    }
    for (const name of group) {
      groupOf.set(name, label);
    }
  }
  const runs = [];
  const done = new Set();
  for (const [name, file] of byName) {
    const label = groupOf.get(name);
    if (!label) {
      runs.push({ label: name, files: [file] });
    } else if (!done.has(label)) {
      done.add(label);
      runs.push({ label, files: UI_GROUPS[label].map((member) => byName.get(member)) });
    }
  }
  return runs;
}

/** A devDependency's own binary (what `npx` would run, without npm's start-up and config warnings). */
const npx = (name, ...args) => [join(root, 'node_modules', '.bin', name), ...args];
const lintCommands = () => {
  const scripts = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts ?? {};
  const globs = [...(scripts.lint ?? '').matchAll(/"([^"]+)"/g)].map((match) => match[1]);
  return [npx('eslint', '.'), npx('prettier', '--check', ...(globs.length ? globs : ['src/**/*.ts', 'test/**/*.ts']))];
};
const typecheckCommands = () => [
  npx('tsc', '-p', '.'),
  npx('tsc', '-p', 'tsconfig.src.json'),
  npx('tsc', '-p', 'src/webview'),
  npx('tsc', '-p', 'test/bench/page'),
];
const packageCommand = () => [process.execPath, join(root, 'scripts', 'package.mjs')];

/** For the e2e stages: the test host, installed if missing (a no-op when it is). Returns a reason to skip them. */
async function e2ePrerequisites() {
  if (process.env.ALPHA_AXO_SKIP_TEST_HOST === '1') {
    return 'ALPHA_AXO_SKIP_TEST_HOST=1';
  }
  const { ok, tail } = await exec(process.execPath, [join(root, 'scripts', 'installTestHost.mjs')], {
    timeoutMs: 10 * MINUTE,
  });
  if (!ok) {
    record('setup', 0, [{ title: 'setup: install the test host', error: lastLines(tail, 30) }]);
    return 'the test host could not be installed';
  }
  return undefined;
}

function skip(stage, why) {
  tally.skipped++;
  console.log(`(skipped ${stage}: ${why})`);
}

async function timed(stage, run) {
  console.log(`\n━━ ${stage} ━━`);
  const started = Date.now();
  await run();
  tally.timings.push(`${stage} ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/**
 * Stages that do not depend on each other run side by side (lint, type-check and package; then unit and extension
 * host): each one's output is held and printed whole when it ends, so the log reads as if they had run in turn.
 * `stages` is `[name, run(out)]`.
 */
async function sideBySide(stages) {
  if (stages.length === 1) {
    const [[stage, run]] = stages;
    return timed(stage, () => run(undefined));
  }
  console.log(
    `\n(${stages.map(([stage]) => stage).join(', ')} run side by side; each one's output follows when it ends)`,
  );
  let printing = Promise.resolve();
  await Promise.all(
    stages.map(async ([stage, run]) => {
      const out = [];
      const started = Date.now();
      await run(out);
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      tally.timings.push(`${stage} ${seconds} s`);
      printing = printing.then(() => {
        console.log(`\n━━ ${stage} (${seconds} s) ━━`);
        process.stdout.write(out.join(''));
      });
    }),
  );
  await printing;
}

async function main() {
  const { only, grep } = parseArgs(process.argv.slice(2));
  const grepArgs = grep ? ['--grep', grep] : [];
  const wantsE2e = only.has('exthost') || only.has('ui');
  const wantsTests = only.has('unit') || wantsE2e;
  mkdirSync(resultsDir, { recursive: true });
  const started = Date.now();

  // The suites run compiled JavaScript: compile even when type-checking is not asked for (not counted then).
  const checks = [];
  if (only.has('lint')) {
    checks.push(['lint', (out) => single('lint', lintCommands(), 5 * MINUTE, { out, together: true })]);
  }
  if (only.has('typecheck')) {
    checks.push(['typecheck', (out) => single('typecheck', typecheckCommands(), 5 * MINUTE, { out })]);
  } else if (wantsTests) {
    checks.push(['compile', (out) => single('compile', [npx('tsc', '-p', '.')], 5 * MINUTE, { counted: false, out })]);
  }
  // The e2e suites test the packaged extension: package even when the package stage is not asked for (it builds
  // from the sources into dist/, which neither the lint nor the type-check reads, so it runs beside them).
  let packaged = true;
  if (only.has('package') || wantsE2e) {
    checks.push([
      'package',
      async (out) => {
        packaged = await single('package', [packageCommand()], 3 * MINUTE, { counted: only.has('package'), out });
      },
    ]);
  }
  if (checks.length > 0) {
    await sideBySide(checks);
  }
  // Unit and extension-host tests side by side: the one is a Node process, the other a code-server and a browser,
  // neither reads what the other writes, and the unit tests' growth checks count CPU time, not the wall clock.
  let prerequisites;
  if (wantsE2e) {
    rmSync(join(root, '.vscode-test', 'screenshots'), { recursive: true, force: true }); // this run's failures only
    prerequisites = !packaged ? Promise.resolve('packaging failed') : e2ePrerequisites();
  }
  const tests = [];
  if (only.has('unit')) {
    const argv = [...grepArgs, ...compiledTests('test/unit', true)];
    tests.push(['unit', (out) => suite('unit', 'mochaRunner.js', { argv }, 5 * MINUTE, out)]);
  }
  if (only.has('exthost')) {
    tests.push([
      'exthost',
      async (out) => {
        const skipWhy = await prerequisites;
        return skipWhy
          ? skip('exthost', skipWhy)
          : suite('exthost', 'extHostRunner.js', { argv: grepArgs }, 8 * MINUTE, out);
      },
    ]);
  }
  if (tests.length > 0) {
    await sideBySide(tests);
  }
  if (wantsE2e) {
    const skipWhy = await prerequisites;
    if (only.has('ui')) {
      await timed('ui', async () => {
        for (const { label, files } of uiRuns(compiledTests('test/e2e/ui', false))) {
          if (skipWhy) {
            skip(`ui ${label}`, skipWhy);
            continue;
          }
          const argv = ['--timeout', '120000', ...grepArgs, ...files];
          await suite('ui', 'mochaRunner.js', { label, argv }, 10 * MINUTE * files.length);
        }
      });
    }
  }

  console.log('\n━━ summary ━━');
  slowest();
  console.log(`\n${tally.timings.join(' · ')}`);
  console.log(`total time ${((Date.now() - started) / 1000).toFixed(1)} s`);
  for (const failure of tally.failures) {
    console.log(`\n✗ [${failure.stage}] ${failure.title}\n  ${failure.error.replace(/\n/g, '\n  ')}`);
  }
  if (tally.skipped > 0) {
    console.log(`\n${tally.skipped} skipped`);
  }
  console.log(`${tally.passed} passed, ${tally.failed} failed`);
  process.exitCode = tally.failed > 0 ? 1 : 0;
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const child of running) {
      killGroup(child, 'SIGTERM');
    }
    process.exit(130);
  });
}

main().catch((error) => {
  console.error(error);
  console.log(`${tally.passed} passed, ${tally.failed + 1} failed`);
  process.exit(1);
});
