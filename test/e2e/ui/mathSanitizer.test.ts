import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { buildSync } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../harness/browser';

/** The repository root (this file runs from out/test/e2e/ui). */
const root = path.join(__dirname, '..', '..', '..', '..');

/**
 * The page's sanitiser (safeHtml.ts, with the MathML hook of mathSanitizer.ts) bundled on its own, as
 * `globalThis.sanitized(html)`: the fragment's HTML. Node has no DOM that DOMPurify runs in (no jsdom, happy-dom or
 * linkedom is installed); Chromium is the page's own engine.
 */
function sanitiserBundle(): string {
  const entry = [
    `import { safeFragment } from ${JSON.stringify(path.join(root, 'src/webview/chat/safeHtml'))};`,
    'globalThis.sanitized = (html) => {',
    "  const box = document.createElement('div');",
    '  box.append(safeFragment(html));',
    '  return box.innerHTML;',
    '};',
  ].join('\n');
  const built = buildSync({
    stdin: { contents: entry, resolveDir: root, loader: 'ts' },
    bundle: true,
    format: 'iife',
    // The page's scripts import their stylesheets; the sanitiser's test needs none of them.
    loader: { '.css': 'empty' },
    write: false,
    logLevel: 'silent',
  });
  return built.outputFiles[0].text;
}

/**
 * MathML a hostile reply could carry past the Markdown renderer: attributes DOMPurify allows on MathML by default
 * but Temml never sets (`mathcolor`, `mathbackground`, `data-*`), and ones it drops anyway (`href`, `style`, handlers).
 */
const HOSTILE =
  '<math display="block"><mrow class="a" mathcolor="#fff" mathbackground="#fff" data-x="1" href="https://x.test"' +
  ' style="color:red" onclick="alert(1)"><mi mathvariant="bold" mathsize="90em" xlink:href="javascript:alert(1)">' +
  'x</mi><merror><mtext>e</mtext></merror><maction actiontype="toggle"><mi>a</mi><mi>b</mi></maction></mrow>' +
  '<annotation-xml encoding="text/html"><a href="https://x.test">y</a></annotation-xml></math>';

describe('Chat page: the sanitiser lets through only the MathML Temml emits', function () {
  this.timeout(60_000);
  let browser: Browser | undefined;
  let page: Page;

  before(async () => {
    browser = await launchBrowser('math-sanitizer');
    page = await browser.newPage();
    await page.setContent('<!doctype html><html><body></body></html>');
    await page.addScriptTag({ content: sanitiserBundle() });
  });
  after(async () => {
    await browser?.close();
  });

  const sanitized = (html: string) =>
    page.evaluate((h) => (globalThis as unknown as { sanitized(h: string): string }).sanitized(h), html);

  it('the MathML hook drops every attribute Temml does not set, on every MathML element', async () => {
    const html = await sanitized(HOSTILE);
    // Kept: Temml's attributes (mathsize too: its size is bounded by Temml's options, not here).
    assert.match(html, /<mrow class="a">/, html);
    assert.match(html, /<mi mathvariant="bold" mathsize="90em">x<\/mi>/, html);
    // Dropped by the hook alone (DOMPurify keeps these on MathML by default).
    assert.doesNotMatch(html, /mathcolor|mathbackground|data-x/, html);
    // Dropped by the page's settings: elements Temml never emits, style, handlers, links.
    assert.doesNotMatch(html, /merror|maction|annotation-xml|style=|onclick|href/, html);
  });

  it('keeps what Temml emits for an ordinary formula', async () => {
    const formula =
      '<math display="block" alttext="x^2" aria-label="x^2"><semantics><msup><mi>x</mi><mn>2</mn></msup>' +
      '<annotation encoding="application/x-tex">x^2</annotation></semantics></math>';
    assert.equal(await sanitized(formula), formula);
  });
});
