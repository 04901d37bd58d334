import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync, chmodSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CacheSnapshotFile } from '../../../../src/core/encyclopedia/cacheSnapshotFile';
import { isLookupValue } from '../../../../src/core/encyclopedia/lookupTypes';
import { silentLogger, type Logger } from '../../../../src/core/logger';
import { keyRouteOf } from '../../../../src/core/net/keyRoute';
import { stdioKeyGate } from '../../../../src/core/mcp/stdioServer';
import { ServiceError } from '../../../../src/core/service/errors';
import { outRoot } from '../../../support/repoRoot';

function linesLogger(lines: string[]): Logger {
  const write = (message: string) => void lines.push(message);
  return { trace: write, debug: write, info: write, warn: write, error: write };
}

describe('the stdio server and proxies: where the key may travel', () => {
  it('a loopback http:// base URL through a remote http:// proxy is plain http to that proxy', () => {
    const viaProxy = { strictSSL: true, noProxy: [], url: 'http://proxy.corp.example:3128' };
    assert.equal(keyRouteOf(new URL('http://127.0.0.1:8787/v1'), viaProxy)?.plainHttp, true);
    assert.equal(keyRouteOf(new URL('http://localhost:8787/v1'), viaProxy)?.plainHttp, true);
    // Not through it (NO_PROXY), through a proxy on this computer, or https through the proxy's tunnel: no question.
    assert.equal(keyRouteOf(new URL('http://127.0.0.1:8787/v1'), { ...viaProxy, noProxy: ['127.0.0.1'] }), undefined);
    assert.equal(
      keyRouteOf(new URL('http://127.0.0.1:8787/v1'), { ...viaProxy, url: 'http://127.0.0.1:3128' }),
      undefined,
    );
    assert.equal(keyRouteOf(new URL('https://api.example/v1'), viaProxy), undefined);
  });

  it('refuses plain http to another computer, saying so on stderr, unless AXO_ALLOW_PLAIN_HTTP=1', async () => {
    const lines: string[] = [];
    const route = { url: new URL('http://remote.example/v1'), plainHttp: true, unverifiedTls: false };
    await assert.rejects(
      stdioKeyGate({}, linesLogger(lines))(route),
      (error: unknown) => error instanceof ServiceError && /AXO_ALLOW_PLAIN_HTTP=1/.test(error.message),
    );
    assert.match(
      lines.join('\n'),
      /Refused: the encyclopedia key would travel in clear over plain http to http:\/\/remote\.example/,
    );
    const allowed = stdioKeyGate({ AXO_ALLOW_PLAIN_HTTP: '1' }, linesLogger(lines));
    assert.equal((await allowed(route)).href, 'http://remote.example/v1');
    assert.match(
      lines.at(-1) ?? '',
      /sent over plain http to http:\/\/remote\.example, as AXO_ALLOW_PLAIN_HTTP=1 allows/,
    );
    assert.equal((await stdioKeyGate({}, silentLogger)({ ...route, plainHttp: false })).href, route.url.href);
  });

  it('the live server sends nothing to a plain http base URL on another computer and says why on stderr', async function () {
    this.timeout(20_000);
    const dir = mkdtempSync(path.join(tmpdir(), 'axo-stdio-'));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [path.join(outRoot, 'src', 'mcpServer.js')],
      env: {
        PATH: process.env.PATH ?? '',
        AXO_API_KEY: 'axo-key-0123456789',
        AXO_BASE_URL: 'http://192.0.2.1:9/',
        AXO_CACHE_DIR: dir,
      },
      stderr: 'pipe',
    });
    let said = '';
    transport.stderr?.on('data', (chunk: Buffer) => (said += chunk.toString()));
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(transport);
    try {
      const result = await client.callTool({ name: 'axo_ask', arguments: { question: 'q' } });
      assert.equal(result.isError, true);
      assert.match(JSON.stringify(result.content), /AXO_ALLOW_PLAIN_HTTP=1/);
      assert.match(said, /Refused: the encyclopedia key would travel in clear/);
      assert.doesNotMatch(said, /axo-key-0123456789/);
    } finally {
      await client.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('writes its cache in an existing shared folder without changing the folder’s mode; a folder it creates is 0700', async function () {
    if (process.platform === 'win32') {
      this.skip();
    }
    const shared = mkdtempSync(path.join(tmpdir(), 'axo-shared-'));
    try {
      chmodSync(shared, 0o1777);
      const file = new CacheSnapshotFile(path.join(shared, 'mcp-cache.json'), isLookupValue, {
        tightenExistingFolder: false,
      });
      await file.save([]);
      assert.equal(statSync(shared).mode & 0o7777, 0o1777);
      assert.equal(statSync(file.path).mode & 0o777, 0o600);
      const created = path.join(shared, 'new', 'deeper');
      await new CacheSnapshotFile(path.join(created, 'mcp-cache.json'), isLookupValue, {
        tightenExistingFolder: false,
      }).save([]);
      assert.ok(existsSync(created));
      assert.equal(statSync(created).mode & 0o777, 0o700);
    } finally {
      rmSync(shared, { recursive: true, force: true });
    }
  });
});
