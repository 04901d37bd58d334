import * as assert from 'node:assert/strict';
import Module from 'node:module';
import type * as vscode from 'vscode';
import type { KeyKind } from '../../../src/core/service/errors';
import { SecretStore } from '../../../src/host/secretStore';
import { SecretScrubber } from '../../../src/core/service/secretScrubber';
import type { Services } from '../../../src/host/services';

// The key commands run in plain Node here, with a stand-in for the few `vscode` calls they make: what each
// notification says, which buttons it offers, and which one the user picks.

interface Shown {
  level: 'warning' | 'information' | 'error';
  message: string;
  items: string[];
}

const shown: Shown[] = [];
let typed: string | undefined;
let pick: (message: string, items: string[]) => string | undefined = () => undefined;

function notify(level: Shown['level']) {
  return async (message: string, ...rest: unknown[]) => {
    const items = rest.filter((item): item is string => typeof item === 'string');
    shown.push({ level, message, items });
    return level === 'warning' ? pick(message, items) : undefined;
  };
}

const vscodeStandIn = {
  l10n: { t: (message: string, ...args: unknown[]) => message.replace(/\{(\d+)\}/g, (_, i) => String(args[+i])) },
  window: {
    showInputBox: async () => typed,
    showWarningMessage: notify('warning'),
    showInformationMessage: notify('information'),
    showErrorMessage: notify('error'),
  },
};

type Loader = (request: string, parent: unknown, isMain: boolean) => unknown;
type KeysModule = typeof import('../../../src/features/keys/registerKeys');
type NoticeModule = typeof import('../../../src/features/keys/keyringNotice');

/** Loads a module with `vscode` resolved to the stand-in. */
async function withStandIn<T>(load: () => Promise<T>): Promise<T> {
  const loader = Module as unknown as { _load: Loader };
  const original = loader._load;
  loader._load = function (request, parent, isMain) {
    return request === 'vscode' ? vscodeStandIn : original.call(this, request, parent, isMain);
  };
  try {
    return await load();
  } finally {
    loader._load = original;
  }
}

function storage(behaviour: 'throws' | 'hangs'): vscode.SecretStorage {
  const answer = () =>
    behaviour === 'throws'
      ? Promise.reject(new Error('Cannot autolaunch D-Bus without X11 $DISPLAY'))
      : new Promise<never>(() => undefined);
  const fake = { get: answer, store: answer, delete: answer, onDidChange: () => ({ dispose: () => undefined }) };
  return fake as unknown as vscode.SecretStorage;
}

describe('keys when the keyring is missing, as the user sees it', () => {
  let keys: KeysModule;
  let notice: NoticeModule;
  const disposables: { dispose(): unknown }[] = [];

  before(async () => {
    keys = await withStandIn(() => import('../../../src/features/keys/registerKeys'));
    notice = await withStandIn(() => import('../../../src/features/keys/keyringNotice'));
  });

  beforeEach(() => {
    shown.length = 0;
    typed = undefined;
    pick = () => undefined;
  });

  afterEach(() => disposables.splice(0).forEach((d) => d.dispose()));

  function services(behaviour: 'throws' | 'hangs', env: NodeJS.ProcessEnv = {}): Services & { logged: string[] } {
    const secrets = new SecretStore(storage(behaviour), { env, timeoutMs: 50 });
    disposables.push(secrets);
    const logged: string[] = [];
    const log = {
      info: (m: string) => logged.push(m),
      warn: (m: string) => logged.push(m),
      setSecrets: () => undefined,
    };
    return { secrets, log, logged, scrubber: new SecretScrubber() } as unknown as Services & { logged: string[] };
  }

  it('says in one sentence why a typed key could not be stored, and keeps it for the session when asked', async () => {
    const s = services('throws');
    typed = '  fkc_typed_0123  ';
    pick = (_message, items) => items[0];
    assert.equal(await keys.promptForKey(s, 'chat'), true);
    const warning = shown.find((n) => n.level === 'warning');
    assert.equal(
      warning?.message,
      "Your chat API key could not be stored securely: VS Code's secret storage is not available here " +
        '(on Linux it needs a keyring such as GNOME Keyring or KWallet).',
    );
    assert.deepEqual(warning?.items, ['Keep for This Session', 'Use ALPHA_API_KEY']);
    assert.deepEqual(await s.secrets.lookup('chat'), { key: 'fkc_typed_0123', source: 'session' });
    assert.ok(shown.some((n) => n.level === 'information' && /kept for this session only/.test(n.message)));
    assert.ok(
      s.logged.every((line) => !line.includes('fkc_typed')),
      s.logged.join('\n'),
    );
  });

  it('says the keyring did not answer within 5 s, and explains the environment variable when chosen', async () => {
    const s = services('hangs');
    typed = 'fke_typed_4567';
    pick = (_message, items) => items[1];
    assert.equal(await keys.promptForKey(s, 'encyclopedia'), false);
    const warning = shown.find((n) => n.level === 'warning');
    assert.equal(
      warning?.message,
      "Your encyclopedia API key could not be stored securely: VS Code's secret storage did not answer within 5 s.",
    );
    assert.deepEqual(warning?.items, ['Keep for This Session', 'Use AXO_API_KEY']);
    assert.ok(shown.some((n) => n.level === 'information' && n.message.startsWith('Set AXO_API_KEY to your')));
    assert.deepEqual(await s.secrets.lookup('encyclopedia'), { source: 'none' });
  });

  it('says once per window that the keyring cannot be read, offering a session key, unless a key is at hand', async () => {
    const s = services('throws');
    const asked: KeyKind[] = [];
    disposables.push(
      notice.registerKeyringNotice(s, async (kind) => {
        asked.push(kind);
        return true;
      }),
    );
    pick = (_message, items) => items[0];
    await s.secrets.get('chat');
    await s.secrets.get('chat');
    await new Promise((resolve) => setImmediate(resolve));
    const warnings = shown.filter((n) => n.level === 'warning');
    assert.equal(warnings.length, 1);
    assert.match(warnings[0].message, /^Your chat API key could not be read from secure storage: /);
    assert.deepEqual(warnings[0].items, ['Enter Key for This Session', 'Use ALPHA_API_KEY']);
    assert.deepEqual(asked, ['chat']);

    shown.length = 0;
    const withEnv = services('throws', { AXO_API_KEY: 'fke_env' });
    disposables.push(notice.registerKeyringNotice(withEnv, async () => true));
    assert.equal(await withEnv.secrets.get('encyclopedia'), 'fke_env');
    assert.equal(shown.length, 0);
  });
});
