import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newPage } from './browser';
import { settingsNow, startCodeServer, workspaceHolds, type CodeServer, type CodeServerOptions } from './codeServer';
import { atRunEnd } from './runEnd';
import { clearNotifications, openWorkbench, runCommand, screenshot, screenshotOnFailure } from './workbench';

/** One code-server, one browser and one workbench page, shared by a suite's tests (or by suites': `useWorkbench`). */
export interface WorkbenchSession {
  readonly server: CodeServer;
  readonly browser: Browser;
  readonly page: Page;
  /** Whether this suite got the workbench an earlier suite of the same process left (see `useWorkbench`). */
  readonly reused: boolean;
  /**
   * Opens another workbench window on the same server, in the same browser context as `page` (code-server keeps
   * secret storage in the browser context, so it sees the same keys): two windows of one user.
   */
  openAnotherWindow(): Promise<Page>;
  /** Closes the browser and stops the server (idempotent; `after` calls it too). */
  close(): Promise<void>;
}

/** What an earlier suite of this process left open for the next suite that asks for the same server. */
interface Parked {
  key: string;
  /** The settings files when the suite that left it began. */
  settings: string;
  server: CodeServer;
  browser: Browser;
  page: Page;
}

let parked: Parked | undefined;

/** Closes the session a suite left open, if any (the next suite wants another, or the run ends). */
async function closeParked(): Promise<void> {
  const left = parked;
  parked = undefined;
  await left?.browser.close().catch((error: unknown) => console.error('closing the browser:', error));
  await left?.server.stop();
}

atRunEnd(closeParked);

/**
 * Registers mocha hooks on the enclosing `describe`: `before` starts code-server with `options()` (called then, so it
 * may use what earlier hooks made, like a fake service's URL), a browser and the workbench; `afterEach` takes a
 * screenshot of a failed test; `after` closes everything (or leaves it for the next suite, as below).
 *
 * Suites run in one process (the test command runs a group of UI files so) share one workbench when they ask for the
 * same server: `after` leaves it open if every test of the suite passed, and the next suite's `before` takes it when
 * its options are the same and, once its other windows, editors and notifications are closed, the server is still as
 * they would start it: the settings files as when the last suite began, the workspace files as given (code-server
 * saves an edited file, at the latest when its editor closes, so an edit shows there). `reused` then says so.
 * Otherwise that workbench is closed and a new one started, and the test output says why. Starting one costs a UI
 * file 15–20 s on a 2-core machine.
 */
export function useWorkbench(name: string, options: () => Omit<CodeServerOptions, 'name'>): WorkbenchSession {
  let server: CodeServer | undefined;
  let browser: Browser | undefined;
  let page: Page | undefined;
  let reused = false;
  let ready = false;
  let key = '';
  let settings = '';
  const close = async (): Promise<void> => {
    const [b, s] = [browser, server];
    browser = undefined;
    server = undefined;
    await b?.close().catch((error: unknown) => console.error('closing the browser:', error));
    await s?.stop();
  };
  const session: WorkbenchSession = {
    get server() {
      return required(server, 'server');
    },
    get browser() {
      return required(browser, 'browser');
    },
    get page() {
      return required(page, 'page');
    },
    get reused() {
      return reused;
    },
    async openAnotherWindow() {
      const other = await required(page, 'page').context().newPage();
      await openWorkbench(other, required(server, 'server').workbenchUrl());
      return other;
    },
    close,
  };

  before(async function () {
    this.timeout(180_000);
    const wanted = options();
    key = JSON.stringify(wanted);
    if (await takeParked(key, wanted)) {
      reused = true;
      settings = settingsNow(required(server, 'server'));
      ready = true;
      return;
    }
    await closeParked();
    // The browser and its page start while code-server does (each takes seconds on a 2-core machine); `after`
    // closes whichever came. The tests still begin where they did: after the workbench is drawn, and each file's first
    // command waits for its row in the palette (starting them sooner, as soon as the extension's contributions were
    // shown, made a code-assistance test fail one run in ten: a file's tab did not become active for 30 s).
    const [started, opened] = await Promise.allSettled([startCodeServer({ name, ...wanted }), openBrowser(name)]);
    server = started.status === 'fulfilled' ? started.value : undefined;
    if (opened.status === 'fulfilled') {
      ({ browser, page } = opened.value);
    }
    for (const result of [started, opened]) {
      if (result.status === 'rejected') {
        throw result.reason instanceof Error ? result.reason : new Error(String(result.reason));
      }
    }
    const first = required(page, 'page');
    try {
      await openWorkbench(first, required(server, 'server').workbenchUrl());
    } catch (error) {
      await screenshot(first, `${name}-open-workbench`).catch(() => undefined);
      throw error;
    }
    settings = settingsNow(required(server, 'server'));
    ready = true;
  });
  afterEach(screenshotOnFailure(name, () => (browser ? page : undefined)));
  after(async function () {
    this.timeout(30_000);
    // Only when every test of the suite ran and passed: not after a failure, nor after a hook that failed (a later
    // hook of the suite, like a group's new conversation, leaves its tests unrun).
    const passed = (this.test?.parent?.tests ?? []).every((test) => test.state === 'passed');
    if (ready && passed && server && browser && page && !page.isClosed()) {
      parked = { key, settings, server, browser, page };
      browser = undefined;
      server = undefined;
      return;
    }
    await close();
  });
  return session;

  /**
   * Takes the parked session when it was started with the same options and, once reset (other windows, the editors
   * and the notifications closed: closing an editor saves an edit auto save had not written yet), is still as they
   * would start it. Says why not in the test output; the caller then closes it.
   */
  async function takeParked(wanted: string, opts: Omit<CodeServerOptions, 'name'>): Promise<boolean> {
    const left = parked;
    if (!left) {
      return false;
    }
    const why = left.key !== wanted ? 'other options' : left.page.isClosed() ? 'its page is closed' : await reset(left);
    // The files are read only for a workbench that may be taken.
    const same =
      why === undefined &&
      settingsNow(left.server) === left.settings &&
      workspaceHolds(left.server, opts.workspaceFiles ?? {});
    if (same) {
      ({ server, browser, page } = left);
      parked = undefined;
      return true;
    }
    console.log(`    (a new workbench: the one left open has ${why ?? 'its settings or workspace files changed'})`);
    return false;
  }
}

/** Closes a workbench's other windows, its editors and its notifications; says why not when that fails. */
async function reset(left: Parked): Promise<string | undefined> {
  try {
    for (const other of left.page.context().pages()) {
      if (other !== left.page) {
        await other.close();
      }
    }
    await left.page.keyboard.press('Escape');
    await runCommand(left.page, 'View: Close All Editors');
    await clearNotifications(left.page);
    return undefined;
  } catch (error) {
    return `not been reset: ${String(error).split('\n')[0]}`;
  }
}

/** A browser and its first page; the browser is closed when the page cannot be made. */
async function openBrowser(name: string): Promise<{ browser: Browser; page: Page }> {
  const browser = await launchBrowser(name);
  try {
    return { browser, page: await newPage(browser, name) };
  } catch (error) {
    await browser.close().catch(() => undefined);
    throw error;
  }
}

function required<T>(value: T | undefined, what: string): T {
  if (value === undefined) {
    throw new Error(`the workbench session's ${what} is not open (did its before hook fail?)`);
  }
  return value;
}
