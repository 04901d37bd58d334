import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import * as net from 'node:net';
import * as tls from 'node:tls';
import { HttpClient } from '../../../../src/core/net/http';
import { errorFromTransport } from '../../../../src/core/service/httpErrors';
import type { Logger } from '../../../../src/core/logger';
import type { ProxySettings } from '../../../../src/core/net/proxy';
import type { CaSource } from '../../../../src/core/net/trust';
import { startRecordingProxy } from '../../../support/recordingProxy';
import { expectServiceError } from '../../../support/serviceError';
import { startSocksProxy } from '../../../support/socksProxy';
import { makeTestPki, startHttpsServer } from '../../../support/tlsFixture';

const KEY = 'fkc_secret_proxy_test_0123456789';
/** What the target answers: it echoes the Authorization it got, which the client scrubs of the key it sent (every echo is). */
const ECHOED = 'hello Bearer ***';
const PROXY_TOKEN = 'Bearer corp-proxy-token-5f1e';

function memoryLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const push = (m: string) => void lines.push(m);
  return { lines, trace: push, debug: push, info: push, warn: push, error: push };
}

/** A port on 127.0.0.1 that nothing listens on. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('company proxies', function () {
  this.timeout(15_000);
  const closers: (() => unknown)[] = [];
  let target: { url: string; port: number };

  before(async () => {
    const server = http.createServer((req, res) => res.writeHead(200).end(`hello ${req.headers.authorization ?? ''}`));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    target = { url: `http://127.0.0.1:${port}`, port };
    closers.push(() => new Promise((resolve) => server.close(resolve)));
  });

  after(async () => {
    while (closers.length) {
      await closers.pop()?.();
    }
  });

  function client(proxy: Partial<ProxySettings>, log: Logger = memoryLogger(), caSource?: CaSource) {
    const c = new HttpClient(
      () => ({ timeoutMs: 3000, proxy: { strictSSL: true, noProxy: [], ...proxy } }),
      log,
      caSource ? { caSource } : {},
    );
    closers.push(() => c.dispose());
    return c;
  }

  const get = (c: HttpClient, url = `${target.url}/v1/axo/search?q=x`) =>
    c.send({ method: 'GET', url: new URL(url), key: KEY, keyKind: 'encyclopedia' });

  it('reports an unreachable HTTP proxy as the proxy failing, not the server', async () => {
    const port = await closedPort();
    const e = await expectServiceError(get(client({ url: `http://alice:pw@127.0.0.1:${port}` })));
    assert.equal(e.kind, 'network');
    assert.equal(e.message, `The proxy http://127.0.0.1:${port} refused the connection. Check "http.proxy".`);
  });

  it('reports an unreachable SOCKS proxy as the proxy failing', async () => {
    const port = await closedPort();
    const e = await expectServiceError(get(client({ url: `socks5://127.0.0.1:${port}` })));
    assert.equal(e.message, `The proxy socks5://127.0.0.1:${port} refused the connection. Check "http.proxy".`);
  });

  it('names the proxy, without its credentials, when its host is not found or does not answer', () => {
    const proxy = 'http://bob:hunter2@proxy.corp.example:3128';
    const target = new URL('https://api.example.com/v1/alpha');
    const failure = (code: string) =>
      errorFromTransport(Object.assign(new Error(code), { code }), target, 9000, 'chat', proxy);
    assert.equal(
      failure('ENOTFOUND').message,
      'Cannot find the proxy http://proxy.corp.example:3128 (DNS lookup failed). Check "http.proxy".',
    );
    assert.equal(
      failure('UND_ERR_CONNECT_TIMEOUT').message,
      'Could not connect to the proxy http://proxy.corp.example:3128 within 9 s. Check "http.proxy".',
    );
    // Without a proxy the same codes are the server's.
    const direct = errorFromTransport(Object.assign(new Error('x'), { code: 'ECONNREFUSED' }), target, 9000, 'chat');
    assert.match(direct.message, /^The server at api\.example\.com refused the connection/);
  });

  it('sends "http.proxyAuthorization" to an HTTP proxy, and never logs it', async () => {
    const proxy = await startRecordingProxy(PROXY_TOKEN);
    closers.push(() => proxy.close());
    const log = memoryLogger();
    const res = await get(client({ url: proxy.url, authorization: PROXY_TOKEN }, log));
    assert.equal(await res.text(), ECHOED);
    assert.equal(proxy.seen[0].proxyAuthorization, PROXY_TOKEN);
    assert.ok(
      log.lines.some((l) => l.includes(`through the proxy ${proxy.url}`)),
      log.lines.join('\n'),
    );
    assert.ok(
      log.lines.every((l) => !l.includes('corp-proxy-token') && !l.includes(KEY)),
      log.lines.join('\n'),
    );
  });

  it('tunnels through a socks5:// proxy', async () => {
    const socks = await startSocksProxy();
    closers.push(() => socks.close());
    const c = client({ url: socks.url });
    for (let i = 0; i < 3; i++) {
      assert.equal(await (await get(c)).text(), ECHOED);
    }
    // One tunnel, kept alive for the three requests.
    assert.deepEqual(socks.targets, [`127.0.0.1:${target.port}`]);
  });

  it('lets a socks5h:// proxy resolve the host name', async () => {
    const socks = await startSocksProxy();
    closers.push(() => socks.close());
    const res = await get(
      client({ url: socks.url.replace('socks5:', 'socks5h:') }),
      `http://localhost:${target.port}/`,
    );
    assert.equal(await res.text(), ECHOED);
    assert.deepEqual(socks.targets, [`localhost:${target.port}`]);
  });

  it('gives a SOCKS5 proxy the credentials of its URL or of "http.proxyAuthorization", and says when refused', async () => {
    const socks = await startSocksProxy({ user: 'alice', password: 's0cks-pass' });
    closers.push(() => socks.close());
    const log = memoryLogger();
    const inUrl = socks.url.replace('//', '//alice:s0cks-pass@');
    assert.equal(await (await get(client({ url: inUrl }, log))).text(), ECHOED);
    const basic = `Basic ${Buffer.from('alice:s0cks-pass').toString('base64')}`;
    assert.equal(await (await get(client({ url: socks.url, authorization: basic }, log))).text(), ECHOED);
    assert.deepEqual(socks.users, ['alice', 'alice']);
    const e = await expectServiceError(get(client({ url: socks.url.replace('//', '//alice:wrong@') }, log)));
    assert.match(e.message, /^The SOCKS proxy socks5:\/\/127\.0\.0\.1:\d+ refused the credentials\./);
    assert.ok(
      log.lines.every((l) => !l.includes('s0cks-pass') && !l.includes('wrong')),
      log.lines.join('\n'),
    );
  });

  it('reaches an HTTPS server through a SOCKS5 proxy, trusting the same CAs as direct', async () => {
    const pki = makeTestPki();
    closers.push(() => pki.remove());
    const server = await startHttpsServer(pki, (_req, res) => res.writeHead(200).end('secure'));
    closers.push(() => server.close());
    const socks = await startSocksProxy();
    closers.push(() => socks.close());
    const system: CaSource = { defaults: () => tls.rootCertificates, system: () => [pki.caPem] };
    const res = await get(
      client({ url: socks.url }, memoryLogger(), system),
      `${server.url.replace('127.0.0.1', 'localhost')}/`,
    );
    assert.equal(await res.text(), 'secure');
  });

  it('tunnels through a socks4:// proxy, resolving names itself, and a socks4a:// proxy, which resolves them', async () => {
    const socks = await startSocksProxy();
    closers.push(() => socks.close());
    const socks4 = client({ url: socks.url.replace('socks5://', 'socks4://carol@') });
    for (let i = 0; i < 2; i++) {
      assert.equal(await (await get(socks4)).text(), ECHOED);
    }
    assert.equal(await (await get(socks4, `http://localhost:${target.port}/`)).text(), ECHOED);
    const socks4a = client({ url: socks.url.replace('socks5://', 'socks4a://') });
    assert.equal(await (await get(socks4a, `http://localhost:${target.port}/`)).text(), ECHOED);
    // One kept-alive tunnel per pool; SOCKS4 is given the address, SOCKS4a the name.
    assert.deepEqual(socks.targets, [
      `127.0.0.1:${target.port}`,
      `127.0.0.1:${target.port}`,
      `localhost:${target.port}`,
    ]);
    assert.deepEqual(socks.users, ['carol', 'carol']);
  });

  it('reaches an HTTPS server through a SOCKS4 proxy, and says when the proxy cannot reach the target', async () => {
    const pki = makeTestPki();
    closers.push(() => pki.remove());
    const server = await startHttpsServer(pki, (_req, res) => res.writeHead(200).end('secure'));
    closers.push(() => server.close());
    const socks = await startSocksProxy();
    closers.push(() => socks.close());
    const system: CaSource = { defaults: () => tls.rootCertificates, system: () => [pki.caPem] };
    const c = client({ url: socks.url.replace('socks5://', 'socks4a://') }, memoryLogger(), system);
    assert.equal(await (await get(c, `${server.url.replace('127.0.0.1', 'localhost')}/`)).text(), 'secure');
    const port = await closedPort();
    const e = await expectServiceError(get(c, `http://127.0.0.1:${port}/`));
    assert.match(e.message, /^The SOCKS proxy socks4a:\/\/127\.0\.0\.1:\d+ could not connect to 127\.0\.0\.1:\d+/);
  });

  it('reports an unreachable SOCKS4 proxy as the proxy failing', async () => {
    const port = await closedPort();
    const e = await expectServiceError(get(client({ url: `socks4://127.0.0.1:${port}` })));
    assert.equal(e.message, `The proxy socks4://127.0.0.1:${port} refused the connection. Check "http.proxy".`);
  });

  it('refuses a proxy of another kind with a sentence naming the setting, never "Invalid URL protocol"', async () => {
    const e = await expectServiceError(get(client({ url: 'ftp://127.0.0.1:2121' })));
    assert.equal(
      e.message,
      'The proxy ftp://127.0.0.1:2121 in "http.proxy" is not an http://, https://, socks5:// or socks4:// proxy.',
    );
  });

  it('reads a proxy written without a scheme as an HTTP proxy', async () => {
    const proxy = await startRecordingProxy();
    closers.push(() => proxy.close());
    const res = await get(client({ url: proxy.url.replace('http://', '') }));
    assert.equal(await res.text(), ECHOED);
    assert.equal(proxy.seen.length, 1);
  });
});
