import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';
import { poll } from '../harness/workbench';

/** The bits of the page's DOM the recorder uses (the test code is compiled without the DOM's types). */
interface PageRegion {
  textContent: string | null;
}
interface PageBody {
  querySelector(selector: string): PageRegion;
}
type Said = { __said?: string[] };
declare const MutationObserver: new (callback: () => void) => { observe(node: unknown, options: object): void };

/**
 * Starts recording what the chat's live regions say: every non-empty text the polite (`.announcer`) or assertive
 * (`.announcer-alert`) region takes, in order, as "polite: …" / "assertive: …".
 */
export async function recordAnnouncements(frame: FrameLocator): Promise<void> {
  await frame.locator('body').evaluate((body: unknown) => {
    const said: string[] = [];
    (globalThis as Said).__said = said;
    for (const [name, selector] of [
      ['polite', '.announcer'],
      ['assertive', '.announcer-alert'],
    ]) {
      const region = (body as PageBody).querySelector(selector);
      new MutationObserver(() => {
        if (region.textContent) {
          said.push(`${name}: ${region.textContent}`);
        }
      }).observe(region, { childList: true, characterData: true, subtree: true });
    }
  });
}

/** What the live regions said since {@link recordAnnouncements} (or the last call), and forgets it. */
export async function takeAnnouncements(frame: FrameLocator): Promise<string[]> {
  return frame.locator('body').evaluate(() => (globalThis as Said).__said?.splice(0) ?? []);
}

/** Waits until the live regions have said something matching `pattern`; returns everything said until then. */
export async function waitForAnnouncement(frame: FrameLocator, pattern: RegExp, timeoutMs = 30_000): Promise<string[]> {
  const said: string[] = [];
  await poll(
    async () => {
      said.push(...(await takeAnnouncements(frame)));
      return said.some((s) => pattern.test(s));
    },
    timeoutMs,
    () => `the live regions did not say ${pattern} (they said ${JSON.stringify(said)})`,
  );
  return said;
}

/**
 * Changes user settings the way an edit of settings.json does (VS Code watches the file) and keeps the others.
 * Both the User and the Machine files, as the harness writes them.
 */
export function setUserSettings(userDataDir: string, values: Record<string, unknown>): void {
  for (const folder of ['User', 'Machine']) {
    const file = path.join(userDataDir, folder, 'settings.json');
    const current = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    fs.writeFileSync(file, `${JSON.stringify({ ...current, ...values }, null, 2)}\n`);
  }
}

/** The three themes the axe checks run in: the theme's name and the class the workbench takes with it. */
export const AXE_THEMES: readonly (readonly [theme: string, cls: string])[] = [
  ['Default Dark Modern', 'vs-dark'],
  ['Default Light Modern', 'vs'],
  ['Default High Contrast', 'hc-black'],
];

/** Switches the color theme through settings.json and waits until the workbench wears it. */
export async function switchTheme(page: Page, userDataDir: string, theme: string, cls: string): Promise<void> {
  setUserSettings(userDataDir, { 'workbench.colorTheme': theme });
  await poll(
    async () => ((await page.locator('.monaco-workbench').getAttribute('class')) ?? '').split(/\s+/).includes(cls),
    20_000,
    `the workbench did not switch to ${theme}`,
  );
}

interface FocusedElement {
  getAttribute(name: string): string | null;
  textContent: string | null;
  tagName: string;
}
declare const getComputedStyle: (e: unknown) => { outlineStyle: string; outlineWidth: string };

/** The accessible label (or text) and role-ish tag of the focused element in `frame`, '' when none. */
export async function focusedName(frame: FrameLocator): Promise<string> {
  // One look (evaluateAll does not wait): counting the focused element and then reading it once met a focus that
  // moved in between, and the read waited 30 s for an element that no longer had it.
  const names = await frame.locator(':focus').evaluateAll((elements: unknown[]) =>
    elements.map((el) => {
      const e = el as FocusedElement;
      return (e.getAttribute('aria-label') ?? e.textContent ?? '').trim();
    }),
  );
  return names[0] ?? '';
}

/** Whether the focused element in `frame` draws a visible outline (the focus ring); false when nothing has the focus. */
export async function focusRingVisible(frame: FrameLocator): Promise<boolean> {
  const rings = await frame.locator(':focus').evaluateAll((elements: unknown[]) =>
    elements.map((el) => {
      const style = getComputedStyle(el);
      return style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
    }),
  );
  return rings[0] ?? false;
}

/**
 * Presses Tab (or Shift+Tab) until the focused element of `frame` is named `name`; fails after `max` presses,
 * listing what the focus went through.
 */
export async function tabTo(page: Page, frame: FrameLocator, name: string, shift = false, max = 40): Promise<void> {
  const seen: string[] = [];
  for (let i = 0; i < max; i++) {
    const now = await focusedName(frame);
    if (now === name) {
      return;
    }
    seen.push(now);
    await page.keyboard.press(shift ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`Tab did not reach "${name}" in ${max} presses (went through ${JSON.stringify(seen)})`);
}

/** A serious or critical axe violation: its rule, impact and where. */
export interface AxeFinding {
  id: string;
  impact: string;
  help: string;
  targets: string[];
  /** axe's reason for each node, e.g. the colours and ratio of a contrast failure. */
  why: string[];
}

let axeSource: string | undefined;

/**
 * Runs axe-core in the page of `frame` and returns its serious and critical violations. The page's script policy
 * blocks an injected `<script>`, so the library's source goes in as an evaluated expression, which it does not block.
 */
export async function runAxe(frame: FrameLocator): Promise<AxeFinding[]> {
  axeSource ??= fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  const body = frame.locator('body');
  await body.evaluate(axeSource);
  return body.evaluate(async () => {
    type Result = {
      violations: {
        id: string;
        impact: string;
        help: string;
        nodes: { target: string[]; failureSummary?: string }[];
      }[];
    };
    const axe = (globalThis as unknown as { axe: { run(options: object): Promise<Result> } }).axe;
    const result = await axe.run({ resultTypes: ['violations'] });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        targets: v.nodes.map((n) => n.target.join(' ')),
        why: v.nodes.map((n) => (n.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 300)),
      }));
  });
}
