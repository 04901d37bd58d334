import * as assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { AlphaClient } from '../../../src/core/service/alphaClient';
import { HttpClient } from '../../../src/core/net/http';
import { silentLogger } from '../../../src/core/logger';
import { KeyringError, SecretStore } from '../../../src/host/secretStore';
import { startFakeService } from '../../fakeService/fakeService';

type Behaviour = 'works' | 'throws' | 'hangs';

/** A SecretStorage that works, throws as a missing secret service does, or never answers. Counts its calls. */
function fakeSecretStorage(behaviour: Behaviour) {
  const values = new Map<string, string>();
  const calls: string[] = [];
  const listeners = new Set<(e: { key: string }) => void>();
  const answer = <T>(op: string, value: () => T): Promise<T> => {
    calls.push(op);
    if (behaviour === 'throws') {
      return Promise.reject(new Error('Cannot autolaunch D-Bus without X11 $DISPLAY'));
    }
    return behaviour === 'hangs' ? new Promise<T>(() => undefined) : Promise.resolve(value());
  };
  const storage = {
    get: (key: string) => answer('get', () => values.get(key)),
    store: (key: string, value: string) => answer('store', () => void values.set(key, value)),
    delete: (key: string) => answer('delete', () => void values.delete(key)),
    keys: () => Promise.resolve([...values.keys()]),
    onDidChange: (listener: (e: { key: string }) => void) => {
      listeners.add(listener);
      return { dispose: () => listeners.delete(listener) };
    },
  };
  /** What another window storing a key looks like from here. */
  const changeElsewhere = (key: string, value: string) => {
    values.set(key, value);
    listeners.forEach((listener) => listener({ key }));
  };
  return { storage: storage as unknown as vscode.SecretStorage, values, calls, changeElsewhere };
}

describe('secret store when the keyring is missing', () => {
  const stores: SecretStore[] = [];
  afterEach(() => stores.splice(0).forEach((s) => s.dispose()));

  function store(behaviour: Behaviour, env: NodeJS.ProcessEnv = {}) {
    const fake = fakeSecretStorage(behaviour);
    const secrets = new SecretStore(fake.storage, { env, timeoutMs: 50 });
    stores.push(secrets);
    const failures: KeyringError[] = [];
    secrets.onDidFail((e) => failures.push(e));
    return { secrets, failures, ...fake };
  }

  it('stores and reads keys when the keyring works', async () => {
    const { secrets, values } = store('works');
    await secrets.set('chat', '  fkc_stored  ');
    assert.deepEqual(await secrets.lookup('chat'), { key: 'fkc_stored', source: 'stored' });
    assert.equal(values.get('alphaAxo.chatApiKey'), 'fkc_stored');
  });

  it('asks SecretStorage once for consecutive requests, and again after a change from any window', async () => {
    const { secrets, calls, changeElsewhere } = store('works');
    await secrets.set('chat', 'fkc_one');
    for (let i = 0; i < 5; i++) {
      assert.equal(await secrets.get('chat'), 'fkc_one');
    }
    assert.equal(calls.filter((c) => c === 'get').length, 1);
    changeElsewhere('alphaAxo.chatApiKey', 'fkc_two');
    assert.equal(await secrets.get('chat'), 'fkc_two');
    assert.equal(calls.filter((c) => c === 'get').length, 2);
  });

  it('never keeps a value read while a new key was being stored', async () => {
    const { secrets, storage, values } = store('works');
    values.set('alphaAxo.chatApiKey', 'fkc_old');
    const slowStore = storage.store.bind(storage);
    let release = () => undefined as void;
    storage.store = (key: string, value: string) =>
      new Promise<void>((resolve) => (release = () => void slowStore(key, value).then(resolve)));
    const writing = secrets.set('chat', 'fkc_new');
    assert.equal(await secrets.get('chat'), 'fkc_old', 'the old key is still the stored one');
    release();
    await writing;
    assert.equal(await secrets.get('chat'), 'fkc_new');
  });

  for (const behaviour of ['throws', 'hangs'] as const) {
    const problem = behaviour === 'throws' ? 'unavailable' : 'timeout';

    it(`refuses to store with a KeyringError (${problem}) when SecretStorage ${behaviour}`, async () => {
      const { secrets, failures } = store(behaviour);
      const started = Date.now();
      await assert.rejects(secrets.set('chat', 'fkc_typed'), (e: unknown) => {
        assert.ok(e instanceof KeyringError);
        assert.equal(e.problem, problem);
        assert.equal(e.operation, 'store');
        assert.ok(!e.message.includes('fkc_typed'));
        return true;
      });
      assert.ok(Date.now() - started < 1000);
      assert.deepEqual(
        failures.map((f) => [f.operation, f.problem]),
        [['store', problem]],
      );
    });

    it(`reads past a keyring that ${behaviour}: the environment's key, reported once per read`, async () => {
      const { secrets, failures } = store(behaviour, { ALPHA_API_KEY: 'fkc_from_env' });
      assert.deepEqual(await secrets.lookup('chat'), { key: 'fkc_from_env', source: 'environment' });
      assert.deepEqual(await secrets.lookup('encyclopedia'), { source: 'none' });
      assert.deepEqual(
        failures.map((f) => [f.operation, f.kind, f.problem]),
        [
          ['read', 'chat', problem],
          ['read', 'encyclopedia', problem],
        ],
      );
    });

    it(`keeps a session-only key in memory and uses it for requests when SecretStorage ${behaviour}`, async () => {
      const { secrets, calls } = store(behaviour);
      const fake = await startFakeService({ tokenDelayMs: 0 });
      const http = new HttpClient(() => ({ timeoutMs: 5000, proxy: { strictSSL: true, noProxy: [] } }), silentLogger);
      try {
        const changed: string[] = [];
        secrets.onDidChange((kind) => changed.push(kind));
        secrets.setSession('chat', fake.chatKey);
        assert.deepEqual(changed, ['chat']);
        assert.deepEqual(await secrets.lookup('chat'), { key: fake.chatKey, source: 'session' });
        assert.ok(!calls.includes('store'), 'a session-only key is never handed to SecretStorage');
        const ctx = {
          http,
          baseUrl: () => fake.url,
          keys: (k: 'chat' | 'encyclopedia') => secrets.get(k),
          log: silentLogger,
        };
        const reply = await new AlphaClient(ctx, () => 5000).complete({
          model: 'alpha',
          messages: [{ role: 'user', content: 'hello' }],
        });
        assert.ok(reply.length > 0);
        assert.equal(fake.requests[0].keyKind, 'chat');
        await assert.rejects(secrets.delete('chat'), KeyringError);
        assert.equal(await secrets.get('chat'), undefined, 'deleting drops the session key even if the keyring fails');
      } finally {
        await http.dispose();
        await fake.close();
      }
    });
  }

  it('does not wait for a hanging keyring again while its first read is still unanswered', async () => {
    const { secrets, calls } = store('hangs', { AXO_API_KEY: 'fke_env' });
    await secrets.get('encyclopedia');
    const started = Date.now();
    for (let i = 0; i < 5; i++) {
      assert.equal(await secrets.get('encyclopedia'), 'fke_env');
    }
    assert.ok(Date.now() - started < 40, `took ${Date.now() - started} ms`);
    assert.equal(calls.filter((c) => c === 'get').length, 1);
  });
});
