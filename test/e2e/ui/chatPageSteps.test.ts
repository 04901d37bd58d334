import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import type { MessageView, StepView } from '../../../src/protocol/chatProtocol';
import { openChatPage, postToPage, stateMessage } from '../../support/chatPage';
import { launchBrowser } from '../harness/browser';

/** What the page posted to the host, of one type. */
async function posted(page: Page, type: string): Promise<unknown[]> {
  return page.evaluate(
    (t) => ((globalThis as unknown as { __posted: { type: string }[] }).__posted ?? []).filter((m) => m.type === t),
    type,
  );
}

/** The last reply's body as a list: each step as `[id]`, each piece of text as its text. */
async function bodyParts(page: Page): Promise<string[]> {
  return page.evaluate(`Array.from(
    document.querySelector('main.log > article:last-of-type .content').children,
    (el) => (el.classList.contains('step') ? '[' + el.dataset.stepId + ']' : el.textContent.trim()),
  )`);
}

/** Everything the polite live region said, recorded as it changes. */
const RECORD_SAID = `
window.__said = [];
new MutationObserver(() => {
  const region = document.querySelector('.announcer');
  if (region && region.textContent) window.__said.push(region.textContent);
}).observe(document, { subtree: true, childList: true, characterData: true });
`;

const step = (id: string, offset: number, more: Partial<StepView> = {}): StepView => ({
  id,
  tool: 'read_file',
  title: `Read \`${id}.ts\``,
  status: 'done',
  offset,
  result: `contents of ${id}`,
  ...more,
});

/** A state showing `messages`, with the control of what ALPHA may use at `toolAccess`. */
function state(messages: MessageView[], toolAccess?: string): unknown {
  const message = stateMessage('c1', messages, 'Steps') as { state: Record<string, unknown> };
  return { ...message, state: { ...message.state, toolAccess } };
}

/**
 * The built chat page in Chromium with replies that called tools: steps placed in the text, drawn from a state and
 * while streaming, their results as text, Review, the announcements, the request count and the composer's control
 * (messages/replyBody.ts, messages/steps/, composer/toolAccess.ts).
 */
