import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chatReply } from '../../fakeService/chatContent';
import { chatFrame, fillInputBox, poll, runCommand, screenshot } from '../harness/workbench';
import {
  openChat,
  prompts,
  reloadWindow,
  replies,
  sendPrompt,
  storedConversation,
  waitForReplyEnd,
  waitForLastPrompt,
  waitForReplyText,
} from './chatHelpers';
import { useChatGroup } from './chatGroup';
import { openFile } from './encyclopediaHelpers';

/** The text colour of an element and the background of its first code block, as the page computed them. */
function themeColours(element: unknown): string {
  type Styles = { color: string; backgroundColor: string };
  const page = globalThis as unknown as { getComputedStyle(e: unknown): Styles };
  const el = element as { querySelector(selector: string): unknown };
  return `${page.getComputedStyle(el).color} ${page.getComputedStyle(el.querySelector('pre') ?? el).backgroundColor}`;
}

describe('ALPHA chat in the packaged extension', function () {
  this.timeout(120_000);
  const { service, session } = useChatGroup('chat');

  it('streams a reply that grows before it completes and ends byte-exact (accents, emoji)', async () => {
    const frame = await openChat(session.page);
    const prompt = 'Tell me about cafés 🚀 #fault:slow';
    await sendPrompt(frame, prompt);
    await prompts(frame).last().waitFor();
    const stop = frame.getByRole('button', { name: 'Stop generating' });
    await stop.waitFor({ state: 'visible', timeout: 10_000 });
    const early = await waitForReplyText(frame, 5);
    const later = await waitForReplyText(frame, early.length + 20);
    assert.ok(later.length > early.length, 'the reply grows');
    assert.ok(await stop.isVisible(), 'still streaming while it grows');
    await waitForReplyEnd(frame, 60_000);
    const expected = chatReply([{ role: 'user', content: prompt }]);
    const text = await replies(frame).last().locator('.content').innerText();
    for (const piece of ['crème brûlée', 'Ærøskøbing', '🚀', '👍🏽', '👨‍👩‍👧', '東京', 'Messages received: 1.']) {
      assert.ok(text.includes(piece), `the rendered reply shows ${piece}`);
    }
    await poll(
      async () => storedConversation(session.server.userDataDir, prompt)?.messages.at(-1)?.status === 'done',
      10_000,
      'the finished reply was not saved',
    );
    const stored = storedConversation(session.server.userDataDir, prompt);
    assert.equal(stored?.messages.at(-1)?.content, expected, 'the stored reply is byte-exact');
  });

  it('Stop generating aborts the request (the service sees it) and keeps the partial text', async () => {
    const frame = await chatFrame(session.page);
    const before = service().requests.length;
    await sendPrompt(frame, 'Write at length #long:20000 #fault:slow');
    const partial = await waitForReplyText(frame, 30);
    await frame.getByRole('button', { name: 'Stop generating' }).click();
    await waitForReplyEnd(frame, 10_000);
    const request = service()
      .requests.slice(before)
      .find((r) => r.path === '/v1/alpha');
    assert.ok(request, 'the prompt reached the service');
    await poll(async () => request.aborted, 10_000, 'the service did not see the request aborted');
    const last = replies(frame).last();
    await last.getByText('Stopped.').waitFor({ timeout: 5_000 });
    const kept = await last.locator('.content').innerText();
    assert.ok(kept.length >= partial.length && kept.startsWith(partial.slice(0, 20)), 'the partial text stays');
    assert.ok(kept.length < 20_000, 'the reply did not complete');
  });

  it('Regenerate writes the last reply again in its place (the old one kept as a branch)', async () => {
    const frame = await chatFrame(session.page);
    const count = await replies(frame).count();
    const before = service().requests.length;
    await replies(frame).last().getByRole('button', { name: 'Regenerate' }).click();
    await frame.getByRole('button', { name: 'Stop generating' }).waitFor({ state: 'visible', timeout: 10_000 });
    await frame.getByRole('button', { name: 'Stop generating' }).click();
    await waitForReplyEnd(frame);
    assert.equal(await replies(frame).count(), count, 'the reply was replaced, not added');
    const sent = service()
      .requests.slice(before)
      .filter((r) => r.path === '/v1/alpha');
    assert.equal(sent.length, 1);
    // The prompt is asked again without the reply it replaces.
    const messages = (sent[0].body as { messages?: { role: string; content: string }[] }).messages ?? [];
    assert.equal(messages.at(-1)?.role, 'user', 'the replaced reply was sent back to the service');
    assert.match(messages.at(-1)?.content ?? '', /Write at length #long:20000/);
  });

  it('Copy code puts the block on the clipboard and Insert at cursor writes it into the editor', async () => {
    const page = session.page;
    const code = 'export function greet(name: string): string {\n  return `Hello, ${name}! 👋`;\n}';
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: new URL(session.server.url).origin,
    });
    const editor = await openFile(page, 'scratch.ts');
    await editor.locator('.view-line', { hasText: '// scratch' }).first().click();
    await page.keyboard.press('Control+Home');

    const frame = await chatFrame(page);
    await sendPrompt(frame, 'Show me a greeting function');
    await waitForReplyEnd(frame);
    const block = replies(frame).last().locator('pre').first();
    await block.hover();
    await replies(frame).last().getByRole('button', { name: 'Copy code' }).first().click();
    await poll(
      async () => (await page.evaluate<string>('navigator.clipboard.readText()').catch(() => '')) === code,
      10_000,
      'the clipboard does not hold the code block',
    );

    await block.hover();
    await replies(frame).last().getByRole('button', { name: 'Insert at cursor' }).first().click();
    await page.locator('.monaco-editor .view-lines', { hasText: 'export function greet' }).first().waitFor();
    await page.locator('.part.editor').click({ position: { x: 40, y: 200 } });
    await runCommand(page, 'File: Save');
    const file = path.join(session.server.workspaceDir, 'scratch.ts');
    await poll(async () => fs.readFileSync(file, 'utf8').includes(code), 10_000, 'the saved file lacks the code');
    // At the start of a line with text: the block, then a line break, so "// scratch" keeps a line of its own.
    assert.equal(fs.readFileSync(file, 'utf8'), `${code}\n// scratch\n`, 'the code went in at the cursor, once');
    fs.writeFileSync(file, '// scratch\n'); // as the suite found it
  });

  it('looks native in a light and a dark theme (screenshots kept under .vscode-test/)', async () => {
    const page = session.page;
    const frame = await chatFrame(page);
    // The picker lists the themes by label; the suite began in Dark Modern and ends in it again, so the settings are
    // as it found them (the next suite of the run may use this workbench).
    const steps = [
      ['dark', 'Dark Modern', 'vs-dark'],
      ['light', 'Light Modern', 'vs'],
      ['dark', 'Dark Modern', 'vs-dark'],
    ] as const;
    const colours: Record<string, string> = {};
    const read = () => replies(frame).last().evaluate(themeColours);
    let previous: string | undefined;
    for (const [name, theme, wanted] of steps) {
      await runCommand(page, 'Preferences: Color Theme');
      await fillInputBox(page, theme);
      await poll(
        async () =>
          ((await page.locator('.monaco-workbench').getAttribute('class')) ?? '').split(/\s+/).includes(wanted),
        15_000,
        `the workbench did not switch to ${theme}`,
      );
      // The webview gets the theme's variables a moment after the workbench: wait for the colours to change.
      await poll(async () => (await read()) !== previous, 10_000, `the chat kept its colours in ${theme}`);
      previous = await read();
      if (colours[name] !== undefined) {
        assert.equal(previous, colours[name], `back in ${theme}, the chat has its colours again`);
        continue;
      }
      colours[name] = previous;
      const file = await screenshot(page, `chat-theme-${name}`);
      assert.ok(fs.statSync(file).size > 10_000, `the ${name} screenshot was written`);
    }
    assert.notEqual(colours.light, colours.dark, 'the chat follows the theme (text and code colours changed)');
  });

  it('a reload mid-stream brings the chat back with the partial reply, marked interrupted', async () => {
    let frame = await chatFrame(session.page);
    await frame.getByRole('button', { name: 'New conversation' }).click();
    await frame.getByRole('region', { name: 'Welcome' }).waitFor({ timeout: 10_000 });
    await sendPrompt(frame, 'Reload during this #long:20000 #fault:slow');
    const partial = await waitForReplyText(frame, 40);
    // The reply is saved at most every 500 ms while it streams: reload once what was shown is on disk.
    await poll(
      async () =>
        (storedConversation(session.server.userDataDir, 'Reload during this')?.messages.at(-1)?.content.length ?? 0) >=
        40,
      10_000,
      'the streaming reply was not saved',
    );
    await reloadWindow(session.page);
    frame = await chatFrame(session.page, 60_000);
    const last = replies(frame).last();
    await last.getByText(/Interrupted/).waitFor({ timeout: 20_000 });
    const restored = await last.locator('.content').innerText();
    assert.ok(restored.length >= Math.min(partial.length, 40), `restored ${restored.length} chars`);
    await waitForLastPrompt(frame, /Reload during this/);
    assert.ok(
      await replies(frame).last().getByRole('button', { name: 'Regenerate' }).isVisible(),
      'an interrupted reply can be regenerated',
    );
  });

  it('a reload after a completed reply restores the whole conversation', async () => {
    let frame = await chatFrame(session.page);
    await sendPrompt(frame, 'And now a complete one');
    await waitForReplyEnd(frame, 30_000);
    await replies(frame).last().getByText('Messages received').waitFor();
    const count = await frame.getByRole('article').count();
    await poll(
      async () =>
        storedConversation(session.server.userDataDir, 'And now a complete one')?.messages.at(-1)?.status === 'done',
      10_000,
      'the finished reply was not saved',
    );
    await reloadWindow(session.page);
    frame = await chatFrame(session.page, 60_000);
    await replies(frame).last().getByText('Messages received').waitFor({ timeout: 20_000 });
    // The newest message comes first; older ones follow in slices while the page is idle.
    const articles = frame.getByRole('article');
    await poll(async () => (await articles.count()) >= count, 10_000, 'the older messages did not come back');
    assert.equal(await articles.count(), count);
    await waitForLastPrompt(frame, /And now a complete one/);
  });

  async function failWith(fault: string): Promise<import('playwright-core').Locator> {
    const frame = await chatFrame(session.page);
    await sendPrompt(frame, `Please fail #fault:${fault}`);
    await waitForReplyEnd(frame, 30_000);
    const last = replies(frame).last();
    await last.locator('.notice.error').waitFor({ timeout: 10_000 });
    return last;
  }

  it('a cut stream keeps its text, says it was cut off and offers Retry', async () => {
    const last = await failWith('cut');
    assert.match(await last.locator('.notice.error').innerText(), /The reply was cut off/);
    assert.ok((await last.locator('.content').innerText()).length > 0, 'the text that arrived stays');
    await last.getByRole('button', { name: 'Retry' }).waitFor();
  });

  it('a 401 names the chat key and offers "Set Chat API Key"', async () => {
    const last = await failWith('401');
    assert.match(await last.locator('.notice.error').innerText(), /chat API key/);
    await last.getByRole('button', { name: 'Set Chat API Key' }).waitFor();
  });

  it('a 429 says so and offers Retry after a countdown from Retry-After', async () => {
    const last = await failWith('429');
    assert.match(await last.locator('.notice.error').innerText(), /rate limit/i);
    const waiting = last.getByRole('button', { name: /Retry in \d s/ });
    await waiting.waitFor({ timeout: 2_000 });
    assert.equal(await waiting.isDisabled(), true);
    const ready = last.getByRole('button', { name: 'Retry', exact: true });
    await poll(async () => (await ready.count()) === 1 && (await ready.isEnabled()), 5_000, 'Retry was not enabled');
  });

  it('a 500 with an HTML body shows a readable sentence (no HTML) and Retry', async () => {
    const last = await failWith('500:html');
    const text = await last.locator('.notice.error').innerText();
    assert.match(text, /500/);
    assert.doesNotMatch(text, /<html|<!DOCTYPE|<body/i);
    await last.getByRole('button', { name: 'Retry' }).waitFor();
  });

  it('hostile output executes nothing and loads nothing', async () => {
    const page = session.page;
    const remote: string[] = [];
    const dialogs: string[] = [];
    const onRequest = (r: import('playwright-core').Request) => {
      if (/example\.com/.test(r.url())) {
        remote.push(r.url());
      }
    };
    const onDialog = (d: import('playwright-core').Dialog) => {
      dialogs.push(d.message());
      void d.dismiss();
    };
    page.on('request', onRequest);
    page.on('dialog', onDialog);
    try {
      const frame = await chatFrame(page);
      await sendPrompt(frame, 'Show me something nasty #hostile');
      await waitForReplyEnd(frame);
      const last = replies(frame).last();
      await last.getByText('Hostile markdown').waitFor();
      assert.equal(await last.locator('script, img, iframe, object, embed, form').count(), 0);
      assert.deepEqual(await last.locator('.content a').allInnerTexts(), ['safe link']);
      assert.equal(await last.locator('.content a').getAttribute('data-url'), 'https://example.com/docs');
      assert.equal(await last.locator('.content a').getAttribute('href'), null, 'VS Code opens no link itself');
      await last.locator('.inert-link', { hasText: 'click' }).click();
      await last.locator('.inert-link', { hasText: 'cmd' }).click();
      await last.getByRole('button', { name: /Load image: remote/ }).waitFor();
      assert.match(await last.locator('.content').innerText(), /<script>alert\(1\)<\/script>/);
      await page.waitForTimeout(1_000);
      assert.deepEqual(remote, [], 'nothing was loaded from the network');
      assert.deepEqual(dialogs, [], 'no script ran');
    } finally {
      page.off('request', onRequest);
      page.off('dialog', onDialog);
    }
  });
});
