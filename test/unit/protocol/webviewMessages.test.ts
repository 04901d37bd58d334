import * as assert from 'node:assert/strict';
import { openableLink, isUrlInTexts, CHAT_LINK_SCHEMES, WEB_LINK_SCHEMES } from '../../../src/core/service/links';
import type { Logger } from '../../../src/core/logger';
import type { HostToWebview, WebviewToHost as ChatMessage } from '../../../src/protocol/chatProtocol';
import { CHAT_VALIDATORS } from '../../../src/protocol/chatValidators';
import { WebviewChannel } from '../../../src/host/webviewChannel';
import {
  ENCYCLOPEDIA_VALIDATORS,
  type WebviewToHost as EncyclopediaMessage,
} from '../../../src/protocol/encyclopediaProtocol';
import { MAX_SHORT, MAX_TEXT, checkMessage } from '../../../src/protocol/validate';
import { ChatRouter, type RouterActions, type RouterChat } from '../../../src/features/chat/chatRouter';
import { ConnectedPages } from '../../../src/features/chat/connectedPages';

/** One well-formed message of every chat type (a `Record`, so a new type without an example does not compile). */
const CHAT_GOOD: Record<ChatMessage['type'], ChatMessage> = {
  'webview/ready': { type: 'webview/ready' },
  'chat/older': { type: 'chat/older', key: 1 },
  'chat/send': { type: 'chat/send', text: 'hello' },
  'chat/cancel': { type: 'chat/cancel', requestId: 3 },
  'queue/edit': { type: 'queue/edit', id: 'q1', text: 'edited' },
  'queue/remove': { type: 'queue/remove', id: 'q1' },
  'queue/sendNow': { type: 'queue/sendNow', id: 'q1' },
  'queue/resume': { type: 'queue/resume' },
  'chat/regenerate': { type: 'chat/regenerate' },
  'chat/edit': { type: 'chat/edit', messageId: 'm1', text: 'again' },
  'chat/branch': { type: 'chat/branch', messageId: 'm1', step: -1 },
  'chat/action': { type: 'chat/action', action: 'setChatKey' },
  'conversation/new': { type: 'conversation/new' },
  'conversation/switch': { type: 'conversation/switch', id: 'c_1' },
  'conversation/delete': { type: 'conversation/delete', id: 'c_1' },
  'conversation/rename': { type: 'conversation/rename', id: 'c_1', title: 'Renamed' },
  'conversation/pin': { type: 'conversation/pin', id: 'c_1', pinned: true },
  'conversation/duplicate': { type: 'conversation/duplicate', id: 'c_1' },
  'history/scope': { type: 'history/scope', scope: 'all' },
  'conversation/search': { type: 'conversation/search', query: '' },
  'conversation/export': { type: 'conversation/export' },
  'context/remove': { type: 'context/remove', id: 'ctx1' },
  'instructions/open': { type: 'instructions/open', index: 0 },
  'chat/compact': { type: 'chat/compact' },
  'chat/uncompact': { type: 'chat/uncompact', id: 'k1' },
  'model/select': { type: 'model/select', id: 'alpha' },
  'clipboard/copy': { type: 'clipboard/copy', text: 'x', what: 'code' },
  'code/apply': { type: 'code/apply', action: 'open', code: 'x', language: 'ts' },
  'link/open': { type: 'link/open', url: 'https://example.com/' },
  'image/load': { type: 'image/load', url: 'https://example.com/a.png' },
  'reply/focus': { type: 'reply/focus', messageId: 'm1' },
  'reply/openAsText': { type: 'reply/openAsText' },
  'chat/ground': { type: 'chat/ground', on: true },
  'source/open': { type: 'source/open', messageId: 'm1', index: 0 },
  'chat/tools': { type: 'chat/tools', access: 'read' },
  'step/review': { type: 'step/review', messageId: 'm1', stepId: 's1' },
  'attach/query': { type: 'attach/query', query: 'not' },
  'attach/add': { type: 'attach/add', id: 'o1' },
  'attach/drop': { type: 'attach/drop', uris: ['file:///ws/notes.md'] },
};

