import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { ServiceError } from '../../../src/core/service/errors';
import { KeyRoutePrompt } from '../../../src/host/keyRoutePrompt';
import { memoryMemento } from '../../support/memoryMemento';
import { until } from '../../support/until';

interface Asked {
  message: string;
  modal?: boolean;
  buttons: string[];
}

describe('a key over plain http or unchecked TLS: what the user is asked', () => {
  const window = vscode.window as { showWarningMessage: unknown };
  const original = window.showWarningMessage;
  let asked: Asked[];
  let answer: string | undefined;
  let release: () => void;
  let held: Promise<void>;

  beforeEach(() => {
    asked = [];
    answer = undefined;
    held = Promise.resolve();
    window.showWarningMessage = async (message: string, ...rest: unknown[]) => {
      const options = typeof rest[0] === 'object' ? (rest.shift() as vscode.MessageOptions) : {};
      asked.push({ message, modal: options.modal, buttons: rest as string[] });
      await held;
      return answer;
    };
  });
  afterEach(() => {
    window.showWarningMessage = original;
  });

  const route = (url: string, plainHttp = true, unverifiedTls = false) => ({
    url: new URL(url),
    plainHttp,
    unverifiedTls,
  });

  it('asks once per host in a modal, remembers Send Anyway, and sends nothing on Cancel', async () => {
    let baseUrl = 'http://10.0.0.2:8080';
    const prompt = new KeyRoutePrompt(memoryMemento(), {
      get baseUrl() {
        return baseUrl;
      },
      setBaseUrl: async (url: string) => void (baseUrl = url),
    });
    held = new Promise((resolve) => (release = resolve));
    // Two requests at once: one question.
    const first = prompt.gate(route('http://10.0.0.2:8080/v1/alpha'));
    const second = prompt.gate(route('http://10.0.0.2:8080/v1/axo/ask'));
    await until(() => (asked.length > 0 ? true : undefined), 'the plain-http question was not asked');
    assert.equal(asked.length, 1);
    assert.equal(asked[0].modal, true);
    assert.match(asked[0].message, /Send your API key to 10\.0\.0\.2:8080 over plain http\?/);
    assert.deepEqual(asked[0].buttons, ['Send Anyway', 'Use https']);
    answer = 'Send Anyway';
    release();
    assert.equal((await first).href, 'http://10.0.0.2:8080/v1/alpha');
    assert.equal((await second).href, 'http://10.0.0.2:8080/v1/axo/ask');
    assert.equal((await prompt.gate(route('http://10.0.0.2:8080/v1/alpha'))).protocol, 'http:');
    assert.equal(asked.length, 1, 'remembered for the host');

    answer = undefined;
    const cancelled = await prompt.gate(route('http://other.example/v1/alpha')).catch((e: unknown) => e);
    assert.ok(cancelled instanceof ServiceError && cancelled.kind === 'config', String(cancelled));
    assert.match(cancelled.message, /Nothing was sent/);
    assert.equal(asked.length, 2);
    await prompt.gate(route('http://other.example/v1/alpha')).catch(() => undefined);
    assert.equal(asked.length, 3, 'Cancel is not remembered: asked again');

    answer = 'Use https';
    baseUrl = 'http://third.example/v1';
    const secure = await prompt.gate(route('http://third.example/v1/alpha'));
    assert.equal(secure.href, 'https://third.example/v1/alpha');
    assert.equal(baseUrl, 'https://third.example/v1', 'the setting now says https');
  });

  it('says once, naming the setting, that a key goes over a connection whose certificate is not checked', async () => {
    const prompt = new KeyRoutePrompt(memoryMemento(), {
      baseUrl: 'https://api.example',
      setBaseUrl: async () => undefined,
    });
    const url = await prompt.gate(route('https://api.example/v1/alpha', false, true));
    assert.equal(url.href, 'https://api.example/v1/alpha', 'not held up');
    await prompt.gate(route('https://api.example/v1/alpha', false, true));
    assert.equal(asked.length, 1);
    assert.notEqual(asked[0].modal, true);
    assert.match(asked[0].message, /certificate is not checked, because "http\.proxyStrictSSL" is off/);
    assert.match(asked[0].message, /http\.systemCertificates/);
  });
});
