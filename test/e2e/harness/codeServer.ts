import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { createHash } from 'node:crypto';
import { codeServerEntry, logDirFor, node24Path, runDirFor, vscodeTestDir } from './paths';

/** How to start one code-server. */
export interface CodeServerOptions {
  /** Names the run folder (under a short temp path, see `runDirFor`) and the log folder `.vscode-test/run-<name>`. */
  name: string;
  /** Preset as `alphaAxo.baseUrl`. */
  baseUrl?: string;
  /** More settings, written over the defaults. */
  settings?: Record<string, unknown>;
  /** `chat.disableAIFeatures`: true (the default) hides VS Code's own chat where it is not under test. */
  disableAIFeatures?: boolean;
  /** A .vsix to install with `--install-extension` before the server starts. */
  vsix?: string;
  /** Starts the server with `--vscode-option enable-smoke-test-driver` (extension-host tests; hides toasts). */
  smokeTestDriver?: boolean;
  /** Extra environment for the server and its extension host. */
  env?: Record<string, string>;
  /** Files to create in the workspace folder, by relative path. */
  workspaceFiles?: Record<string, string>;
  /** Files to create in the user data's `User` folder before the server starts (VS Code's own state files). */
  userFiles?: Record<string, string>;
  /** Binds this port instead of a random free one. */
  port?: number;
  /**
   * Opens the workspace with workspace trust on and never asked for: the folder is untrusted (Restricted Mode).
   * Without it trust is off (`--disable-workspace-trust`) and every folder is trusted.
   */
  untrusted?: boolean;
}

/** A running code-server. */
export interface CodeServer {
  /** `http://127.0.0.1:PORT` */
  readonly url: string;
  readonly port: number;
  /** User data, extensions, workspace and temp folders, under a short path; removed when the test process exits. */
  readonly runDir: string;
  readonly userDataDir: string;
  readonly extensionsDir: string;
  readonly workspaceDir: string;
  /** code-server's own log, under `.vscode-test/run-<name>`; the user data's `logs` are copied beside it on stop. */
  readonly logFile: string;
  /** The `vscode-remote://` URI of a local path, as the workbench in the browser names it. */
  remoteUri(localPath: string): string;
  /** The workbench URL opening the workspace folder, with an optional `payload` (extension-host tests). */
  workbenchUrl(payload?: [string, string][]): string;
  /** Stops the whole process group (idempotent). */
  stop(): Promise<void>;
}

const DEFAULT_SETTINGS: Record<string, unknown> = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'alphaAxo.showWalkthroughOnFirstRun': false,
  // ALPHA's tools in the chat add their description to every request: the suites of other features check requests
  // as those features make them. chatTools.test.ts (and any session that sets it) runs with tools.
  'alphaAxo.chat.tools': 'none',
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  // Nothing is checked, so nothing is updated. (`extensions.autoUpdate: false` is rewritten by VS Code as "off", and
  // a settings file VS Code rewrote looks changed to a suite that would share the workbench.)
  'extensions.autoCheckUpdates': false,
  'extensions.ignoreRecommendations': true,
  'security.workspace.trust.enabled': false,
  'git.enabled': false,
  'git.openRepositoryInParentFolders': 'never',
};

const STOP_GRACE_MS = 5_000;
const READY_TIMEOUT_MS = 60_000;
const running = new Set<ChildProcess>();

let exitHandlersInstalled = false;
let signalsHandledElsewhere = false;

/**
 * For a program that stops its servers itself on a signal (the demo: it also stops the fake service): the harness
 * then kills its servers on SIGINT, SIGTERM and SIGHUP but leaves the exit to that program.
 */
export function leaveSignalExitToCaller(): void {
  signalsHandledElsewhere = true;
}

/** A test process that ends without its `after` hooks (exit, Ctrl-C, a runner's timeout) leaves no server behind. */
function installExitHandlers(): void {
  if (exitHandlersInstalled) {
    return;
  }
  exitHandlersInstalled = true;
  const killAll = (): void => {
    for (const child of running) {
      killGroup(child, 'SIGKILL');
    }
  };
  process.on('exit', killAll);
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const) {
    process.once(signal, () => {
      killAll();
      if (!signalsHandledElsewhere) {
        process.exit(code);
      }
    });
  }
}