const ENCYCLOPEDIA_GOOD: Record<EncyclopediaMessage['type'], EncyclopediaMessage> = {
  'webview/ready': { type: 'webview/ready' },
  'lookup/cancel': { type: 'lookup/cancel', requestId: 1 },
  'lookup/action': { type: 'lookup/action', action: 'changeModel' },
  'lookup/refresh': { type: 'lookup/refresh' },
  'history/back': { type: 'history/back' },
  'history/forward': { type: 'history/forward' },
  'link/open': { type: 'link/open', url: 'https://example.com/' },
  'article/open': { type: 'article/open', title: 'Alan Turing' },
  'entry/openMarkdown': { type: 'entry/openMarkdown' },
  'entry/askAlpha': { type: 'entry/askAlpha' },
  'fact/insert': { type: 'fact/insert', index: 0 },
  'media/load': { type: 'media/load', url: 'https://example.com/a.png' },
  'command/run': { type: 'command/run', command: 'axo.search' },
};

const long = 'x'.repeat(MAX_SHORT + 1);

/** Messages no page of either view may send: not objects, unknown types, and prototype names. */
const NOT_MESSAGES: unknown[] = [
  null,
  undefined,
  'chat/send',
  42,
  [],
  [{ type: 'chat/send', text: 'x' }],
  {},
  { type: 7 },
  { type: 'nope' },
  { type: '__proto__' },
  { type: 'toString' },
  { type: 'constructor' },
  { type: 'hasOwnProperty' },
];

/** Chat messages of a known type with a field out of bounds. */
const CHAT_BAD: unknown[] = [
  { type: 'chat/tools', access: 'write' },
  { type: 'chat/tools' },
  { type: 'step/review', messageId: 'm1' },
  { type: 'chat/send' },
  { type: 'chat/send', text: 5 },
  { type: 'chat/send', text: 'x'.repeat(MAX_TEXT + 1) },
  { type: 'chat/cancel', requestId: '1' },
  { type: 'chat/cancel', requestId: -1 },
  { type: 'chat/cancel', requestId: 1.5 },
  { type: 'chat/cancel', requestId: Number.NaN },
  { type: 'queue/edit', id: 'q1' },
  { type: 'queue/edit', id: 'q1', text: 'x'.repeat(MAX_TEXT + 1) },
  { type: 'queue/remove', id: '' },
  { type: 'queue/sendNow', id: 7 },
  { type: 'chat/edit', messageId: '', text: 'x' },
  { type: 'chat/branch', messageId: 'm1', step: 2 },
  { type: 'chat/branch', messageId: 'm1', step: '1' },
  { type: 'chat/branch', step: 1 },
  { type: 'attach/drop', uris: 'file:///x' },
  { type: 'attach/drop', uris: [1] },
  { type: 'attach/add', id: '' },
  { type: 'chat/regenerate', messageId: 5 },
  { type: 'chat/edit', messageId: 'm1' },
  { type: 'chat/action', action: 'runCommand' },
  { type: 'chat/action', action: { toString: () => 'retry' } },
  { type: 'conversation/switch', id: 3 },
  { type: 'conversation/delete', id: long },
  { type: 'conversation/search', query: long },
  { type: 'context/remove' },
  { type: 'model/select', id: ['alpha'] },
  { type: 'clipboard/copy', text: 'x', what: 'file' },
  { type: 'clipboard/copy', what: 'code' },
  { type: 'code/apply', action: 'delete', code: 'x' },
  { type: 'code/apply', action: 'insert', code: 1 },
  { type: 'code/apply', action: 'open', code: 'x', language: long },
  { type: 'link/open', url: { href: 'https://example.com/' } },
  { type: 'link/open', url: '' },
  { type: 'image/load', url: long },
  { type: 'image/load' },
];

/** Encyclopedia messages of a known type with a field out of bounds. */
const ENCYCLOPEDIA_BAD: unknown[] = [
  { type: 'lookup/cancel', requestId: '1' },
  { type: 'lookup/action', action: 'clearCache' },
  { type: 'link/open', url: 7 },
  { type: 'article/open', title: '' },
  { type: 'article/open', title: long },
  { type: 'fact/insert', index: -1 },
  { type: 'fact/insert', index: '0' },
  { type: 'media/load', url: null },
  { type: 'command/run' },
  { type: 'command/run', command: 'axo.clearCache' },
  { type: 'command/run', command: 'workbench.action.terminal.new' },
  { type: 'command/run', command: 'alphaAxo.clearApiKeys' },
  { type: 'command/run', command: ['axo.ask'] },
];

