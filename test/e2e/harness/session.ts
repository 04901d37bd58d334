import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newPage } from './browser';
import { startCodeServer, type CodeServer, type CodeServerOptions } from './codeServer';
import { openWorkbench, screenshot, screenshotOnFailure } from './workbench';

/** One code-server, one browser and one workbench page, shared by the tests of one file. */
export interface WorkbenchSession {
  readonly server: CodeServer;
  readonly browser: Browser;
  readonly page: Page;
  /**
   * Opens another workbench window on the same server, in the same browser context as `page` (code-server keeps
   * secret storage in the browser context, so it sees the same keys): two windows of one user.
   */
  openAnotherWindow(): Promise<Page>;
  /** Closes the browser and stops the server (idempotent; `after` calls it too). */
  close(): Promise<void>;
}

/**
 * Registers mocha hooks on the enclosing `describe`: `before` starts code-server with `options()` (called then, so it
 * may use what earlier hooks made, like a fake service's URL), a browser and the workbench; `afterEach` takes a
 * screenshot of a failed test; `after` closes everything.
 */
export function useWorkbench(name: string, options: () => Omit<CodeServerOptions, 'name'>): WorkbenchSession {
  let server: CodeServer | undefined;
  let browser: Browser | undefined;
  let page: Page | undefined;
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
    async openAnotherWindow() {
      const other = await required(page, 'page').context().newPage();
      await openWorkbench(other, required(server, 'server').workbenchUrl());
      return other;
    },
    close,
  };

  before(async function () {
    this.timeout(180_000);
    // The browser and its page start while code-server does (each takes seconds on a 2-core machine); `after`
    // closes whichever came. The tests still begin where they did: after the workbench is drawn, and each file's first
    // command waits for its row in the palette (starting them sooner, as soon as the extension's contributions were
    // shown, made a code-assistance test fail one run in ten: a file's tab did not become active for 30 s).
    const [started, opened] = await Promise.allSettled([startCodeServer({ name, ...options() }), openBrowser(name)]);
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
  });
  afterEach(screenshotOnFailure(name, () => (browser ? page : undefined)));
  after(async function () {
    this.timeout(30_000);
    await close();
  });
  return session;
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