/** Starts code-server for one run folder and waits until it answers `/healthz`. */
export async function startCodeServer(options: CodeServerOptions): Promise<CodeServer> {
  for (const file of [node24Path, codeServerEntry]) {
    if (!fs.existsSync(file)) {
      throw new Error(`${file} is missing: install the test host with \`node scripts/installTestHost.mjs\``);
    }
  }
  installExitHandlers();
  const runDir = runDirFor(options.name);
  const dirs = {
    userDataDir: path.join(runDir, 'ud'),
    extensionsDir: path.join(runDir, 'exts'),
    workspaceDir: path.join(runDir, 'ws'),
  };
  const logDir = logDirFor(options.name);
  fs.rmSync(runDir, { recursive: true, force: true });
  fs.rmSync(logDir, { recursive: true, force: true });
  for (const dir of [...Object.values(dirs), path.join(runDir, 'tmp'), path.join(runDir, 'xdg'), logDir]) {
    fs.mkdirSync(dir, { recursive: true });
  }
  // VS Code puts its IPC sockets in XDG_RUNTIME_DIR, which must exist and be private.
  fs.mkdirSync(path.join(runDir, 'xdg', 'runtime'), { recursive: true, mode: 0o700 });
  writeSettings(dirs.userDataDir, options);
  for (const [name, text] of Object.entries(options.userFiles ?? {})) {
    fs.writeFileSync(path.join(dirs.userDataDir, 'User', name), text);
  }
  writeWorkspace(dirs.workspaceDir, options.workspaceFiles ?? {});

  const env = serverEnv(runDir, options.env ?? {});
  const common = ['--user-data-dir', dirs.userDataDir, '--extensions-dir', dirs.extensionsDir];
  if (options.vsix) {
    installExtension(options.vsix, dirs.extensionsDir, env);
  }

  const port = options.port ?? (await freePort());
  const logFile = path.join(logDir, 'code-server.log');
  const args = [
    codeServerEntry,
    '--config',
    path.join(runDir, 'config.yaml'),
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--auth',
    'none',
    ...common,
    '--disable-telemetry',
    '--disable-update-check',
    ...(options.untrusted ? [] : ['--disable-workspace-trust']),
    '--disable-getting-started-override',
    ...(options.smokeTestDriver && passesVscodeOptions() ? ['--vscode-option', 'enable-smoke-test-driver'] : []),
    dirs.workspaceDir,
  ];
  const log = fs.openSync(logFile, 'a');
  // detached: its own process group, so stop() reaches the extension host and the other children too.
  const child = spawn(node24Path, args, { cwd: runDir, env, detached: true, stdio: ['ignore', log, log] });
  fs.closeSync(log);
  running.add(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;

  const stop = async (): Promise<void> => {
    if (!running.delete(child)) {
      return;
    }
    killGroup(child, 'SIGTERM');
    const timer = setTimeout(() => killGroup(child, 'SIGKILL'), STOP_GRACE_MS);
    await exited;
    clearTimeout(timer);
    killGroup(child, 'SIGKILL'); // whatever of the group outlived the server
    keepLogs(dirs.userDataDir, logDir);
  };

  try {
    await waitForHealth(url, exited, logFile);
  } catch (error) {
    await stop();
    throw error;
  }

  const host = `127.0.0.1:${port}`;
  const remoteUri = (localPath: string): string => `vscode-remote://${host}${path.resolve(localPath)}`;
  return {
    url,
    port,
    runDir,
    ...dirs,
    logFile,
    remoteUri,
    workbenchUrl: (payload) => {
      const query = [`folder=${encodeURIComponent(dirs.workspaceDir)}`];
      if (payload) {
        query.push(`payload=${encodeURIComponent(JSON.stringify(payload))}`);
      }
      return `${url}/?${query.join('&')}`;
    },
    stop,
  };
}

/**
 * Whether this code-server takes `--vscode-option` (the pinned one does; 4.90, the oldest host, refuses it, and
 * calls `codeAutomationExit` without the smoke-test driver).
 */
function passesVscodeOptions(): boolean {
  const cli = path.join(path.dirname(codeServerEntry), 'cli.js');
  return fs.existsSync(cli) && fs.readFileSync(cli, 'utf8').includes('"vscode-option"');
}

/** Settings go to both the user and the machine (remote) settings: machine-scoped ones (VS Code's own) are read only from there. */
function writeSettings(userDataDir: string, options: CodeServerOptions): void {
  const settings: Record<string, unknown> = {
    ...DEFAULT_SETTINGS,
    'chat.disableAIFeatures': options.disableAIFeatures ?? true,
    ...(options.baseUrl === undefined ? {} : { 'alphaAxo.baseUrl': options.baseUrl }),
    ...(options.untrusted
      ? { 'security.workspace.trust.enabled': true, 'security.workspace.trust.startupPrompt': 'never' }
      : {}),
    ...options.settings,
  };
  const text = `${JSON.stringify(settings, null, 2)}\n`;
  for (const folder of ['User', 'Machine']) {
    fs.mkdirSync(path.join(userDataDir, folder), { recursive: true });
    fs.writeFileSync(path.join(userDataDir, folder, 'settings.json'), text);
  }
}

/** A running server's two settings files as they are now (VS Code rewrites them as it migrates old settings). */
export function settingsNow(server: CodeServer): string {
  return ['User', 'Machine']
    .map((folder) => readText(path.join(server.userDataDir, folder, 'settings.json')))
    .join('\0');
}

/** Whether a running server's workspace holds `files` as given (a test may have changed one). */
export function workspaceHolds(server: CodeServer, files: Record<string, string>): boolean {
  return Object.entries(files).every(
    ([relative, content]) => readText(path.join(server.workspaceDir, relative)) === content,
  );
}

function readText(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** Copies VS Code's logs (extension host, our output channel) next to code-server's, as the run folder goes away. */
function keepLogs(userDataDir: string, logDir: string): void {
  try {
    fs.cpSync(path.join(userDataDir, 'logs'), path.join(logDir, 'logs'), { recursive: true });
  } catch {
    // no logs were written
  }
}

function writeWorkspace(workspaceDir: string, files: Record<string, string>): void {
  for (const [relative, content] of Object.entries(files)) {
    const file = path.join(workspaceDir, relative);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
  }
}

/**
 * The server's environment: everything it writes stays inside the run folder; nothing from a surrounding VS Code
 * (whose IPC hook would make `--install-extension` talk to it) or the developer's own keys leaks in.
 */
function serverEnv(runDir: string, extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (/^(VSCODE_|ELECTRON_|npm_)/i.test(name) || name === 'ALPHA_API_KEY' || name === 'AXO_API_KEY') {
      continue;
    }
    env[name] = value;
  }
  const xdg = path.join(runDir, 'xdg');
  return {
    ...env,
    TMPDIR: path.join(runDir, 'tmp'),
    XDG_CONFIG_HOME: path.join(xdg, 'config'),
    XDG_DATA_HOME: path.join(xdg, 'data'),
    XDG_CACHE_HOME: path.join(xdg, 'cache'),
    XDG_RUNTIME_DIR: path.join(xdg, 'runtime'),
    ...extra,
  };
}

/**
 * Installs the .vsix into `extensionsDir`. code-server installs it once per package (its path, size and time) and
 * host into a folder under .vscode-test; each run gets a copy, with the manifest's paths pointing at the copy. That
 * is what the install writes, and saves a code-server start per run.
 */
function installExtension(vsix: string, extensionsDir: string, env: NodeJS.ProcessEnv): void {
  if (!fs.existsSync(vsix)) {
    throw new Error(`${vsix} is missing: package the extension with \`node scripts/package.mjs\``);
  }
  const stat = fs.statSync(vsix);
  const key = createHash('sha256')
    .update(`${codeServerEntry}\n${path.resolve(vsix)}\n${stat.size}\n${stat.mtimeMs}`)
    .digest('hex')
    .slice(0, 16);
  const installed = path.join(vscodeTestDir, 'installed-vsix', key);
  if (!fs.existsSync(path.join(installed, 'extensions.json'))) {
    const work = `${installed}.${process.pid}`;
    fs.rmSync(work, { recursive: true, force: true });
    // Older code-servers (4.90) make only the last folder of a path.
    fs.mkdirSync(path.join(work, 'ud'), { recursive: true });
    fs.mkdirSync(path.join(work, 'exts'), { recursive: true });
    const args = ['--user-data-dir', path.join(work, 'ud'), '--extensions-dir', path.join(work, 'exts')];
    const result = spawnSync(node24Path, [codeServerEntry, ...args, '--install-extension', vsix, '--force'], {
      env,
      encoding: 'utf8',
      timeout: 120_000,
    });
    if (result.status !== 0) {
      throw new Error(
        `installing ${vsix} failed (${result.status ?? result.signal}): ${result.stderr}${result.stdout}`,
      );
    }
    fs.rmSync(installed, { recursive: true, force: true });
    fs.renameSync(path.join(work, 'exts'), installed);
    fs.rmSync(work, { recursive: true, force: true });
  }
  fs.cpSync(installed, extensionsDir, { recursive: true });
  const manifest = path.join(extensionsDir, 'extensions.json');
  fs.writeFileSync(manifest, fs.readFileSync(manifest, 'utf8').split(installed).join(extensionsDir));
}

/** A port that was free a moment ago (the kernel's pick for port 0). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function waitForHealth(url: string, exited: Promise<void>, logFile: string): Promise<void> {
  let gone = false;
  void exited.then(() => (gone = true));
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (gone) {
      throw new Error(`code-server exited before it was ready:\n${tail(logFile)}`);
    }
    try {
      const response = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) {
        return;
      }
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`code-server did not answer ${url}/healthz within ${READY_TIMEOUT_MS} ms:\n${tail(logFile)}`);
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) {
    return;
  }
  try {
    process.kill(-child.pid, signal);
  } catch {
    // the group is gone already
  }
}

function tail(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').slice(-30).join('\n');
  } catch {
    return '(no log)';
  }
}
