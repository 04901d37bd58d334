import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { LookupFunction } from 'node:net';
import * as net from 'node:net';
import { HttpClient, type HttpSettings } from '../../../../src/core/net/http';
import { isLoopbackHost, keyRouteOf, type KeyRoute } from '../../../../src/core/net/keyRoute';
import { silentLogger } from '../../../../src/core/logger';
import { ServiceError } from '../../../../src/core/service/errors';
import { expectServiceError } from '../../../support/serviceError';

const KEY = 'fkc_secret_key_route_0123456789';
const strict = { strictSSL: true, noProxy: [] };

/** Every name resolves to 127.0.0.1: "service.example" stands for another computer without leaving this one. */
const toLoopback: LookupFunction = (_host, options, callback) => {
  const cb = (typeof options === 'function' ? options : callback) as (...args: unknown[]) => void;
  const all = typeof options === 'object' && (options as { all?: boolean }).all;
  if (all) {
    cb(null, [{ address: '127.0.0.1', family: 4 }]);
  } else {
    cb(null, '127.0.0.1', 4);
  }
};

describe('keys over plain http or unchecked TLS', () => {
  let server: http.Server;
  let port: number;
  const seen: (string | undefined)[] = [];
  const clients: HttpClient[] = [];

  before(async () => {
    server = http.createServer((req, res) => {
      seen.push(req.headers.authorization);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as net.AddressInfo).port;
  });
  afterEach(async () => {
    seen.length = 0;
    await Promise.all(clients.splice(0).map((c) => c.dispose()));
  });
  after(() => new Promise((resolve) => server.close(resolve)));

  function client(gate: (route: KeyRoute) => Promise<URL>, settings: Partial<HttpSettings> = {}): HttpClient {
    const c = new HttpClient(
      () => ({ timeoutMs: 2000, proxy: strict, lookup: toLoopback, ...settings }),
      silentLogger,
      {
        keyGate: gate,
      },
    );
    clients.push(c);
    return c;
  }

  it('tells loopback hosts from other computers', () => {
    for (const host of ['localhost', 'api.localhost', '127.0.0.1', '127.8.9.10', '[::1]', '[::ffff:127.0.0.1]']) {
      assert.equal(isLoopbackHost(new URL(`http://${host}:8080/`)), true, host);
    }
    for (const host of ['example.com', '10.0.0.2', '192.168.1.5', '[fe80::1]', 'localhost.evil.example', '[::2]']) {
      assert.equal(isLoopbackHost(new URL(`http://${host}/`)), false, host);
    }
  });

  it('asks about plain http to another computer and TLS with checks off, and about nothing else', () => {
    const relaxed = { strictSSL: false, noProxy: [] };
    assert.deepEqual(keyRouteOf(new URL('http://10.0.0.2/v1'), strict), {
      url: new URL('http://10.0.0.2/v1'),
      plainHttp: true,
      unverifiedTls: false,
    });
    assert.equal(keyRouteOf(new URL('http://127.0.0.1:8080/v1'), strict), undefined);
    assert.equal(keyRouteOf(new URL('https://api.example/v1'), strict), undefined);
    assert.equal(keyRouteOf(new URL('https://api.example/v1'), relaxed)?.unverifiedTls, true);
    assert.equal(keyRouteOf(new URL('http://localhost/v1'), relaxed), undefined);
    const viaTlsProxy = { strictSSL: false, noProxy: [], url: 'https://proxy.corp:3128' };
    assert.equal(keyRouteOf(new URL('http://localhost.corp/v1'), viaTlsProxy)?.unverifiedTls, true);
  });

  it('sends nothing to another computer over plain http before the gate answers, and nothing when it refuses', async () => {
    let open: ((url: URL) => void) | undefined;
    const routes: KeyRoute[] = [];
    let asked: () => void = () => undefined;
    const question = new Promise<void>((resolve) => (asked = resolve));
    const waiting = client((route) => {
      routes.push(route);
      asked();
      return new Promise<URL>((resolve) => (open = resolve));
    });
    const url = new URL(`http://service.example:${port}/v1/alpha`);
    const request = waiting.send({ method: 'POST', url, key: KEY, keyKind: 'chat', body: { a: 1 } });
    // Waits for the question the user is shown (not for time): the request must still be unsent then.
    await question;
    assert.equal(routes.length, 1);
    assert.equal(routes[0].plainHttp, true);
    assert.deepEqual(seen, [], 'nothing was sent while the question is open');
    open?.(url);
    const res = await request;
    await res.text();
    assert.deepEqual(seen, [`Bearer ${KEY}`]);

    seen.length = 0;
    const refusing = client(async () => {
      throw new ServiceError('config', 'Nothing was sent.');
    });
    const error = await expectServiceError(refusing.send({ method: 'GET', url, key: KEY, keyKind: 'chat' }));
    assert.equal(error.message, 'Nothing was sent.');
    assert.deepEqual(seen, []);
  });

  it('does not ask for this computer, and asks with checks off before an https request', async () => {
    const routes: KeyRoute[] = [];
    const gate = async (route: KeyRoute) => {
      routes.push(route);
      return route.url;
    };
    const res = await client(gate).send({
      method: 'GET',
      url: new URL(`http://127.0.0.1:${port}/v1/x`),
      key: KEY,
      keyKind: 'chat',
    });
    await res.text();
    assert.equal(routes.length, 0, 'this computer is not asked about');
    const relaxed = client(gate, { proxy: { strictSSL: false, noProxy: [] } });
    // The server speaks plain http: the request fails, but the gate was asked before anything left.
    await expectServiceError(
      relaxed.send({ method: 'GET', url: new URL(`https://service.example:${port}/v1/x`), key: KEY, keyKind: 'chat' }),
    );
    assert.equal(routes.length, 1);
    assert.equal(routes[0].unverifiedTls, true);
    assert.equal(routes[0].plainHttp, false);
  });
});
