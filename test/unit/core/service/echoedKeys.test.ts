import * as assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AlphaClient, type ChatMessage } from '../../../../src/core/service/alphaClient';
import { AxoClient } from '../../../../src/core/service/axoClient';
import type { KeyKind } from '../../../../src/core/service/errors';
import { HttpClient } from '../../../../src/core/net/http';
import { silentLogger, type Logger } from '../../../../src/core/logger';
import { SecretScrubber } from '../../../../src/core/service/secretScrubber';
import { replyDirective } from '../../../fakeService/chatContent';
import { startFakeService, type FakeService } from '../../../fakeService/fakeService';
import { expectServiceError } from '../../../support/serviceError';

/** A service that echoes the key it was sent: nothing the clients return or log may hold it. */
describe('keys the service echoes back (fault echo-key)', function () {
  this.timeout(20_000);
  const chatKey = 'fkc_echo_0123456789abcdef';
  const axoKey = 'fke_echo_fedcba9876543210';
  let fake: FakeService;
  let http: HttpClient;
  let lines: string[];

  before(async () => {
    fake = await startFakeService({ chatKey, axoKey, tokenDelayMs: 0 });
  });
  after(async () => fake.close());
  beforeEach(() => fake.reset());
  afterEach(async () => http.dispose());

  /** Clients whose key provider serves `keys`; the scrubber starts empty, as before any key was registered. */
  function clients(keys: Partial<Record<KeyKind, string>> = { chat: chatKey, encyclopedia: axoKey }) {
    lines = [];
    const push = (line: string) => void lines.push(line);
    const log: Logger = { trace: push, debug: push, info: push, warn: push, error: push };
    const scrubber = new SecretScrubber();
    http = new HttpClient(() => ({ timeoutMs: 5000, proxy: { strictSSL: true, noProxy: [] } }), log, { scrubber });
    const ctx = { http, baseUrl: () => fake.url, keys: async (kind: KeyKind) => keys[kind], log };
    return {
      alpha: new AlphaClient(ctx, () => 5000),
      axo: new AxoClient(ctx, { attempts: 1, baseDelayMs: 1, maxDelayMs: 1, budgetMs: 1 }),
      scrubber,
    };
  }

  const messages = (content: string): ChatMessage[] => [{ role: 'user', content }];

  /** Asserts that no text holds any of `keys`, not even its first 12 characters. */
  function assertClean(texts: (string | undefined)[], keys: string[]): void {
    for (const text of texts) {
      for (const key of keys) {
        assert.ok(!(text ?? '').includes(key.slice(0, 12)), `a key is in: ${text}`);
      }
    }
  }

  for (const [fault, kind, said] of [
    ['echo-key', 'badKey', /Incorrect API key provided: \*\*\*/],
    ['echo-key:html', 'server', /Internal error while checking the key \*\*\*/],
  ] as const) {
    it(`"${fault}": chat (streamed and not) and all three encyclopedia calls say what happened, without the key`, async () => {
      const c = clients();
      fake.setFault(fault, { times: 5 });
      const errors = [
        await expectServiceError(c.alpha.complete({ model: 'alpha', messages: messages('hi') })),
        await expectServiceError(drain(c.alpha.stream({ model: 'alpha', messages: messages('hi') }))),
        await expectServiceError(c.axo.ask('turing', 'axo')),
        await expectServiceError(c.axo.search('turing')),
        await expectServiceError(c.axo.article('Alan Turing')),
      ];
      assert.equal(fake.requests.length, 5);
      for (const e of errors) {
        assert.equal(e.kind, kind);
        assert.match(e.message, said);
        assertClean([e.message, e.detail, JSON.stringify(e.toInfo())], [chatKey, axoKey]);
      }
      assertClean(lines, [chatKey, axoKey]);
    });
  }

  it('"echo-key:stream": an SSE error event quoting the key keeps the text before it and drops the key', async () => {
    const c = clients();
    fake.setFault('echo-key:stream', { path: '/v1/alpha' });
    let text = '';
    const error = await expectServiceError(
      (async () => {
        for await (const delta of c.alpha.stream({ model: 'alpha', messages: messages('hello') })) {
          text += delta;
        }
      })(),
    );
    assert.ok(text.length > 0, 'the text before the error event was kept');
    assert.equal(error.kind, 'streamError');
    assert.match(error.message, /Incorrect API key provided: \*\*\*/);
    assertClean([error.message, error.detail, ...lines], [chatKey]);
  });

  it('a key that was just rejected is removed from the answer that rejects it, and stays a secret after', async () => {
    const typo = 'fkc_echo_0123456789abcdeX';
    const c = clients({ chat: typo });
    fake.setFault('echo-key', { path: '/v1/alpha' });
    const e = await expectServiceError(c.alpha.complete({ model: 'alpha', messages: messages('hi') }));
    assert.match(e.message, /provided: \*\*\*/);
    assertClean([e.message, ...lines], [typo]);
    assert.equal(c.scrubber.scrub(`old ${typo}`), 'old ***');
  });

  it('a key only the key provider knows (environment, session only) is removed too: the key in use is always known', async () => {
    const sessionKey = 'fke_session_only_5555';
    const c = clients({ encyclopedia: sessionKey });
    assert.equal(c.scrubber.size, 0);
    fake.setFault('echo-key:html', { path: '/v1/axo' });
    const e = await expectServiceError(c.axo.search('turing'));
    assertClean([e.message, ...lines], [sessionKey]);
  });

  it('a reply that repeats the key, streamed in pieces or whole, shows *** instead', async () => {
    const c = clients();
    c.scrubber.add(axoKey);
    const reply = `Your chat key is ${chatKey} and the other one is ${axoKey}; keep them safe.`;
    const expected = 'Your chat key is *** and the other one is ***; keep them safe.';
    const prompt = messages(`repeat ${replyDirective(reply)}`);
    const streamed = await drain(c.alpha.stream({ model: 'alpha', messages: prompt }));
    const whole = await c.alpha.complete({ model: 'alpha', messages: prompt });
    assert.deepEqual([streamed, whole], [expected, expected]);
  });
});

