import * as assert from 'node:assert/strict';
import { AlphaClient } from '../../../../src/core/service/alphaClient';
import { AxoClient } from '../../../../src/core/service/axoClient';
import type { KeyKind } from '../../../../src/core/service/errors';
import { HttpClient, type HttpSettings } from '../../../../src/core/net/http';
import { silentLogger } from '../../../../src/core/logger';
import { startFakeService, type FakeService } from '../../../fakeService/fakeService';

describe('connection reuse against the fake service', function () {
  this.timeout(20_000);
  let fake: FakeService;
  let http: HttpClient;
  let alpha: AlphaClient;
  let axo: AxoClient;

  beforeEach(async () => {
    fake = await startFakeService({ tokenDelayMs: 0 });
    // Settings are read fresh for every request, as the extension does: a new object each time.
    const settings = (): HttpSettings => ({ timeoutMs: 5000, proxy: { strictSSL: true, noProxy: [] } });
    http = new HttpClient(settings, silentLogger);
    const keys: Record<KeyKind, string> = { chat: fake.chatKey, encyclopedia: fake.axoKey };
    const ctx = { http, baseUrl: () => fake.url, keys: async (k: KeyKind) => keys[k], log: silentLogger };
    alpha = new AlphaClient(ctx, () => 5000);
    axo = new AxoClient(ctx);
  });

  afterEach(async () => {
    await http.dispose();
    await fake.close();
  });

  it('sends 5 consecutive streamed chat requests over one socket', async () => {
    for (let i = 0; i < 5; i++) {
      let text = '';
      for await (const delta of alpha.stream({ model: 'alpha', messages: [{ role: 'user', content: `hi ${i}` }] })) {
        text += delta;
      }
      assert.ok(text.length > 0);
    }
    assert.equal(fake.requests.length, 5);
    assert.equal(fake.connections, 1);
  });

  it('sends chat replies in one response and lookups over the same socket', async () => {
    for (let i = 0; i < 3; i++) {
      await alpha.complete({ model: 'alpha', messages: [{ role: 'user', content: `hi ${i}` }] });
      await axo.search(`ada ${i}`);
      await axo.ask(`who was ada ${i}`, 'axo');
    }
    assert.equal(fake.requests.length, 9);
    assert.equal(fake.connections, 1);
  });
});
