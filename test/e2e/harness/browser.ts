import * as fs from 'node:fs';
import * as path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { shortTempRoot, vscodeTestDir } from './paths';

/** Debian's Chromium unless `CHROMIUM_PATH` names another. */
export const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * One browser for one test file, with its own folders under the short temp root (Chromium keeps a socket in its temp
 * folder); its console log goes to `.vscode-test/browser-<name>`.
 */
export async function launchBrowser(name: string): Promise<Browser> {
  if (!fs.existsSync(chromiumPath)) {
    throw new Error(`${chromiumPath} is missing: run \`apt-get install -y chromium\` or set CHROMIUM_PATH`);
  }
  const home = path.join(shortTempRoot(), `browser-${name}`);
  fs.rmSync(home, { recursive: true, force: true });
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined) {
      env[key] = value;
    }
  }
  for (const [key, folder] of Object.entries({
    XDG_CONFIG_HOME: 'config',
    XDG_DATA_HOME: 'data',
    XDG_CACHE_HOME: 'cache',
    TMPDIR: 'tmp',
  })) {
    env[key] = path.join(home, folder);
    fs.mkdirSync(env[key], { recursive: true });
  }
  return chromium.launch({ executablePath: chromiumPath, headless: true, args: CHROMIUM_ARGS, env });
}

/** A fresh context (empty storage, so empty SecretStorage) and page, its console copied to a log file. */
export async function newPage(browser: Browser, name: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  const logFile = path.join(vscodeTestDir, `browser-${name}`, 'console.log');
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  page.on('console', (message) => fs.appendFileSync(logFile, `[${message.type()}] ${message.text()}\n`));
  page.on('pageerror', (error) => fs.appendFileSync(logFile, `[pageerror] ${error.stack ?? error.message}\n`));
  return page;
}
