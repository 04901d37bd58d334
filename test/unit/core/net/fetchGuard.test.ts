import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type * as net from 'node:net';
import { checkFetchTarget, guardedLookup, originOf } from '../../../../src/core/net/fetchGuard';
import { HttpClient } from '../../../../src/core/net/http';
import { ipLiteralOf, isForbiddenAddress } from '../../../../src/core/net/netAddress';
import { silentLogger } from '../../../../src/core/logger';
import { startRecordingProxy } from '../../../support/recordingProxy';
import { expectServiceError } from '../../../support/serviceError';

/** A resolver that answers from a table (each name may answer differently on each call), recording the names. */
function tableLookup(table: Record<string, string[][]>): net.LookupFunction & { asked: string[] } {
  const asked: string[] = [];
  const fn = ((hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    asked.push(hostname);
    const answers = table[hostname];
    const addresses = answers?.length ? (answers.length > 1 ? answers.shift()! : answers[0]) : undefined;
    if (!addresses) {
      callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }));
      return;
    }
    const list = addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    if (options.all) {
      callback(null, list);
    } else {
      callback(null, list[0].address, list[0].family);
    }
  }) as unknown as net.LookupFunction & { asked: string[] };
  fn.asked = asked;
  return fn;
}

describe('fetch guard: addresses a page may make the extension fetch from', () => {
  const forbidden = [
    '127.0.0.1',
    '127.255.0.9',
    '0.0.0.0',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '224.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    '[::1]',
    'fe80::1',
    'fe80::1%eth0',
    'febf::1',
    'fc00::1',
    'fd12:3456:789a::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '::ffff:a9fe:a9fe',
    '0:0:0:0:0:ffff:c0a8:0101',
    '::127.0.0.1',
    '64:ff9b::7f00:1',
    '2002:c0a8:0101::1',
    '::ffff:0:7f00:1',
    '::ffff:0:10.0.0.1',
    '64:ff9b:1::7f00:1',
    '64:ff9b:1:7f00:1::',
    '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    '2001::1',
    'localhost',
    'not an address',
    '1.2.3',
    '1:2:3:4:5:6:7:8:9',
  ];
  const allowed = [
    '8.8.8.8',
    '1.1.1.1',
    '93.184.216.34',
    '172.32.0.1',
    '192.169.0.1',
    '2606:4700:4700::1111',
    '2001:4860:4860::8888',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:0808:0808::1',
  ];
  for (const address of forbidden) {
    it(`refuses ${address}`, () => assert.equal(isForbiddenAddress(address), true));
  }
  for (const address of allowed) {
    it(`allows ${address}`, () => assert.equal(isForbiddenAddress(address), false));
  }

  it('sees the address in every way a URL can spell it', () => {
    for (const url of ['http://0x7f.1/', 'http://2130706433/', 'http://[::ffff:127.0.0.1]/', 'http://017700000001/']) {
      const literal = ipLiteralOf(new URL(url));
      assert.ok(literal, url);
      assert.equal(isForbiddenAddress(literal), true, url);
    }
    assert.equal(ipLiteralOf(new URL('http://images.example/')), undefined);
  });

  it('checks every resolved address of a name, and allows only the exact origin of the base URL', async () => {
    const lookup = tableLookup({
      'public.test': [['93.184.216.34']],
      'mixed.test': [['93.184.216.34', '10.0.0.7']],
      'inside.test': [['fd00::5']],
    });
    await checkFetchTarget(new URL('https://public.test/a.png'), {}, lookup);
    await expectServiceError(checkFetchTarget(new URL('https://mixed.test/a.png'), {}, lookup));
    await expectServiceError(checkFetchTarget(new URL('https://inside.test/a.png'), {}, lookup));
    await expectServiceError(checkFetchTarget(new URL('http://127.0.0.1:9/a.png'), {}, lookup));
    await checkFetchTarget(new URL('http://127.0.0.1:9/a.png'), { allowedOrigin: 'http://127.0.0.1:9' }, lookup);
    await expectServiceError(
      checkFetchTarget(new URL('http://127.0.0.1:10/a.png'), { allowedOrigin: 'http://127.0.0.1:9' }, lookup),
    );
    await expectServiceError(checkFetchTarget(new URL('file:///etc/passwd'), {}, lookup));
    assert.deepEqual(lookup.asked, ['public.test', 'mixed.test', 'inside.test'], 'literals are never resolved');
    assert.equal(originOf(' http://127.0.0.1:9/v1 '), 'http://127.0.0.1:9');
    assert.equal(originOf('not a url'), undefined);
  });

  it('makes a connection fail when its name resolves to a forbidden address', async () => {
    const lookup = guardedLookup({}, tableLookup({ 'rebind.test': [['127.0.0.1']] }));
    const error = await new Promise<Error | null>((resolve) => lookup('rebind.test', {}, (e) => resolve(e)));
    assert.match(String(error?.message), /rebind\.test is on this computer or a private network/);
    const allowed = guardedLookup({ allowedOrigin: 'http://rebind.test:9' }, tableLookup({ 'rebind.test': [['::1']] }));
    const ok = await new Promise<unknown>((resolve) =>
      allowed('rebind.test', { all: true }, (e, a) => resolve(e ?? a)),
    );
    assert.deepEqual(ok, [{ address: '::1', family: 6 }]);
  });

  describe('in HttpClient.fetchPublic', () => {
    let server: http.Server;
    let origin: string;
    const seen: string[] = [];
    beforeEach(async () => {
      seen.length = 0;
      server = http.createServer((req, res) => {
        seen.push(req.url ?? '');
        const port = (server.address() as net.AddressInfo).port;
        const to: Record<string, string> = {
          '/to-private': 'http://10.255.255.1/x.png',
          '/to-name': `http://evil.test:${port}/secret.png`,
          '/to-mapped': `http://[::ffff:127.0.0.1]:${port}/secret.png`,
        };
        if (to[req.url ?? '']) {
          res.writeHead(302, { location: to[req.url ?? ''] }).end();
        } else {
          res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from([137, 80, 78, 71]));
        }
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      origin = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
    });
    afterEach(() => new Promise<void>((resolve) => server.close(() => resolve())));

    function client(lookup: net.LookupFunction) {
      return new HttpClient(() => ({ timeoutMs: 2000, proxy: { strictSSL: true, noProxy: [] }, lookup }), silentLogger);
    }
    const options = (allowedOrigin?: string) => ({ accept: 'image/*', maxBytes: 1024, allowedOrigin });

    it('refuses a redirect hop to a private address, a private name or a mapped loopback', async () => {
      const c = client(tableLookup({ 'evil.test': [['127.0.0.1']] }));
      try {
        for (const path of ['/to-private', '/to-name', '/to-mapped']) {
          const e = await expectServiceError(c.fetchPublic(new URL(`${origin}${path}`), options(origin)));
          assert.match(e.message, /is on this computer or a private network/, path);
        }
        assert.deepEqual(seen, ['/to-private', '/to-name', '/to-mapped'], 'no hop after the redirect was fetched');
      } finally {
        await c.dispose();
      }
    });

    it('refuses a name that answers a public address to the check and loopback to the connection', async () => {
      const port = new URL(origin).port;
      const c = client(tableLookup({ 'rebind.test': [['93.184.216.34'], ['127.0.0.1']] }));
      try {
        const e = await expectServiceError(
          c.fetchPublic(new URL(`http://rebind.test:${port}/secret.png`), options(origin)),
        );
        assert.match(e.message, /rebind\.test is on this computer or a private network/);
        assert.deepEqual(seen, []);
      } finally {
        await c.dispose();
      }
    });

    it('refuses an image by name through a proxy (the proxy would resolve it again), not by address', async () => {
      const proxy = await startRecordingProxy();
      const port = new URL(origin).port;
      // The check hears a public address; the proxy, resolving the name itself, would reach whatever it is told.
      const lookup = tableLookup({ 'rebind.test': [['93.184.216.34']] });
      const settings = { timeoutMs: 2000, proxy: { url: proxy.url, strictSSL: true, noProxy: [] }, lookup };
      const c = new HttpClient(() => settings, silentLogger);
      try {
        const e = await expectServiceError(
          c.fetchPublic(new URL(`http://rebind.test:${port}/secret.png`), options(origin)),
        );
        assert.match(e.message, /rebind\.test:\d+ is not loaded through the proxy in "http\.proxy"/);
        assert.deepEqual(proxy.seen, []);
        // The service's own origin still loads through the proxy.
        const got = await c.fetchPublic(new URL(`${origin}/pixel.png`), options(origin));
        assert.deepEqual([...got.bytes], [137, 80, 78, 71]);
      } finally {
        await c.dispose();
        await proxy.close();
      }
    });

    it('fetches from the base URL origin, and from nowhere local without it', async () => {
      const c = client(tableLookup({}));
      try {
        const got = await c.fetchPublic(new URL(`${origin}/pixel.png`), options(origin));
        assert.deepEqual([...got.bytes], [137, 80, 78, 71]);
        await expectServiceError(c.fetchPublic(new URL(`${origin}/pixel.png`), options()));
        assert.deepEqual(seen, ['/pixel.png']);
      } finally {
        await c.dispose();
      }
    });
  });
});
