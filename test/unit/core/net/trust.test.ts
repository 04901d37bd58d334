import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import * as tls from 'node:tls';
import { promisify } from 'node:util';
import { HttpClient, type HttpSettings } from '../../../../src/core/net/http';
import { silentLogger } from '../../../../src/core/logger';
import { nodeCaSource, trustedCertificates, type CaSource } from '../../../../src/core/net/trust';
import { expectServiceError } from '../../../support/serviceError';
import { makeTestPki, startHttpsServer, type TestPki } from '../../../support/tlsFixture';
import { outRoot } from '../../../support/repoRoot';

const run = promisify(execFile);
const PROBE = path.join(outRoot, 'test', 'support', 'tlsProbe.js');

describe('trusted certificate authorities', function () {
  this.timeout(20_000);
  let pki: TestPki;
  let other: TestPki;
  let server: { url: string; close(): Promise<void> };
  const clients: HttpClient[] = [];

  before(async () => {
    pki = makeTestPki();
    other = makeTestPki('Some Other CA');
    server = await startHttpsServer(pki, (_req, res) => res.writeHead(200).end('secure hello'));
  });

  after(async () => {
    await server.close();
    pki.remove();
    other.remove();
  });

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.dispose()));
  });

  function client(caSource: CaSource, settings: Partial<HttpSettings> = {}): HttpClient {
    const c = new HttpClient(
      () => ({ timeoutMs: 5000, proxy: { strictSSL: true, noProxy: [] }, ...settings }),
      silentLogger,
      { caSource },
    );
    clients.push(c);
    return c;
  }

  const get = (c: HttpClient) =>
    c.send({ method: 'GET', url: new URL(`${server.url}/v1/x`), key: 'k', keyKind: 'chat' });
  /** A source with Node's real roots, and the test CA standing in for the operating system's store. */
  const withSystemCa = (pem: string): CaSource => ({ defaults: () => tls.rootCertificates, system: () => [pem] });

  it('fails against a company CA it does not trust, in one sentence naming the problem and what to do', async () => {
    const e = await expectServiceError(get(client(withSystemCa(other.caPem))));
    assert.equal(e.kind, 'tls');
    assert.match(e.message, /^The certificate of 127\.0\.0\.1:\d+ is not trusted \(UNABLE_TO_VERIFY_LEAF_SIGNATURE\)/);
    assert.match(e.message, /"http\.systemCertificates"/);
    assert.match(e.message, /NODE_EXTRA_CA_CERTS/);
    assert.equal(e.message.split(/[.!?]\s+[A-Z]/).length, 1, e.message);
  });

  it('trusts a CA from the system store when "http.systemCertificates" is on', async () => {
    const res = await get(client(withSystemCa(pki.caPem)));
    assert.equal(await res.text(), 'secure hello');
  });

  it('ignores the system store when "http.systemCertificates" is off', async () => {
    const e = await expectServiceError(get(client(withSystemCa(pki.caPem), { systemCertificates: false })));
    assert.equal(e.kind, 'tls');
  });

  it("adds the system's roots to Node's, never replacing them", () => {
    const source = withSystemCa(pki.caPem);
    const list = trustedCertificates(source, true) ?? [];
    assert.ok(tls.rootCertificates.every((root) => list.includes(root)));
    assert.ok(list.includes(pki.caPem));
    // Nothing from the system: keep Node's own default store (which holds NODE_EXTRA_CA_CERTS).
    assert.equal(trustedCertificates({ defaults: () => tls.rootCertificates, system: () => [] }, true), undefined);
    assert.equal(trustedCertificates(source, false), undefined);
  });

  it('reads NODE_EXTRA_CA_CERTS into the default roots where the runtime does not list them', () => {
    const source = nodeCaSource({ env: { NODE_EXTRA_CA_CERTS: pki.caFile }, getCACertificates: null });
    const defaults = source.defaults();
    assert.ok(defaults.some((pem) => pem.trim() === pki.caPem.trim()));
    assert.equal(defaults.length, tls.rootCertificates.length + 1);
  });

  it("reads Linux's system bundle where the runtime has no reader of the system store", () => {
    const env = { SSL_CERT_FILE: pki.caFile };
    const linux = nodeCaSource({ env, platform: 'linux', getCACertificates: null }).system();
    assert.deepEqual(
      linux.map((pem) => pem.trim()),
      [pki.caPem.trim()],
    );
    assert.deepEqual(nodeCaSource({ env, platform: 'darwin', getCACertificates: null }).system(), []);
    const fromRuntime = nodeCaSource({ env, platform: 'linux', getCACertificates: () => ['RUNTIME'] }).system();
    assert.deepEqual(fromRuntime, ['RUNTIME']);
  });

  it("adds only what the system store has beyond Node's roots, however its PEM is wrapped", () => {
    const rewrapped = tls.rootCertificates.map((pem) => pem.replace(/\n/g, '\r\n'));
    const same = { defaults: () => tls.rootCertificates, system: () => rewrapped };
    assert.equal(trustedCertificates(same, true), undefined);
    const more = { defaults: () => tls.rootCertificates, system: () => [...rewrapped, pki.caPem] };
    assert.equal(trustedCertificates(more, true)?.length, tls.rootCertificates.length + 1);
  });

  for (const [title, extraArgs] of [
    ['with Node’s default store', []],
    ['when the system store adds a CA list of its own', ['other']],
  ] as const) {
    it(`trusts NODE_EXTRA_CA_CERTS in a fresh process ${title}`, async () => {
      const args = [PROBE, `${server.url}/v1/x`, ...extraArgs.map(() => other.caFile)];
      const env = { ...process.env, NODE_EXTRA_CA_CERTS: pki.caFile };
      const { stdout } = await run(process.execPath, args, { env });
      assert.deepEqual(JSON.parse(stdout), { ok: true, text: 'secure hello' });
      const without = await run(process.execPath, args, { env: { ...process.env, NODE_EXTRA_CA_CERTS: '' } });
      assert.equal((JSON.parse(without.stdout) as { ok: boolean }).ok, false);
    });
  }
});
