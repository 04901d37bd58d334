import * as assert from 'node:assert/strict';
import { replyDirective } from '../../fakeService/chatContent';
import { fillInputBox, poll, runCommand } from '../harness/workbench';
import type { FrameLocator } from 'playwright-core';
import { openChat, reloadWindow, replies, sendPrompt, waitForReplyEnd } from './chatHelpers';
import { useChatGroup } from './chatGroup';
import { encyclopediaFrame } from './encyclopediaHelpers';

describe('Grounded answers: ALPHA answers with AXO sources', function () {
  this.timeout(180_000);
  const { service, session } = useChatGroup('grounding');

  it('asks AXO first, sends its answer to ALPHA, lists the sources and opens one in the Encyclopedia view', async () => {
    const fake = service();
    // The encyclopedia returns the article's URL: a source at it is that article (any other site opens the website).
    await runCommand(session.page, 'AXO: Open Article…');
    await fillInputBox(session.page, 'Alan Turing');
    const encyclopedia = await encyclopediaFrame(session.page);
    await encyclopedia.getByRole('heading', { name: 'Alan Turing', exact: true }).first().waitFor({ timeout: 20_000 });
    const frame = await openChat(session.page);
    const toggle = frame.getByRole('button', { name: 'Ground with AXO', exact: true });
    assert.equal(await toggle.getAttribute('aria-pressed'), 'false', 'off by default');
    await toggle.click();
    await poll(async () => (await toggle.getAttribute('aria-pressed')) === 'true', 5_000, 'the toggle did not turn on');

    fake.reset();
    await sendPrompt(frame, 'Who was Alan Turing?');
    await waitForReplyEnd(frame);
    const ask = fake.requests.find((r) => r.path === '/v1/axo/ask');
    const chat = fake.requests.find((r) => r.path === '/v1/alpha');
    assert.ok(ask && chat, `both requests: ${fake.requests.map((r) => r.path).join(', ')}`);
    assert.ok(ask.id < chat.id, '/v1/axo/ask came before /v1/alpha');
    assert.match(ask.query.q ?? '', /Alan Turing/);
    const sent = JSON.stringify(chat.body);
    assert.match(sent, /numbered sources/i);
    assert.match(sent, /English mathematician/, 'the chat request carries AXO answer');
    assert.match(sent, /\[1\] Alan Turing/);

    const sources = replies(frame).last().getByRole('region', { name: 'Sources' });
    await sources.waitFor({ timeout: 20_000 });
    const first = sources.getByRole('link', { name: 'Alan Turing', exact: true });
    await first.waitFor();
    assert.equal(await first.getAttribute('title'), 'Open in the Encyclopedia view');
    await runCommand(session.page, 'View: Close All Editors');
    await first.click();
    await (
      await encyclopediaFrame(session.page)
    )
      .getByRole('heading', { name: 'Alan Turing' })
      .first()
      .waitFor({ timeout: 20_000 });
  });

  it('answers without sources, and says so, when AXO refuses the key', async () => {
    const fake = service();
    const frame = await openChat(session.page);
    fake.reset();
    fake.setFault('401', { path: '/v1/axo/ask' });
    await sendPrompt(frame, 'Who was Grace Hopper?');
    await waitForReplyEnd(frame);
    const last = replies(frame).last();
    await poll(
      async () => /Answered without sources:/.test((await last.innerText().catch(() => '')) ?? ''),
      20_000,
      'the note did not show',
    );
    assert.ok(
      fake.requests.some((r) => r.path === '/v1/alpha'),
      'the reply went ahead',
    );
    assert.equal(fake.requests.filter((r) => r.path === '/v1/axo/ask').length, 1, 'no retry');
    assert.equal(await last.getByRole('region', { name: 'Sources' }).count(), 0);
  });

  it('shows the sources again after a reload, and keeps the toggle on', async () => {
    await reloadWindow(session.page);
    const frame = await openChat(session.page);
    const toggle = frame.getByRole('button', { name: 'Ground with AXO', exact: true });
    await poll(
      async () => (await toggle.getAttribute('aria-pressed')) === 'true',
      20_000,
      'the toggle is off after reload',
    );
    const grounded = replies(frame).filter({ has: frame.getByRole('region', { name: 'Sources' }) });
    await poll(async () => (await grounded.count()) === 1, 20_000, 'the grounded reply has no Sources after reload');
    await grounded.getByRole('link', { name: 'Alan Turing', exact: true }).waitFor({ timeout: 10_000 });
  });

  const failures: [string, string, string, RegExp][] = [
    ['429', 'Who was Ada Lovelace?', '429', /Answered without sources:.*429/],
    [
      'a lookup slower than 3 s',
      'Who was Edsger Dijkstra?',
      'stall-headers',
      /Answered without sources: AXO did not answer within 3 s/,
    ],
    ['an empty answer', 'qwxz zzyzx vvqq?', '', /Answered without sources: AXO found nothing for this question/],
  ];
  for (const [what, prompt, fault, note] of failures) {
    it(`answers without sources, and says so, on ${what}`, async () => {
      const fake = service();
      const frame = await openChat(session.page);
      fake.reset();
      if (fault) {
        fake.setFault(fault, { path: '/v1/axo/ask' });
      }
      const count = await replies(frame).count();
      await sendPrompt(frame, prompt);
      await poll(async () => (await replies(frame).count()) > count, 20_000, 'no reply appeared');
      await waitForReplyEnd(frame);
      const last = replies(frame).last();
      await poll(
        async () => note.test(((await last.innerText().catch(() => '')) ?? '').replace(/\s+/g, ' ')),
        20_000,
        `the note ${String(note)} did not show`,
      );
      assert.ok(
        fake.requests.some((r) => r.path === '/v1/alpha'),
        'the reply went ahead',
      );
      assert.equal(fake.requests.filter((r) => r.path === '/v1/axo/ask').length, 1, 'no retry');
      assert.equal(await last.getByRole('region', { name: 'Sources' }).count(), 0);
    });
  }

  it('sends the cached facts of an article the question names, from the cache, even when AXO fails', async () => {
    // The first test opened "Alan Turing" in the Encyclopedia view: its facts are in the cache.
    const fake = service();
    const frame = await openChat(session.page);
    fake.reset();
    fake.setFault('500', { path: '/v1/axo/ask' });
    await sendPrompt(frame, 'When was alan turing born?');
    const chat = await fake.waitFor((r) => r.path === '/v1/alpha' && r.completed, 20_000);
    await waitForReplyEnd(frame);
    assert.match(JSON.stringify(chat.body), /\[1\] Alan Turing\\n {4}- Born: 23 June 1912/);
    assert.equal(fake.requests.filter((r) => r.path === '/v1/axo/article').length, 0, 'no article request');
    const last = replies(frame).last();
    await poll(
      async () =>
        /Answered with cached facts only:.*Cached facts of Alan Turing went along/.test(
          ((await last.innerText().catch(() => '')) ?? '').replace(/\s+/g, ' '),
        ),
      20_000,
      'the note did not show',
    );
    await last
      .getByRole('region', { name: 'Sources' })
      .getByRole('link', { name: 'Alan Turing', exact: true })
      .waitFor({ timeout: 10_000 });
  });
  /** Turns "Ground with AXO" on (the tests before left it on; run alone, it is off). */
  async function groundOn(frame: FrameLocator): Promise<void> {
    const toggle = frame.getByRole('button', { name: 'Ground with AXO', exact: true });
    if ((await toggle.getAttribute('aria-pressed')) !== 'true') {
      await toggle.click();
      await poll(async () => (await toggle.getAttribute('aria-pressed')) === 'true', 5_000, 'the toggle is off');
    }
  }

  it('opens a source on a site the encyclopedia never returned an article from as the website, whatever its title', async () => {
    const fake = service();
    // No article URL known: "Alan Turing - AXO Encyclopedia" at …/Alan_Turing is judged by where it is, not by its
    // title and path (a page titled "Promise - JavaScript | MDN" at …/Promise is no AXO article).
    await runCommand(session.page, 'AXO: Clear Encyclopedia Cache');
    const frame = await openChat(session.page);
    await groundOn(frame);
    fake.reset();
    fake.setFault('shape:site-titles', { path: '/v1/axo/ask' });
    await sendPrompt(frame, 'Who was Alan Turing, in short?');
    await waitForReplyEnd(frame);
    const sources = replies(frame).last().getByRole('region', { name: 'Sources' });
    await sources.waitFor({ timeout: 20_000 });
    const link = sources.getByRole('link', { name: 'Alan Turing - AXO Encyclopedia', exact: true });
    await link.waitFor({ timeout: 10_000 });
    assert.match((await link.getAttribute('title')) ?? '', /^https:\/\/axo\.example\/wiki\/Alan_Turing$/);
  });

  it('ALPHA: Open Reply as Text on a reply that ended in an error shows the text that arrived, then the error', async () => {
    const fake = service();
    const page = session.page;
    const frame = await openChat(page);
    fake.reset();
    fake.setFault('cut', { path: '/v1/alpha' });
    const words = 'Plain words that stream in one by one until the connection is cut somewhere along the way.';
    await sendPrompt(frame, `Tell me something ${replyDirective(words)}`);
    await waitForReplyEnd(frame);
    const last = replies(frame).last();
    const error = last.locator('.notice.error');
    await error.waitFor({ timeout: 20_000 });
    const sentence = ((await error.locator('.notice-text').innerText()) ?? '').trim();
    assert.match(sentence, /^The reply was cut off/);
    const arrived = ((await last.locator('.content').innerText()) ?? '').trim();
    assert.ok(arrived.length > 0 && words.startsWith(arrived), `the text that arrived: "${arrived}"`);

    await runCommand(page, 'ALPHA: Open Reply as Text');
    const lines = page.locator('.editor-instance .monaco-editor .view-lines').first();
    // The editor's lines in the order shown (Monaco places them by their top; the DOM order may differ).
    const text = async () =>
      lines
        .evaluate(
          (e: { querySelectorAll(s: string): ArrayLike<{ style: { top: string }; textContent: string | null }> }) =>
            Array.from(e.querySelectorAll('.view-line'))
              .sort((a, b) => parseFloat(a.style.top) - parseFloat(b.style.top))
              .map((line) => (line.textContent ?? '').replace(/\u00a0/g, ' '))
              .join('\n'),
        )
        .catch(() => '');
    await poll(
      async () => {
        const shown = await text();
        const at = shown.indexOf(arrived);
        return at >= 0 && shown.indexOf(sentence.slice(0, 40), at + arrived.length) > 0;
      },
      15_000,
      async () => `the document does not show the text, then the error: "${await text()}"`,
    );
  });
});
