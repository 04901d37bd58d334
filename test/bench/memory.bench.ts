import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import * as path from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';
import { WebSocket } from 'undici';
import { newConversation, newId, type Conversation } from '../../src/core/chat/conversation/conversation';
import { ConversationStore } from '../../src/core/chat/store/conversationStore';
import { silentLogger } from '../../src/core/logger';
import { chatReply, longReply } from '../fakeService/chatContent';
import { launchBrowser, newPage } from '../e2e/harness/browser';
import { startCodeServer, type CodeServer } from '../e2e/harness/codeServer';
import { vsixPath } from '../e2e/harness/paths';
import { openWorkbench, poll } from '../e2e/harness/workbench';
import { openChat, prompts, sendPrompt, waitForReplyEnd } from '../e2e/ui/chatHelpers';
import type { BenchFigure } from './benchFigure';
import { startHostBench } from './hostBench';

const CONVERSATIONS = 50;
const MESSAGES = 500;
const REPLY_BYTES = 5 * 1024 * 1024;
const PAGE_TARGET_MB = 100;
const HOST_TARGET_MB = 150;
/** Where Node opens its inspector on SIGUSR1. */
const INSPECTOR_PORT = 9229;
const MB = 1024 * 1024;

/** A conversation of MESSAGES messages, prompts and the fake's replies with code, some long. */
function seeded(index: number, workspace: string): Conversation {
  const c = newConversation(Date.now() - index * 60_000);
  c.title = `Memory ${index}`;
  // Of this window's workspace: the list shows those by default.
  c.workspace = workspace;
  const history: { role: string; content: string }[] = [];
  for (let turn = 0; turn < MESSAGES / 2; turn++) {
    const prompt = `Memory ${index} question ${turn}: how do I read a file line by line?`;
    history.push({ role: 'user', content: prompt });
    const reply = turn % 5 === 0 ? longReply(1500 + ((index * 131 + turn * 17) % 2000)) : chatReply(history);
    history.push({ role: 'assistant', content: reply });
    c.messages.push({ id: newId(), role: 'user', content: prompt, createdAt: c.createdAt + turn * 2 });
    c.messages.push({
      id: newId(),
      role: 'assistant',
      content: reply,
      createdAt: c.createdAt + turn * 2 + 1,
      status: 'done',
    });
  }
  return c;
}

/** A stand-in service answering every chat request with a 5 MB reply with code, as 1,000-character events. */
async function startService(key: string): Promise<{ url: string; close(): Promise<void> }> {
  const reply = longReply(REPLY_BYTES);
  const body: string[] = [];
  for (let i = 0; i < reply.length; i += 1000) {
    body.push(`data: ${JSON.stringify({ content: reply.slice(i, i + 1000) })}\n\n`);
  }
  body.push('data: [DONE]\n\n');
  const server = http.createServer((req, res) => {
    req.resume();
    if (req.method !== 'POST' || req.headers.authorization !== `Bearer ${key}`) {
      res.writeHead(404).end();
      return;
    }
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(body.join(''));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The extension host of this code-server (its environment names the run folder). */
function extensionHostPid(server: CodeServer): number | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) {
      continue;
    }
    try {
      const args = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      const env = readFileSync(`/proc/${entry}/environ`, 'utf8');
      if (/extensionHost/.test(args) && env.includes(server.runDir)) {
        return Number(entry);
      }
    } catch {
      // gone, or not ours
    }
  }
  return undefined;
}

/** A Chrome DevTools Protocol call over a WebSocket (Node's inspector speaks it too). */
function cdp(url: string): {
  send(method: string, params?: object): Promise<Record<string, unknown>>;
  close(): void;
} {
  const socket = new WebSocket(url);
  const opened = new Promise<void>((resolve, reject) => {
    socket.addEventListener('open', () => resolve());
    socket.addEventListener('error', () => reject(new Error(`cannot reach the inspector at ${url}`)));
  });
  const waiting = new Map<number, (result: Record<string, unknown>) => void>();
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: Record<string, unknown> };
    if (message.id !== undefined) {
      waiting.get(message.id)?.(message.result ?? {});
    }
  });
  let next = 1;
  return {
    send: async (method, params = {}) => {
      await opened;
      const id = next++;
      return new Promise((resolve) => {
        waiting.set(id, resolve);
        socket.send(JSON.stringify({ id, method, params }));
      });
    },
    close: () => socket.close(),
  };
}

/** The extension host's JS heap in MB after a forced collection, through its inspector (opened with SIGUSR1). */
async function hostHeapMb(pid: number): Promise<number> {
  process.kill(pid, 'SIGUSR1');
  let targets: { webSocketDebuggerUrl: string }[] = [];
  await poll(
    async () => {
      const response = await fetch(`http://127.0.0.1:${INSPECTOR_PORT}/json/list`).catch(() => undefined);
      targets = response?.ok ? ((await response.json()) as typeof targets) : [];
      return targets.length > 0;
    },
    10_000,
    `the extension host's inspector did not open on port ${INSPECTOR_PORT}`,
  );
  const session = cdp(targets[0].webSocketDebuggerUrl);
  try {
    // Port 9229 is Node's default: make sure it is this extension host that answers.
    const answer = await session.send('Runtime.evaluate', { expression: 'process.pid' });
    const seen = (answer.result as { value?: unknown } | undefined)?.value;
    if (seen !== pid) {
      throw new Error(
        `the inspector on port ${INSPECTOR_PORT} is process ${String(seen)}'s, not the extension host ${pid}'s`,
      );
    }
    await session.send('HeapProfiler.collectGarbage');
    return ((await session.send('Runtime.getHeapUsage')).usedSize as number) / MB;
  } finally {
    session.close();
  }
}