describe('webview messages: the validator tables', () => {
  it('accept one well-formed message of every type, in both views', () => {
    for (const message of Object.values(CHAT_GOOD)) {
      assert.equal(checkMessage(CHAT_VALIDATORS, message).ok, true, message.type);
    }
    for (const message of Object.values(ENCYCLOPEDIA_GOOD)) {
      assert.equal(checkMessage(ENCYCLOPEDIA_VALIDATORS, message).ok, true, message.type);
    }
    for (const command of ['axo.ask', 'axo.article']) {
      assert.equal(checkMessage(ENCYCLOPEDIA_VALIDATORS, { type: 'command/run', command }).ok, true);
    }
    assert.equal(checkMessage(ENCYCLOPEDIA_VALIDATORS, { type: 'fact/insert' }).ok, true, 'no index asks which');
  });

  it('drop what is not a message, or of a type the view does not know', () => {
    for (const raw of [...NOT_MESSAGES, { type: 'media/load', url: 'https://example.com/a.png' }]) {
      assert.equal(checkMessage(CHAT_VALIDATORS, raw).ok, false, JSON.stringify(raw));
    }
    for (const raw of [...NOT_MESSAGES, { type: 'image/load', url: 'https://example.com/a.png' }]) {
      assert.equal(checkMessage(ENCYCLOPEDIA_VALIDATORS, raw).ok, false, JSON.stringify(raw));
    }
  });

  it('drop a known type whose fields are out of bounds, naming only the type', () => {
    for (const raw of CHAT_BAD) {
      const verdict = checkMessage(CHAT_VALIDATORS, raw);
      assert.equal(verdict.ok, false, JSON.stringify(raw).slice(0, 120));
      assert.ok(!verdict.ok && verdict.reason.length < 80);
    }
    for (const raw of ENCYCLOPEDIA_BAD) {
      assert.equal(checkMessage(ENCYCLOPEDIA_VALIDATORS, raw).ok, false, JSON.stringify(raw));
    }
  });
});

describe('webview messages: links and image URLs', () => {
  it('opens http(s) and mailto only, never with credentials in the URL', () => {
    assert.equal(openableLink('https://example.com/a?b=1#c', CHAT_LINK_SCHEMES), 'https://example.com/a?b=1#c');
    for (const url of [
      'command:workbench.action.terminal.new',
      'javascript:alert(1)',
      'file:///etc/passwd',
      'vscode://settings',
      'data:text/html,x',
      'https://user:pw@example.com/',
      'not a url',
    ]) {
      assert.equal(openableLink(url, CHAT_LINK_SCHEMES), undefined, url);
    }
    assert.equal(openableLink('mailto:a@example.com', WEB_LINK_SCHEMES), undefined);
  });

  it('keeps only to, cc, bcc, subject and body of a mailto link', () => {
    assert.equal(
      openableLink(
        'mailto:a@example.com?subject=Hi%20there&attach=/etc/passwd&CC=b@example.com&Attachment=~/.ssh/id_rsa&body=x&%61ttach=y&x-attach=z',
        CHAT_LINK_SCHEMES,
      ),
      'mailto:a@example.com?subject=Hi%20there&CC=b@example.com&body=x',
    );
    assert.equal(openableLink('mailto:a@example.com?attach=a&attachment=b', CHAT_LINK_SCHEMES), 'mailto:a@example.com');
  });

  it('knows an image URL only when it stands whole in a shown message', () => {
    const texts = [
      'See ![chart](https://img.example/chart.png "A chart") and ![b][1]\n\n[1]: https://img.example/b_1.png',
      'Escaped: ![c](https://img.example/c\\_d.png?x=1&amp;y=2)',
    ];
    for (const url of [
      'https://img.example/chart.png',
      'https://img.example/b_1.png',
      'https://img.example/c_d.png?x=1&y=2',
    ]) {
      assert.equal(isUrlInTexts(url, texts), true, url);
    }
    for (const url of ['https://img.example/chart', 'https://img.example/', 'http://127.0.0.1/x.png', '']) {
      assert.equal(isUrlInTexts(url, texts), false, url);
    }
  });
});

