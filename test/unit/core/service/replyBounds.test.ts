import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import * as zlib from 'node:zlib';
import { AlphaClient } from '../../../../src/core/service/alphaClient';
import { ServiceError } from '../../../../src/core/service/errors';
import { HttpClient } from '../../../../src/core/net/http';
import type { Logger } from '../../../../src/core/logger';
import { MAX_REPLY_BYTES, MAX_REPLY_CHARS } from '../../../../src/core/service/replyBounds';
import { MAX_EVENT_CHARS } from '../../../../src/core/service/sse';

/**
 * The runtime's collector, exposed for this process (the unit runner starts node without --expose-gc): a full
 * collection, or with `{ type: 'minor' }` only the young generation's.
 */
function collector(): (options?: { type: 'minor' }) => void {
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as (options?: { type: 'minor' }) => void;
}

/** A server on 127.0.0.1 that streams `line` gzip-compressed for as long as the client reads. */
async function endless(
  line: string,
): Promise<{ url: string; sent: () => number; closed: Promise<void>; close(): void }> {
  let sent = 0;
  let closed: () => void = () => undefined;
  const whenClosed = new Promise<void>((resolve) => (closed = resolve));
  const piece = line.repeat(Math.ceil(65_536 / line.length));
  const server = http.createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'gzip' });
    const gzip = zlib.createGzip();
    gzip.pipe(res);
    const pump = () => {
      while (!res.destroyed) {
        sent += piece.length;
        if (!gzip.write(piece)) {
          gzip.once('drain', pump);
          return;
        }
      }
    };
    res.on('close', () => {
      gzip.destroy();
      closed();
    });
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    sent: () => sent,
    closed: whenClosed,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

/** A server on 127.0.0.1 that answers `body` as an event stream. */
async function once(body: string): Promise<{ url: string; close(): void }> {
  const server = http.createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'text/event-stream' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

/** A key of the session, which the service echoes in events the reply skips. */
const KEY = 'fkc_bounds_test_0123456789';

function memoryLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const push = (m: string) => void lines.push(m);
  return { lines, trace: push, debug: push, info: push, warn: push, error: push };
}

/**
 * Streams a reply from `url`, stopping by itself (and failing) past `limit` characters; `onDelta` runs after each
 * delta arrived.
 */
async function streamUntil(
  url: string,
  log: Logger,
  limit: number,
  onDelta: () => void = () => undefined,
): Promise<{ text: string; error: unknown }> {
  const httpClient = new HttpClient(() => ({ timeoutMs: 10_000, proxy: { strictSSL: true, noProxy: [] } }), log);
  const ctx = { http: httpClient, baseUrl: () => url, keys: async () => KEY, log };
  const alpha = new AlphaClient(ctx, () => 10_000);
  let text = '';
  let error: unknown;
  try {
    for await (const delta of alpha.stream({ model: 'alpha', messages: [{ role: 'user', content: 'hi' }] })) {
      text += delta;
      onDelta();
      assert.ok(text.length <= limit, `the reply did not end at its bound: ${text.length} characters so far`);
    }
  } catch (caught) {
    error = caught;
  } finally {
    await httpClient.dispose();
  }
  return { text, error };
}

describe('A streamed reply has a total bound', function () {
  this.timeout(120_000);

  it('ends an endless compressed reply at the bound, keeps what arrived, and holds less than twice it', async () => {
    const gc = collector();
    const server = await endless(`data: {"content":"${'x'.repeat(4096)}"}\n`);
    try {
      gc();
      const before = process.memoryUsage().heapUsed;
      // The peak while the reply streams, sampled after every delta. Each sample follows a collection of the young
      // generation, so what counts is what the stream holds at that moment (its short-lived garbage would otherwise
      // add up to the young generation's size, wherever its last collection happened to fall).
      let peak = before;
      const sample = () => {
        gc({ type: 'minor' });
        peak = Math.max(peak, process.memoryUsage().heapUsed);
      };
      const { text, error } = await streamUntil(server.url, memoryLogger(), 2 * MAX_REPLY_CHARS, sample);
      assert.ok(error instanceof ServiceError, `expected the reply's notice, got ${String(error)}`);
      assert.match(error.message, /^The reply was longer than 8 MB of text, more than this extension holds/);
      assert.equal(text.length, MAX_REPLY_CHARS);
      assert.ok(/^x+$/.test(text.slice(-1000)));
      const held = peak - before;
      assert.ok(held < 2 * MAX_REPLY_CHARS, `the heap held ${Math.round(held / 1024 / 1024)} MB while streaming`);
      gc();
      const growth = process.memoryUsage().heapUsed - before;
      assert.ok(growth < 2 * MAX_REPLY_CHARS, `the heap grew by ${Math.round(growth / 1024 / 1024)} MB`);
      await server.closed; // the connection is closed, not left streaming
      assert.ok(server.sent() < 4 * MAX_REPLY_CHARS + 8 * 1024 * 1024, `the server wrote ${server.sent()} bytes`);
      assert.ok(MAX_EVENT_CHARS <= MAX_REPLY_CHARS);
    } finally {
      server.close();
    }
  });

  it('ends an endless stream that carries no text at its decoded bytes', async () => {
    const server = await endless(`: ${'n'.repeat(1000)}\n`);
    try {
      const { text, error } = await streamUntil(server.url, memoryLogger(), 1);
      assert.equal(text, '');
      assert.ok(error instanceof ServiceError, `expected the reply's notice, got ${String(error)}`);
      assert.match(error.message, /^The reply was longer than 128 MB as sent/);
      assert.ok(server.sent() >= MAX_REPLY_BYTES);
    } finally {
      server.close();
    }
  });

  it('logs the first event without content and then their count, not a line per event', async () => {
    const events = `data: {"note":"${KEY}"}\n`.repeat(20_000);
    const server = await once(`${events}data: {"content":"ok"}\ndata: [DONE]\n`);
    const log = memoryLogger();
    try {
      const { text, error } = await streamUntil(server.url, log, 10);
      assert.equal(error, undefined);
      assert.equal(text, 'ok');
      const skipped = log.lines.filter((line) => line.startsWith('Stream: '));
      assert.deepEqual(skipped, [
        'Stream: skipped an event had no content: {"note":"***"}',
        'Stream: 20000 event(s) could not be read and were skipped.',
      ]);
    } finally {
      server.close();
    }
  });
});