describe('Chat page: a reply’s steps and what ALPHA may use', function () {
  this.timeout(60_000);
  let browser: Browser | undefined;
  let page: Page;

  before(async () => {
    browser = await launchBrowser('chat-page-steps');
    page = await openChatPage(browser, RECORD_SAID);
  });
  after(async () => {
    await browser?.close();
  });

  it('draws a reply from a state with its steps at their offsets: at the start, between, together, at the end', async () => {
    const text = 'First part.\n\nSecond part.';
    const cut = 'First part.\n\n'.length;
    const steps = [step('a', 0), step('b', cut), step('c', cut), step('d', text.length)];
    await postToPage(page, {
      ...(state([
        { id: 'u1', role: 'user', content: 'Read them', createdAt: 1 },
        { id: 'a1', role: 'assistant', content: text, createdAt: 2, status: 'done', steps },
      ]) as object),
    });
    await page.locator('.step[data-step-id="d"]').waitFor({ timeout: 20_000 });
    assert.deepEqual(await bodyParts(page), ['[a]', 'First part.', '[b]', '[c]', 'Second part.', '[d]']);
    assert.deepEqual(await page.locator('.step[data-step-id="a"] .step-title code').allInnerTexts(), ['a.ts']);
  });

  it('opens a step to show its result as text, never as HTML; the title’s markup stays text', async () => {
    const hostile = '<img src=x onerror="window.__ran=1"><b>bold</b>';
    await postToPage(
      page,
      state([
        { id: 'u1', role: 'user', content: 'Read it', createdAt: 1 },
        {
          id: 'a1',
          role: 'assistant',
          content: 'Done.',
          createdAt: 2,
          status: 'done',
          steps: [step('h', 0, { title: 'Read `<img src=y onerror="window.__ran=2">`', result: hostile })],
        },
      ]),
    );
    const toggle = page.locator('.step[data-step-id="h"] .step-toggle');
    await toggle.waitFor({ timeout: 20_000 });
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    assert.equal(await page.locator('.step-result-text').count(), 0, 'a closed step holds no copy of its result');
    await toggle.focus();
    await page.keyboard.press('Enter');
    assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
    const result = page.locator('.step[data-step-id="h"] .step-result-text');
    assert.equal(await result.textContent(), hostile);
    assert.equal(await page.locator('.step img, .step b').count(), 0, 'no markup from a result or a title');
    assert.equal(await page.evaluate(() => (globalThis as unknown as { __ran?: number }).__ran), undefined);
    await page.keyboard.press('Enter');
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    assert.ok(await page.locator('.step[data-step-id="h"] .step-result').isHidden());
  });

  it('offers Review on a proposed edit, which asks the host to open it again', async () => {
    await postToPage(
      page,
      state([
        { id: 'u1', role: 'user', content: 'Fix it', createdAt: 1 },
        {
          id: 'a9',
          role: 'assistant',
          content: 'I proposed a change.',
          createdAt: 2,
          status: 'done',
          steps: [step('e1', 0, { tool: 'propose_edit', title: 'Proposed a change to `README.md`', review: true })],
        },
      ]),
    );
    const review = page.getByRole('button', { name: 'Review: Proposed a change to README.md' });
    await review.click();
    assert.deepEqual(await posted(page, 'step/review'), [{ type: 'step/review', messageId: 'a9', stepId: 'e1' }]);
  });

  it('streams steps into the reply: a finished piece stays, an update replaces its step, each is said once', async () => {
    await postToPage(page, state([]));
    await postToPage(page, { type: 'ui/display', display: { announceReplies: 'firstSentence', fontSize: 0 } });
    await postToPage(page, {
      type: 'chat/started',
      requestId: 5,
      user: { id: 'u5', role: 'user', content: 'Why?', createdAt: 3 },
      reply: { id: 'a5', role: 'assistant', content: '', createdAt: 4, status: 'streaming' },
      budget: { usedTokens: 0, limitTokens: 200_000 },
      conversations: [],
    });
    const intro = 'Let me read the file.\n\n';
    await postToPage(page, { type: 'chat/delta', requestId: 5, text: intro });
    await page.waitForFunction(`document.querySelector('main.log > article:last-of-type .content p')`);
    const running = step('r1', intro.length, { title: 'Reading `src/app.ts`', status: 'running', result: undefined });
    await postToPage(page, {
      type: 'chat/step',
      requestId: 5,
      step: running,
      sources: [{ title: 'Alan Turing', kind: 'article' }],
    });
    // The finished piece's paragraph is marked: it must be the same element at the end.
    const FIRST_PIECE = `document.querySelector('main.log > article:last-of-type .content .reply-text p')`;
    await page.evaluate(`${FIRST_PIECE}.__kept = true`);
    const toggle = page.locator('.step[data-step-id="r1"] .step-toggle');
    await toggle.waitFor();
    await toggle.evaluate((el) => ((el as unknown as { __kept: boolean }).__kept = true));
    assert.equal(await page.locator('.step[data-step-id="r1"] .codicon-loading').count(), 1);
    await postToPage(page, {
      type: 'chat/step',
      requestId: 5,
      step: { ...running, status: 'done', title: 'Read `src/app.ts`, lines 1–9', result: 'line one', sources: [1] },
    });
    await postToPage(page, { type: 'chat/delta', requestId: 5, text: 'It says line one [1].' });
    await postToPage(page, {
      type: 'chat/step',
      requestId: 5,
      step: step('r2', intro.length + 'It says line one [1].'.length, { status: 'failed', result: 'No such file.' }),
    });
    await postToPage(page, {
      type: 'chat/done',
      requestId: 5,
      status: 'done',
      usage: { input: 1200, output: 40, reported: true },
      requests: 3,
    });
    await page.waitForFunction(`!document.querySelector('.live-block')`);
    assert.deepEqual(await bodyParts(page), [
      'Let me read the file.',
      '[r1]',
      'It says line one [1].',
      '[r2]',
      // The empty piece after the last step, where more text would have gone.
      '',
    ]);
    assert.equal(await page.locator('.step').count(), 2, 'the update replaced its step');
    assert.ok(await toggle.evaluate((el) => (el as unknown as { __kept?: boolean }).__kept), 'updated in place');
    assert.equal(await page.evaluate(`${FIRST_PIECE}.__kept`), true, 'the finished piece was not drawn again');
    assert.equal(await page.locator('.step[data-step-id="r1"] .codicon-check').count(), 1);
    assert.match((await toggle.textContent()) ?? '', /Read src\/app\.ts, lines 1–9, done/);
    assert.equal(await page.locator('.step[data-step-id="r2"] .codicon-error').count(), 1);
    const source = page.locator('.step[data-step-id="r1"] a.citation');
    assert.equal(await source.getAttribute('aria-label'), 'Source 1');
    await source.click();
    assert.deepEqual((await posted(page, 'source/open')).at(-1), { type: 'source/open', messageId: 'a5', index: 0 });
    assert.equal(await page.getByRole('region', { name: 'Sources' }).count(), 1);
    assert.match(
      (await page.locator('main.log > article:last-of-type .usage-line').textContent()) ?? '',
      /1,200 tokens in, 40 out \(reported by the service\) · 3 requests/,
    );
    const said = (await page.evaluate(() => (globalThis as unknown as { __said: string[] }).__said)).filter((s) =>
      /src\/app|r2\.ts/.test(s),
    );
    assert.deepEqual(
      [...new Set(said)],
      ['Reading src/app.ts', 'Read r2.ts'],
      'each step said once, by its first title',
    );
  });

  it('says a new announcement at once, the same one again a frame later, and the last of two said in one frame', async () => {
    const said = (await page.evaluate(`(async () => {
      const region = document.querySelector('.announcer');
      const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
      // What the region holds right after the page handled each message (this listener runs after the page's own).
      const held = [];
      const listen = (e) => { if (e.data && e.data.type === 'ui/announce') held.push(region.textContent); };
      window.addEventListener('message', listen);
      const announce = (text) => window.postMessage({ type: 'ui/announce', text }, '*');
      const until = async (done) => { for (let i = 0; i < 200 && !done(); i++) await frame(); };
      await frame();
      window.__said.length = 0;
      announce('Copied one');
      await until(() => held.length === 1);
      announce('Copied one');
      await until(() => held.length === 2);
      await until(() => region.textContent === 'Copied one');
      await frame();
      // Both in the task queue before the next frame: the same text (which waits for a frame), then a new one.
      announce('Copied one');
      announce('Inserted');
      await until(() => held.length === 4);
      await frame();
      await frame();
      window.removeEventListener('message', listen);
      return { held, said: window.__said.slice(), now: region.textContent };
    })()`)) as { held: string[]; said: string[]; now: string };
    assert.equal(said.held[0], 'Copied one', 'a new text is in the region in the task that said it');
    assert.equal(said.held[1], '', 'the same text again is cleared first');
    assert.deepEqual(said.said.slice(0, 2), ['Copied one', 'Copied one'], 'the same text is said again');
    assert.equal(said.now, 'Inserted', 'the frame puts the latest text in, not the one that waited before it');
    assert.equal(said.said.at(-1), 'Inserted');
  });

  it('has no serious accessibility fault with steps on the page, one of them open', async () => {
    // The bare page has no theme's colours (contrast in the three themes is the UI suite's: accessibility.test.ts),
    // and none of the title and language the host writes into the real one (webviewHtml): those rules are off.
    await page.locator('.step[data-step-id="r1"] .step-toggle').click();
    await page.evaluate(fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));
    const serious = await page.evaluate(`axe.run({
      resultTypes: ['violations'],
      rules: { 'document-title': { enabled: false }, 'html-has-lang': { enabled: false } },
    }).then((r) => r.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => v.id + ': ' + v.nodes.map((n) => n.target.join(' ')).join(', ')))`);
    assert.deepEqual(serious, []);
  });

  it('keeps Ctrl+Up and Ctrl+Down moving between messages from a step', async () => {
    await page.locator('.step[data-step-id="r2"] .step-toggle').focus();
    await page.keyboard.press('Control+ArrowUp');
    assert.equal(await page.evaluate(`document.activeElement.getAttribute('aria-label')`), 'You');
  });

  it('shows what ALPHA may use from the state, posts a choice, and hides where there is none', async () => {
    const control = page.getByRole('combobox', { name: 'ALPHA may use' });
    await postToPage(page, state([], 'read'));
    await control.waitFor({ state: 'visible' });
    assert.equal(await control.inputValue(), 'read');
    assert.deepEqual(await control.locator('option').allInnerTexts(), [
      'Nothing',
      'AXO',
      'AXO and reading',
      'AXO, reading and edits',
    ]);
    await control.focus();
    await page.keyboard.press('ArrowDown');
    await control.selectOption('none');
    assert.deepEqual((await posted(page, 'chat/tools')).at(-1), { type: 'chat/tools', access: 'none' });
    await postToPage(page, state([]));
    await control.waitFor({ state: 'hidden' });
  });

  it('streams a reply of many steps in time linear in their number', async () => {
    // Each run streams a reply of `n` rounds (a delta, a step, its update) in one task, dispatched as the host's
    // messages are, and is timed in the page; the best of three runs a size counts. A step that drew the reply again
    // would make 8n steps 64 times as slow.
    const timeRun = (n: number): Promise<number> =>
      page.evaluate(`(() => {
        const post = (data) => window.dispatchEvent(new MessageEvent('message', { data }));
        post({ type: 'chat/state', state: { conversationId: 'g${n}', title: 'g', messages: [], conversations: [],
          models: [], model: 'alpha', pendingContext: [], budget: { usedTokens: 0, limitTokens: 1 },
          hasSelection: false, groundWithAxo: false } });
        const started = performance.now();
        post({ type: 'chat/started', requestId: 9, user: { id: 'gu', role: 'user', content: 'q', createdAt: 1 },
          reply: { id: 'ga', role: 'assistant', content: '', createdAt: 2, status: 'streaming' },
          budget: { usedTokens: 0, limitTokens: 1 }, conversations: [] });
        let length = 0;
        for (let i = 0; i < ${n}; i++) {
          const text = 'Paragraph ' + i + ' with \`code\` and *emphasis*.\\n\\n';
          post({ type: 'chat/delta', requestId: 9, text });
          length += text.length;
          const step = { id: 's' + i, tool: 'read_file', title: 'Read \`f' + i + '.ts\`', status: 'running', offset: length };
          post({ type: 'chat/step', requestId: 9, step });
          post({ type: 'chat/step', requestId: 9, step: { ...step, status: 'done', result: 'text ' + i } });
        }
        post({ type: 'chat/done', requestId: 9, status: 'done' });
        return performance.now() - started;
      })()`);
    const best = async (n: number) => Math.min(await timeRun(n), await timeRun(n), await timeRun(n));
    const small = await best(60);
    const large = await best(480);
    assert.equal(await page.locator('main.log > article:last-of-type .step').count(), 480);
    const ratio = large / Math.max(small, 1);
    assert.ok(
      ratio <= 32,
      `60 steps ${small.toFixed(1)} ms, 480 steps ${large.toFixed(1)} ms: grew ${ratio.toFixed(1)} times`,
    );
    console.log(`      60 steps ${small.toFixed(1)} ms, 480 steps ${large.toFixed(1)} ms (${ratio.toFixed(1)} times)`);
  });
});