/** Reads a stream to its end and returns the text. */
async function drain(stream: AsyncGenerator<string, void, undefined>): Promise<string> {
  let text = '';
  for await (const delta of stream) {
    text += delta;
  }
  return text;
}

/** A whole-body answer whose encoder wrote the echoed key with JSON escapes: the parsed text must not hold it. */
describe('keys echoed with JSON escapes in whole bodies', function () {
  this.timeout(20_000);
  const key = 'fkc_escaped_0123456789abcdef';
  /** `\u0066\u006b…`: JSON for the key that no scrub of the raw text finds. */
  const escaped = [...key].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');

  it('the chat reply, the answer, the search results and the article show *** instead', async () => {
    const server = createServer((req, res) => {
      req.resume();
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      const bodies: Record<string, string> = {
        '/v1/alpha': `{"content":"Your key is ${escaped}."}`,
        '/v1/axo/ask': `{"answer":"Key ${escaped}","sources":["Key ${escaped}"]}`,
        '/v1/axo/search': `{"results":[{"title":"T ${escaped}","snippet":"S ${escaped}"}]}`,
        '/v1/axo/article': `{"title":"A ${escaped}","content":"C ${escaped}","facts":[{"name":"K","value":"${escaped}"}]}`,
      };
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(bodies[path] ?? '{}'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const log = silentLogger;
    const client = new HttpClient(() => ({ timeoutMs: 5000, proxy: { strictSSL: true, noProxy: [] } }), log);
    const ctx = { http: client, baseUrl: () => url, keys: async () => key, log };
    try {
      const reply = await new AlphaClient(ctx, () => 5000).complete({
        model: 'alpha',
        messages: [{ role: 'user', content: 'hi' }],
      });
      const axo = new AxoClient(ctx, { attempts: 1, baseDelayMs: 1, maxDelayMs: 1, budgetMs: 1 });
      const found = [reply, await axo.ask('q', 'axo'), await axo.search('q'), await axo.article('a')];
      const text = JSON.stringify(found);
      assert.equal(reply, 'Your key is ***.');
      assert.ok(!text.includes(key), text);
      assert.ok(text.includes('Key ***') && text.includes('S ***') && text.includes('C ***'), text);
    } finally {
      await client.dispose();
      server.close();
    }
  });
});
