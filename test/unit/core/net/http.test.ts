import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import * as net from 'node:net';
import { HttpClient, type HttpSettings } from '../../../../src/core/net/http';
import { serviceRedirect } from '../../../../src/core/net/redirects';
import { ServiceError } from '../../../../src/core/service/errors';
import type { Logger } from '../../../../src/core/logger';
import { startRecordingProxy } from '../../../support/recordingProxy';
import { expectServiceError } from '../../../support/serviceError';

const KEY = 'fkc_secret_http_test_0123456789';

/** A logger that keeps every line, to check that no key is written. */
function memoryLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const push = (m: string) => void lines.push(m);
  return { lines, trace: push, debug: push, info: push, warn: push, error: push };
}

async function listen(handler: http.RequestListener): Promise<{ url: string; server: http.Server }> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`, server };
}

const closers: (() => unknown)[] = [];
afterEach(async () => {
  while (closers.length) {
    await closers.pop()?.();
  }
});

function client(settings: Partial<HttpSettings> = {}, log = memoryLogger()) {
  const c = new HttpClient(() => ({ timeoutMs: 2000, proxy: { strictSSL: true, noProxy: [] }, ...settings }), log);
  closers.push(() => c.dispose());
  return c;
}

describe('HTTP layer', () => {
  it('sends the key as a bearer token and JSON with its content type', async () => {
    let seen: http.IncomingHttpHeaders = {};
    let body = '';
    const { url, server } = await listen((req, res) => {
      seen = req.headers;
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'));
    });
    closers.push(() => server.close());
    const log = memoryLogger();
    const res = await client({}, log).send({
      method: 'POST',
      url: new URL(`${url}/v1/alpha`),
      key: KEY,
      keyKind: 'chat',
      body: { a: 'é' },
    });
    assert.equal(await res.text(), '{"ok":true}');
    assert.equal(seen.authorization, `Bearer ${KEY}`);
    assert.equal(seen['content-type'], 'application/json');
    assert.equal(body, '{"a":"é"}');
    assert.ok(
      log.lines.some((l) => l.includes('POST /v1/alpha (Authorization: Bearer ***) → 200')),
      log.lines.join('\n'),
    );
    assert.ok(log.lines.every((l) => !l.includes(KEY)));
  });

  it('follows no redirect of a service call: neither the key nor the body goes on, and the error says where', async () => {
    // A second loopback origin stands for an intranet or metadata address: it must never be asked anything.
    const reached: string[] = [];
    const other = await listen((req, res) => {
      reached.push(`${req.method} ${req.url} ${req.headers.authorization ?? '-'}`);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"content":"from elsewhere"}');
    });
    closers.push(() => other.server.close());
    let status = 0;
    const sent: string[] = [];
    const main = await listen((req, res) => {
      sent.push(`${req.method} ${req.url}`);
      req.resume();
      const location = req.url === '/v1/alpha' ? `${other.url}/latest/meta-data?token=t` : '/v1/alpha/';
      req.on('end', () => res.writeHead(status, { location }).end());
    });
    closers.push(() => main.server.close());
    const log = memoryLogger();
    const c = client({}, log);
    for (const code of [301, 302, 303, 307, 308]) {
      status = code;
      const e = await expectServiceError(
        c.send({ method: 'POST', url: new URL(`${main.url}/v1/alpha`), key: KEY, keyKind: 'chat', body: { p: 1 } }),
      );
      assert.equal(e.kind, 'config');
      assert.equal(e.status, code);
      assert.match(
        e.message,
        new RegExp(`answered ${code} and tried to send the request on to ${other.url}/latest/meta-data;`),
      );
      assert.ok(!e.message.includes('token=t'), 'the query of the other side is not shown');
      // A redirect on the same origin is refused alike: the spec has none.
      const same = await expectServiceError(
        c.send({ method: 'GET', url: new URL(`${main.url}/v1/axo`), key: KEY, keyKind: 'encyclopedia' }),
      );
      assert.match(same.message, new RegExp(`${main.url}/v1/alpha/;`));
    }
    assert.deepEqual(reached, []);
    assert.equal(sent.length, 10);
    assert.ok(log.lines.every((l) => !l.includes(KEY)));
  });

  it('follows only a same-host upgrade from http to https on the default ports', () => {
    const from = new URL('http://service.test/v1/alpha');
    const upgrade = serviceRedirect(from, 'https://service.test/v1/alpha', 301, 'chat');
    assert.ok(upgrade instanceof URL && upgrade.href === 'https://service.test/v1/alpha');
    for (const location of [
      'https://service.test:8443/v1/alpha',
      'https://other.test/v1/alpha',
      'http://service.test/v1/alpha/',
      'https://user:pw@service.test/v1/alpha',
      'http://169.254.169.254/latest/meta-data/',
    ]) {
      const refused = serviceRedirect(from, location, 307, 'chat');
      assert.ok(refused instanceof ServiceError, location);
    }
    const fromPort = new URL('http://service.test:8080/v1/alpha');
    assert.ok(serviceRedirect(fromPort, 'https://service.test/v1/alpha', 301, 'chat') instanceof ServiceError);
    const odd = serviceRedirect(from, 'http://[bad', 302, 'chat');
    assert.ok(odd instanceof ServiceError && odd.message.includes('"http://[bad"'));
  });

  it('maps a failed DNS lookup', async () => {
    const lookup: net.LookupFunction = (hostname, _options, callback) =>
      callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), '', 4);
    const e = await expectServiceError(
      client({ lookup }).send({
        method: 'GET',
        url: new URL('http://no-such-host.test/v1/alpha'),
        key: KEY,
        keyKind: 'chat',
      }),
    );
    assert.equal(e.kind, 'network');
    assert.match(e.message, /Cannot find the server no-such-host\.test \(DNS lookup failed\)/);
  });

  it('maps a refused connection', async () => {
    const { url, server } = await listen(() => undefined);
    await new Promise((r) => server.close(r));
    const e = await expectServiceError(client().send({ method: 'GET', url: new URL(url), key: KEY, keyKind: 'chat' }));
    assert.equal(e.kind, 'network');
    assert.match(e.message, /refused the connection/);
  });

  it('times out when no first byte comes', async () => {
    const { url, server } = await listen(() => undefined);
    closers.push(() => server.closeAllConnections?.());
    closers.push(() => server.close());
    const started = Date.now();
    const e = await expectServiceError(
      client({ timeoutMs: 300 }).send({ method: 'GET', url: new URL(url), key: KEY, keyKind: 'chat' }),
    );
    assert.equal(e.kind, 'timeout');
    assert.match(e.message, /did not answer within/);
    assert.ok(Date.now() - started < 2000);
  });

  it('times out connecting when the TLS handshake never completes', async () => {
    const silent = net.createServer(() => undefined);
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const sockets: net.Socket[] = [];
    silent.on('connection', (s) => sockets.push(s));
    closers.push(
      () =>
        new Promise((r) => {
          sockets.forEach((s) => s.destroy());
          silent.close(r);
        }),
    );
    const port = (silent.address() as net.AddressInfo).port;
    const e = await expectServiceError(
      client({ timeoutMs: 300 }).send({
        method: 'GET',
        url: new URL(`https://127.0.0.1:${port}/`),
        key: KEY,
        keyKind: 'chat',
      }),
    );
    assert.equal(e.kind, 'timeout');
    assert.match(e.message, /Could not connect/);
  });

  it('reports a TLS failure when the server does not speak TLS', async () => {
    const { url, server } = await listen((_req, res) => res.end('plain'));
    closers.push(() => server.close());
    const e = await expectServiceError(
      client().send({ method: 'GET', url: new URL(url.replace('http:', 'https:')), key: KEY, keyKind: 'chat' }),
    );
    assert.equal(e.kind, 'tls', e.message);
  });

  it('aborts at once when the signal fires', async () => {
    const { url, server } = await listen(() => undefined);
    closers.push(() => server.closeAllConnections?.());
    closers.push(() => server.close());
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const e = await expectServiceError(
      client({ timeoutMs: 10_000 }).send({
        method: 'GET',
        url: new URL(url),
        key: KEY,
        keyKind: 'chat',
        signal: controller.signal,
      }),
    );
    assert.equal(e.kind, 'aborted');
  });

  it('turns an error status into a typed error with the body read', async () => {
    const { url, server } = await listen((_req, res) =>
      res
        .writeHead(429, { 'retry-after': '3', 'content-type': 'application/json' })
        .end('{"error":{"message":"slow down"}}'),
    );
    closers.push(() => server.close());
    const e = await expectServiceError(
      client().send({ method: 'GET', url: new URL(url), key: KEY, keyKind: 'encyclopedia' }),
    );
    assert.equal(e.status, 429);
    assert.equal(e.retryAfterSeconds, 3);
    assert.match(e.message, /slow down/);
  });

  it('fetches a public resource without the key, following redirects, within a size limit', async () => {
    let sawAuthorization = false;
    const { url, server } = await listen((req, res) => {
      sawAuthorization ||= req.headers.authorization !== undefined;
      if (req.url === '/moved') {
        res.writeHead(301, { location: '/pixel.png' }).end();
      } else if (req.url === '/huge.png') {
        res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(4096));
      } else {
        res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from([137, 80, 78, 71]));
      }
    });
    closers.push(() => server.close());
    const c = client();
    // The server is on 127.0.0.1: allowed only as the service's own origin (see fetchGuard.test).
    const got = await c.fetchPublic(new URL(`${url}/moved`), { accept: 'image/*', maxBytes: 1024, allowedOrigin: url });
    assert.equal(got.contentType, 'image/png');
    assert.deepEqual([...got.bytes], [137, 80, 78, 71]);
    const e = await expectServiceError(
      c.fetchPublic(new URL(`${url}/huge.png`), { accept: 'image/*', maxBytes: 1024, allowedOrigin: url }),
    );
    assert.equal(e.kind, 'tooLarge');
    assert.equal(sawAuthorization, false);
  });

  describe('through a proxy', () => {
    it('tunnels through the proxy with its credentials, never logging them', async () => {
      let targetSaw = 'none';
      const target = await listen((req, res) => {
        targetSaw = req.headers.authorization ?? 'none';
        res.writeHead(200).end('ok');
      });
      closers.push(() => target.server.close());
      const auth = `Basic ${Buffer.from('alice:pr0xy-pass').toString('base64')}`;
      const proxy = await startRecordingProxy(auth);
      closers.push(() => proxy.close());
      const log = memoryLogger();
      const proxyUrl = proxy.url.replace('http://', 'http://alice:pr0xy-pass@');
      const c = client({ proxy: { url: proxyUrl, strictSSL: true, noProxy: [] } }, log);
      const res = await c.send({
        method: 'GET',
        url: new URL(`${target.url}/v1/axo/search?q=x`),
        key: KEY,
        keyKind: 'encyclopedia',
      });
      assert.equal(await res.text(), 'ok');
      assert.equal(targetSaw, `Bearer ${KEY}`);
      assert.equal(proxy.seen.length, 1);
      assert.equal(proxy.seen[0].target, new URL(target.url).host);
      assert.equal(proxy.seen[0].proxyAuthorization, auth);
      assert.ok(
        log.lines.every((l) => !l.includes('pr0xy-pass') && !l.includes(KEY)),
        log.lines.join('\n'),
      );
    });

    it('goes direct for hosts in noProxy', async () => {
      const target = await listen((_req, res) => res.writeHead(200).end('direct'));
      closers.push(() => target.server.close());
      const proxy = await startRecordingProxy();
      closers.push(() => proxy.close());
      const c = client({ proxy: { url: proxy.url, strictSSL: true, noProxy: ['127.0.0.1'] } });
      const res = await c.send({ method: 'GET', url: new URL(target.url), key: KEY, keyKind: 'chat' });
      assert.equal(await res.text(), 'direct');
      assert.equal(proxy.seen.length, 0);
    });

    it('reports a proxy that refuses the credentials', async () => {
      const proxy = await startRecordingProxy('Basic expected');
      closers.push(() => proxy.close());
      const c = client({ proxy: { url: proxy.url, strictSSL: true, noProxy: [] } });
      const e = await expectServiceError(
        c.send({ method: 'GET', url: new URL('http://127.0.0.1:9/'), key: KEY, keyKind: 'chat' }),
      );
      assert.equal(e.kind, 'network');
      assert.match(e.message, /proxy refused .*407/);
      assert.equal(proxy.seen.length, 1);
    });
  });
});