/**
 * The JS heap of the page's renderer in MB after a forced collection, through Chromium's protocol. code-server keeps
 * its webviews in the workbench's process and isolate (a webview frame has no session of its own), so this is the
 * workbench's heap with the chat's in it: the chat's share is this minus the same before the chat opened.
 */
export async function rendererHeapMb(page: Page): Promise<number> {
  const session = await page.context().newCDPSession(page);
  try {
    await session.send('HeapProfiler.collectGarbage');
    return (await session.send('Runtime.getHeapUsage')).usedSize / MB;
  } finally {
    await session.detach();
  }
}

/** Shows a conversation from the list and waits until all its prompts are in the page. */
async function show(chat: FrameLocator, title: string): Promise<void> {
  const list = chat.getByRole('list', { name: 'Conversations' });
  if (!(await list.isVisible())) {
    await chat.getByRole('button', { name: 'Show conversations' }).click();
  }
  await list.getByRole('button', { name: new RegExp(`^${title}\\b`) }).click();
  await poll(
    async () => (await prompts(chat).count()) === MESSAGES / 2,
    60_000,
    async () => `${title} did not show its ${MESSAGES / 2} prompts (shows ${await prompts(chat).count()})`,
  );
}

function rows(what: string, page: number, host: number): BenchFigure[] {
  return [
    {
      name: `memory, ${what}: the chat page's JS heap after a forced collection (the renderer's, less the same before the chat opened)`,
      value: `${page.toFixed(1)} MB`,
      target: `≤ ${PAGE_TARGET_MB} MB`,
      pass: page <= PAGE_TARGET_MB,
    },
    {
      name: `memory, ${what}: the extension host's JS heap after a forced collection`,
      value: `${host.toFixed(1)} MB`,
      target: `≤ ${HOST_TARGET_MB} MB`,
      pass: host <= HOST_TARGET_MB,
    },
  ];
}

/**
 * Memory of long chats, through the packaged extension in code-server: the chat page's heap (Chromium's protocol on
 * the webview's frame) and the extension host's (Node's inspector), each after a forced collection, with a
 * conversation of 500 messages shown, after a 5 MB reply streamed, and after switching through 50 conversations of
 * 500 messages (seeded into the extension's storage before the window opens).
 */
export async function run(): Promise<BenchFigure[]> {
  const { loadRow, skipped } = startHostBench('memory');
  if (skipped) {
    return skipped;
  }
  const key = `fkc_${randomBytes(12).toString('hex')}`;
  const service = await startService(key);
  let server: CodeServer | undefined;
  const browser = await launchBrowser('bench-memory');
  try {
    server = await startCodeServer({
      name: 'bench-memory',
      vsix: vsixPath,
      baseUrl: service.url,
      env: { ALPHA_API_KEY: key },
    });
    const store = new ConversationStore(
      path.join(server.userDataDir, 'User', 'globalStorage', 'alpha-axo.alpha-axo', 'conversations'),
      silentLogger,
    );
    for (let i = 0; i < CONVERSATIONS; i++) {
      await store.save(seeded(i, pathToFileURL(server.workspaceDir).href));
    }
    await store.idle();
    store.dispose();
    const page = await newPage(browser, 'bench-memory');
    await openWorkbench(page, server.workbenchUrl());
    const before = await rendererHeapMb(page);
    const chat = await openChat(page);
    let pid: number | undefined;
    await poll(async () => (pid = server && extensionHostPid(server)) !== undefined, 15_000, 'no extension host');
    const measure = async () => [(await rendererHeapMb(page)) - before, await hostHeapMb(pid as number)] as const;

    await show(chat, 'Memory 0');
    const shown = await measure();
    await chat.getByRole('button', { name: 'New conversation' }).click();
    // The new, empty conversation is shown before the prompt counts start (the old one had 250 prompts).
    await chat.getByRole('region', { name: 'Welcome' }).waitFor({ timeout: 30_000 });
    await sendPrompt(chat, 'Write five megabytes');
    await waitForReplyEnd(chat, 300_000);
    const streamed = await measure();
    for (let i = 0; i < CONVERSATIONS; i++) {
      await show(chat, `Memory ${i}`);
    }
    const switched = await measure();
    return [
      loadRow,
      ...rows(`a conversation of ${MESSAGES} messages shown`, ...shown),
      ...rows(`after a ${REPLY_BYTES / MB} MB reply streamed`, ...streamed),
      ...rows(`after switching through ${CONVERSATIONS} conversations of ${MESSAGES} messages`, ...switched),
    ];
  } finally {
    await browser.close();
    await server?.stop();
    await service.close();
  }
}