/** Records every call any collaborator of the router receives. */
function recordingRouter(shown: string[] = []) {
  const calls: string[] = [];
  const warnings: string[] = [];
  const record =
    (name: string) =>
    async (...args: unknown[]) =>
      void calls.push(`${name} ${JSON.stringify(args)}`);
  const chat = {
    attach: record('attach'),
    detach: record('detach'),
    send: record('send'),
    stop: record('stop'),
    regenerate: record('regenerate'),
    edit: record('edit'),
    switchBranch: record('switchBranch'),
    newConversation: record('newConversation'),
    switchTo: record('switchTo'),
    delete: record('delete'),
    search: async (q: string) => (calls.push(`search ${q}`), []),
    removeContext: record('removeContext'),
    setGround: record('setGround'),
    openSource: record('openSource'),
    prompts: {
      edit: record('editQueued'),
      remove: record('removeQueued'),
      sendNow: record('sendQueuedNow'),
      resume: record('resumeQueue'),
    },
  } as unknown as RouterChat;
  const actions = {
    copy: record('copy'),
    openInEditor: record('openInEditor'),
    applyToEditor: record('applyToEditor'),
    openLink: record('openLink'),
    loadImage: async (url: string) => void calls.push(`loadImage ${url}`),
  } as unknown as RouterActions;
  const log: Logger = {
    trace: () => undefined,
    debug: () => undefined,
    info: () => undefined,
    warn: (m) => void warnings.push(m),
    error: (m) => void warnings.push(m),
  };
  const router = new ChatRouter(chat, new ConnectedPages(), actions, {
    log,
    runErrorAction: record('runErrorAction'),
    setChatModel: record('setChatModel'),
    exportConversation: record('exportConversation'),
    shownTexts: () => shown,
  });
  const posted: unknown[] = [];
  const page = { post: (m: unknown) => void posted.push(m) };
  // What a page sends goes through the chat's channel (field checks) to the router (checks against the host's
  // state), as from a real page.
  const channel = new WebviewChannel<ChatMessage, HostToWebview>(
    { postMessage: async (m) => (posted.push(m), true), onDidReceiveMessage: () => ({ dispose: () => undefined }) },
    {
      name: 'Chat view',
      validators: CHAT_VALIDATORS,
      readyType: 'webview/ready',
      replay: () => [],
      onReady: () => undefined,
      onMessage: (message) => router.onMessage(page, message),
      onFailure: () => undefined,
      log,
    },
  );
  return {
    router: { onMessage: (_page: unknown, raw: unknown) => channel.receive(raw) },
    page,
    calls,
    warnings,
    posted,
  };
}

describe('webview messages: the chat router', () => {
  const forbidden: unknown[] = [
    ...NOT_MESSAGES,
    ...CHAT_BAD,
    { type: 'conversation/switch', id: '../../etc/passwd' },
    { type: 'conversation/delete', id: 'a b' },
    { type: 'model/select', id: 'gpt-unknown' },
    { type: 'link/open', url: 'command:workbench.action.terminal.new' },
    { type: 'link/open', url: 'javascript:alert(1)' },
    { type: 'link/open', url: 'file:///etc/passwd' },
    { type: 'image/load', url: 'https://img.example/not-shown.png' },
    { type: 'image/load', url: 'http://169.254.169.254/latest/meta-data/' },
    // A window with tool calling off has no tools to set or review.
    CHAT_GOOD['chat/tools'],
    CHAT_GOOD['step/review'],
  ];

  it('does nothing with each forbidden message, and logs why', async () => {
    const { router, page, calls, warnings, posted } = recordingRouter(['![a](https://img.example/shown.png)']);
    for (const raw of forbidden) {
      await router.onMessage(page, raw);
    }
    assert.deepEqual(calls, []);
    assert.deepEqual(posted, []);
    assert.equal(warnings.length, forbidden.length);
    assert.ok(warnings.every((w) => w.startsWith('Chat view: dropped ')));
  });

  it('passes each well-formed message on', async () => {
    const { router, page, calls, warnings } = recordingRouter(['![a](https://img.example/shown.png)']);
    await router.onMessage(page, { type: 'image/load', url: 'https://img.example/shown.png' });
    await router.onMessage(page, { type: 'link/open', url: 'mailto:a@example.com?attach=/etc/passwd&subject=x' });
    await router.onMessage(page, { type: 'conversation/switch', id: 'c_1' });
    await router.onMessage(page, CHAT_GOOD['chat/send']);
    await router.onMessage(page, CHAT_GOOD['chat/ground']);
    await router.onMessage(page, CHAT_GOOD['source/open']);
    for (const type of ['queue/edit', 'queue/remove', 'queue/sendNow', 'queue/resume'] as const) {
      await router.onMessage(page, CHAT_GOOD[type]);
    }
    assert.deepEqual(calls, [
      'loadImage https://img.example/shown.png',
      'openLink ["mailto:a@example.com?subject=x"]',
      'switchTo ["c_1"]',
      'send ["hello"]',
      'setGround [true]',
      'openSource ["m1",0]',
      'editQueued ["q1","edited"]',
      'removeQueued ["q1"]',
      'sendQueuedNow ["q1"]',
      'resumeQueue []',
    ]);
    assert.deepEqual(warnings, []);
  });
});
