import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { EncyclopediaStore } from '../../../src/core/encyclopedia/encyclopediaStore';
import type { LookupRequest, LookupValue } from '../../../src/core/encyclopedia/lookupTypes';
import type { Logger } from '../../../src/core/logger';
import { EncyclopediaController } from '../../../src/features/encyclopedia/encyclopediaController';
import { encyclopediaChannel } from '../../../src/features/encyclopedia/encyclopediaViewProvider';

const TRAP = 'alphaAxoTest.trap';
const SHOWN_IMAGE = 'https://img.example/shown.png';

/** An article whose media list is what the page may ask to load. */
const ARTICLE: LookupValue = {
  kind: 'article',
  requestedTitle: 'Alan Turing',
  article: { title: 'Alan Turing', content: 'A mathematician.', facts: [], media: [SHOWN_IMAGE], citations: [] },
};

/** Messages the Encyclopedia page may never have acted on. */
const FORBIDDEN: unknown[] = [
  null,
  'command/run',
  [],
  { type: 'nope' },
  { type: '__proto__' },
  { type: 'command/run', command: TRAP },
  { type: 'command/run', command: 'axo.clearCache' },
  { type: 'command/run', command: 'workbench.action.terminal.new' },
  { type: 'command/run' },
  { type: 'link/open', url: `command:${TRAP}` },
  { type: 'link/open', url: 'javascript:alert(1)' },
  { type: 'link/open', url: 'file:///etc/passwd' },
  { type: 'link/open', url: 'mailto:a@example.com' },
  { type: 'link/open', url: 42 },
  { type: 'media/load', url: 'https://img.example/not-shown.png' },
  { type: 'media/load', url: 'http://169.254.169.254/latest/meta-data/' },
  { type: 'media/load', url: { toString: () => SHOWN_IMAGE } },
  { type: 'article/open', title: '' },
  { type: 'article/open', title: 7 },
  { type: 'lookup/action', action: 'clearCache' },
  { type: 'lookup/cancel', requestId: '1' },
  { type: 'fact/insert', index: -1 },
];

describe('Encyclopedia page messages in the extension host', () => {
  const disposables: vscode.Disposable[] = [];
  afterEach(() => disposables.splice(0).forEach((d) => d.dispose()));

  it('does nothing with each forbidden message, and logs why', async () => {
    let trapped = 0;
    disposables.push(vscode.commands.registerCommand(TRAP, () => trapped++));
    const lookups: LookupRequest[] = [];
    const store = {
      ensureLoaded: async () => undefined,
      peekFresh: (request: LookupRequest) => {
        lookups.push(request);
        return { value: ARTICLE, storedAt: Date.now() };
      },
      lookup: async (request: LookupRequest) => {
        lookups.push(request);
        return { value: ARTICLE, storedAt: Date.now(), cached: false, stale: false, shared: false };
      },
    } as unknown as EncyclopediaStore;
    const warnings: string[] = [];
    const log: Logger = {
      trace: () => undefined,
      debug: () => undefined,
      info: () => undefined,
      warn: (m) => void warnings.push(m),
      error: (m) => void warnings.push(m),
    };
    const fetched: string[] = [];
    const fetchPublic = async (url: URL) => {
      fetched.push(url.href);
      return { contentType: 'image/png', bytes: new Uint8Array([137, 80, 78, 71]) };
    };
    const controller = new EncyclopediaController(vscode.Uri.file(__dirname), store, log, fetchPublic);
    disposables.push(controller);

    await controller.lookup({ kind: 'article', title: 'Alan Turing' });
    const lookupsBefore = lookups.length;
    // What the page sends goes through the view's channel (field checks) to the controller (checks against what
    // is shown), as from a real page.
    const page = encyclopediaChannel(
      { postMessage: async () => true, onDidReceiveMessage: () => ({ dispose: () => undefined }) },
      (message) => controller.onMessage(message),
      log,
    );
    for (const raw of FORBIDDEN) {
      await page.receive(raw);
    }
    assert.equal(trapped, 0, 'no command ran');
    assert.deepEqual(fetched, [], 'nothing was fetched');
    assert.equal(lookups.length, lookupsBefore, 'nothing was looked up');
    assert.equal(warnings.length, FORBIDDEN.length, warnings.join('\n'));
    assert.ok(
      warnings.every((w) => w.startsWith('Encyclopedia view: dropped ')),
      warnings.join('\n'),
    );

    await page.receive({ type: 'media/load', url: SHOWN_IMAGE });
    page.dispose();
    assert.deepEqual(fetched, [SHOWN_IMAGE], 'an image of the article shown is fetched');
  });
});
