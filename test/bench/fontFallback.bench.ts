import { chromium } from 'playwright-core';
import { chromiumPath } from '../e2e/harness/browser';
import { fakeConversation, openChatPage, postToPage, stateMessage } from '../support/chatPage';
import type { BenchFigure } from './benchFigure';
import { fallbackFonts } from './hostBench';

const TURNS = 100;
const TRIES = 9;

/** The first slice of ten older messages in the log (an expression run in the page). */
const FULL_SLICE = `[...document.querySelectorAll('main.log > .older-messages')].find((c) => c.childElementCount >= 10)`;

/**
 * Lays out one slice of older messages (ten of the fake's messages, as `bigConversationPage` scrolls through) again
 * and again, in the built chat page in headless Chromium: as drawn, and with every character past Latin Extended
 * replaced by an `x` (the same messages and elements, without the emoji and CJK text the fake's replies hold). Run
 * as a string in the page: the median time of each, from putting a copy into the log to its size being known.
 */
const MEASURE = `(() => {
  const log = document.querySelector('main.log');
  const slice = ${FULL_SLICE};
  const latin = (copy) => {
    const walker = document.createTreeWalker(copy, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) node.data = node.data.replace(/[^\\u0000-\\u024f]/gu, 'x');
  };
  const time = (change) => {
    const runs = [];
    for (let i = 0; i < ${TRIES}; i++) {
      const copy = slice.cloneNode(true);
      copy.classList.add('measuring');
      change(copy);
      document.body.getBoundingClientRect();
      const start = performance.now();
      log.prepend(copy);
      copy.getBoundingClientRect();
      runs.push(performance.now() - start);
      copy.remove();
    }
    return runs.sort((a, b) => a - b)[${Math.floor(TRIES / 2)}];
  };
  return { drawn: time(() => {}), latin: time(latin), chars: slice.textContent.length };
})()`;

/**
 * What the fonts on the machine cost the page benches: a slice laid out with its emoji and CJK text against the same
 * slice without it. Reported, with whether fontconfig knows a font for each (`fallbackFonts`): without one, Chromium
 * looks for a font again on every layout of such a character (2.0–3.0× on this project's build machine without them, 0.96–1.07× with them).
 */
export async function run(): Promise<BenchFigure[]> {
  const messages = fakeConversation(TURNS, 5);
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  try {
    const page = await openChatPage(browser);
    await postToPage(page, stateMessage('fonts', messages, 'Fonts'));
    // The older messages come in slices while the page is idle: wait for the first whole one the page shows.
    await page.waitForFunction(`Boolean(${FULL_SLICE})`, undefined, { timeout: 30_000 });
    const m = (await page.evaluate(MEASURE)) as { drawn: number; latin: number; chars: number };
    return [
      {
        name: `a slice of ten of the fake's messages (${m.chars.toLocaleString('en')} characters) laid out in the chat page, with its emoji and CJK text / without (${fallbackFonts()})`,
        value: `${(m.drawn / m.latin).toFixed(2)} (${m.drawn.toFixed(1)} vs ${m.latin.toFixed(1)} ms, medians of ${TRIES})`,
      },
    ];
  } finally {
    await browser.close();
  }
}
