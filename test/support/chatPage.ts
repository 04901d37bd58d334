import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { MessageView } from '../../src/protocol/chatProtocol';
import { chatReply, longReply } from '../fakeService/chatContent';

/** The repository root (this file runs from out/test/support). */
const root = path.join(__dirname, '..', '..', '..');

/**
 * A stand-in for VS Code's webview API, run before the chat's script: what the page posts is kept in
 * `window.__posted`, its saved state in memory.
 */
const API_STAND_IN = `
let saved;
window.__posted = [];
window.acquireVsCodeApi = () => ({
  postMessage: (m) => window.__posted.push(m),
  getState: () => saved,
  setState: (s) => { saved = s; },
});
`;

/**
 * The built chat page (`dist/webview/chat.js` and `chat.css`, as packaged) in a new 500 × 900 tab of `browser`, with
 * the API stand-in and `before` (a script run ahead of the page's own), ready for protocol messages (postToPage).
 * `surface` is where VS Code would show it (`<body data-surface>`, as webviewHtml writes it).
 */
export async function openChatPage(browser: Browser, before = '', surface?: 'view' | 'editor'): Promise<Page> {
  const js = fs.readFileSync(path.join(root, 'dist', 'webview', 'chat.js'), 'utf8');
  const css = fs.readFileSync(path.join(root, 'dist', 'webview', 'chat.css'), 'utf8');
  const page = await browser.newPage({ viewport: { width: 500, height: 900 } });
  await page.setContent(
    `<!DOCTYPE html><html><head><style>${css}</style><script>${API_STAND_IN}${before}</script></head>` +
      `<body${surface ? ` data-surface="${surface}"` : ''}><div id="root"></div></body></html>`,
  );
  await page.addScriptTag({ content: js });
  return page;
}

/** Posts a host message to the page as VS Code does: a `message` event, each in a task of its own. */
export async function postToPage(page: Page, message: unknown): Promise<void> {
  await page.evaluate((m) => (globalThis as unknown as StandInWindow).postMessage(m, '*'), message);
}

interface StandInWindow {
  postMessage(message: unknown, targetOrigin: string): void;
}

/** A `chat/state` message showing `messages` as conversation `id` (titled `title`, by default its id), nothing else. */
export function stateMessage(id: string, messages: MessageView[], title = id): unknown {
  return {
    type: 'chat/state',
    state: {
      conversationId: id,
      title,
      messages,
      conversations: [],
      models: [],
      model: 'alpha',
      pendingContext: [],
      budget: { usedTokens: 0, limitTokens: 200_000 },
      hasSelection: false,
    },
  };
}

/**
 * A conversation of `turns` prompts and the fake's replies to them, every `longEvery`-th a long reply with code
 * (1,200–3,600 characters), as the page tests and benches show it.
 */
export function fakeConversation(turns: number, longEvery = 3): MessageView[] {
  const history: { role: string; content: string }[] = [];
  const messages: MessageView[] = [];
  for (let turn = 0; turn < turns; turn++) {
    const prompt = `Question ${turn + 1}: how would I write a greeting function?`;
    history.push({ role: 'user', content: prompt });
    const reply = turn % longEvery === 0 ? longReply(1200 + ((turn * 17) % 2400)) : chatReply(history);
    history.push({ role: 'assistant', content: reply });
    messages.push({ id: `u${turn}`, role: 'user', content: prompt, createdAt: turn * 2 });
    messages.push({ id: `a${turn}`, role: 'assistant', content: reply, createdAt: turn * 2 + 1, status: 'done' });
  }
  return messages;
}
