import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as zlib from 'node:zlib';
import { AlphaClient } from '../../../../src/core/service/alphaClient';
import { ServiceError } from '../../../../src/core/service/errors';
import { HttpClient } from '../../../../src/core/net/http';
import { silentLogger } from '../../../../src/core/logger';

/** A bare HTTP server on 127.0.0.1 answering every request with `answer` once its body is read. */
interface Server {
  url: string;
  /** TCP connections accepted so far. */
  connections: number;
  /** Resolves with the time (ms since the epoch) the first connection closed. */
  firstClose: Promise<number>;
  close(): Promise<void>;
}

async function serve(answer: (res: http.ServerResponse, req: http.IncomingMessage) => void): Promise<Server> {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => answer(res, req));
  });
  let closed: (at: number) => void = () => undefined;
  const state: Server = {
    url: '',
    connections: 0,
    firstClose: new Promise<number>((resolve) => (closed = resolve)),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  server.on('connection', (socket) => {
    state.connections++;
    socket.on('close', () => closed(Date.now()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}

function clientFor(server: Server): { alpha: AlphaClient; http: HttpClient } {
  const httpClient = new HttpClient(() => ({ timeoutMs: 5000, proxy: { strictSSL: true, noProxy: [] } }), silentLogger);
  const ctx = { http: httpClient, baseUrl: () => server.url, keys: async () => 'fkc_test', log: silentLogger };
  return { alpha: new AlphaClient(ctx, () => 5000), http: httpClient };
}

const request = { model: 'alpha', messages: [{ role: 'user' as const, content: 'hi' }] };

async function streamText(alpha: AlphaClient): Promise<string> {
  let text = '';
  for await (const delta of alpha.stream(request)) {
    text += delta;
  }
  return text;
}

async function failure(work: Promise<unknown>): Promise<ServiceError> {
  try {
    await work;
  } catch (error) {
    assert.ok(error instanceof ServiceError, `expected a ServiceError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected a failure');
}

/** Streams a reply that must fail: the text that arrived before the failure, and the failure. */
async function streamFailure(alpha: AlphaClient): Promise<{ kept: string; error: ServiceError }> {
  let kept = '';
  const error = await failure(
    (async () => {
      for await (const delta of alpha.stream(request)) {
        kept += delta;
      }
    })(),
  );
  return { kept, error };
}

const SSE = 'data: {"content":"Hello, "}\n\ndata: {"content":"world"}\n\ndata: [DONE]\n\n';
const deepArrays = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

describe('odd but legal responses', function () {
  this.timeout(20_000);
  const opened: Array<{ server: Server; client: { http: HttpClient } }> = [];
  async function setup(answer: (res: http.ServerResponse, req: http.IncomingMessage) => void) {
    const server = await serve(answer);
    const client = clientFor(server);
    opened.push({ server, client });
    return { server, ...client };
  }
  afterEach(async () => {
    for (const { server, client } of opened.splice(0)) {
      await client.http.dispose();
      await server.close();
    }
  });

  it('reads a stream whose media type is written in another case and with parameters', async () => {
    const { alpha } = await setup((res) => {
      res.writeHead(200, { 'content-type': 'Text/Event-Stream; charset=UTF-8' });
      res.end(SSE);
    });
    assert.equal(await streamText(alpha), 'Hello, world');
  });

  it('reads a JSON or text reply whose media type is written in another case', async () => {
    let type = 'Application/JSON; Charset=utf-8';
    const { alpha } = await setup((res) => {
      res.writeHead(200, { 'content-type': type });
      res.end(type.startsWith('Application') ? '{"content":"from JSON"}' : '{"content": plain text}');
    });
    assert.equal(await alpha.complete(request), 'from JSON');
    type = 'TEXT/PLAIN;charset=UTF-8';
    assert.equal(await alpha.complete(request), '{"content": plain text}');
  });

  it('reads compressed bodies (gzip, deflate, br): a stream as it arrives, a reply, an error, a cut stream', async () => {
    let mode = 'stream';
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    const { alpha } = await setup((res) => {
      if (mode === 'stream') {
        // A server that compresses its stream and flushes each event, as it must for a client to see it arrive.
        res.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'gzip' });
        const gzip = zlib.createGzip();
        gzip.pipe(res);
        gzip.write('data: {"content":"Hello, "}\n\n');
        gzip.flush();
        void released.then(() => gzip.end('data: {"content":"world"}\n\ndata: [DONE]\n\n'));
      } else if (mode === 'br' || mode === 'deflate') {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': mode });
        const body = Buffer.from(`{"content":"from ${mode}"}`);
        res.end(mode === 'br' ? zlib.brotliCompressSync(body) : zlib.deflateSync(body));
      } else if (mode === 'error') {
        res.writeHead(503, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
        res.end(zlib.gzipSync('{"error":{"message":"compressed and down"}}'));
      } else {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'gzip' });
        const whole = zlib.gzipSync('data: {"content":"kept"}\n\n', { flush: zlib.constants.Z_SYNC_FLUSH });
        // The stream is cut before the gzip trailer (and [DONE]): what decoded so far is kept.
        res.end(whole.subarray(0, whole.length - 8));
      }
    });
    // The first event arrives while the server still holds the rest: decoded as it comes, not at the end.
    const deltas = alpha.stream(request)[Symbol.asyncIterator]();
    assert.deepEqual(await deltas.next(), { done: false, value: 'Hello, ' });
    release();
    let text = 'Hello, ';
    for (let next = await deltas.next(); !next.done; next = await deltas.next()) {
      text += next.value;
    }
    assert.equal(text, 'Hello, world');
    for (const encoding of ['br', 'deflate']) {
      mode = encoding;
      assert.equal(await alpha.complete(request), `from ${encoding}`);
    }
    mode = 'error';
    const down = await failure(alpha.complete(request));
    assert.match(down.message, /compressed and down/);
    mode = 'cut';
    const cut = await streamFailure(alpha);
    assert.equal(cut.kept, 'kept');
    assert.equal(cut.error.kind, 'cut');
  });

  it('reads a stream that does not say it is one (no type, text/plain, octet-stream) as it arrives', async () => {
    const types = [undefined, 'text/plain; charset=utf-8', 'application/octet-stream'];
    let type: string | undefined;
    const { alpha } = await setup((res) => {
      res.writeHead(200, type === undefined ? {} : { 'content-type': type });
      // Held open after [DONE], with a BOM and a first chunk shorter than any field name.
      res.write(Buffer.from([0xef, 0xbb, 0xbf, 0x64]));
      setTimeout(() => res.write('ata: {"content":"un"}\ndata: {"content":"typed"}\ndata: [DONE]\n'), 10);
    });
    for (type of types) {
      const started = Date.now();
      assert.equal(await streamText(alpha), 'untyped', String(type));
      assert.ok(Date.now() - started < 1000, 'done at [DONE]');
    }
  });

  it('still reads a reply in one piece that does not name its type, or is plain text, when a stream was asked for', async () => {
    let body = '{"message":{"content":"one piece"}}';
    let headers: http.OutgoingHttpHeaders = {};
    const { alpha } = await setup((res) => {
      res.writeHead(200, headers);
      res.end(body);
    });
    assert.equal(await streamText(alpha), 'one piece');
    body = 'Plain: a reply in plain text, long enough to span chunks';
    headers = { 'content-type': 'text/plain' };
    assert.equal(await streamText(alpha), body);
    body = '';
    headers = {};
    const empty = await failure(streamText(alpha));
    assert.match(empty.message, /empty answer/);
  });

  it('reads JSON lines (NDJSON, as Ollama streams) as they arrive, by their type or by their start', async () => {
    const line = (content: string, done = false) => JSON.stringify({ message: { role: 'assistant', content }, done });
    let type: string | undefined;
    let release: () => void = () => undefined;
    const { alpha } = await setup((res) => {
      res.writeHead(200, type === undefined ? {} : { 'content-type': type });
      // The first line arrives in two pieces; the rest only once the client has shown the first delta.
      res.write(line('Hello, ').slice(0, 9));
      setTimeout(() => res.write(`${line('Hello, ').slice(9)}\n${line('wor')}`), 10);
      release = () => res.end(`\n${line('ld')}\n${line('', true)}\n`);
    });
    for (type of ['application/x-ndjson', 'Application/JSONL; charset=utf-8', undefined, 'text/plain']) {
      const deltas = alpha.stream(request)[Symbol.asyncIterator]();
      assert.deepEqual(await deltas.next(), { done: false, value: 'Hello, ' }, String(type));
      release();
      let text = 'Hello, ';
      for (let next = await deltas.next(); !next.done; next = await deltas.next()) {
        text += next.value;
      }
      assert.equal(text, 'Hello, world', String(type));
    }
    type = 'application/x-ndjson';
    const whole = alpha.complete(request);
    setTimeout(() => release(), 50);
    assert.equal(await whole, 'Hello, world');
  });

  it('gives the first event of a stream typed text/plain or application/json before the next has come', async () => {
    let type = '';
    let release: () => void = () => undefined;
    const { alpha } = await setup((res) => {
      res.writeHead(200, { 'content-type': type });
      res.write('data: {"content":"first"}\n\n');
      release = () => res.end('data: {"content":" then"}\n\ndata: [DONE]\n\n');
    });
    for (type of ['text/plain', 'application/json']) {
      const deltas = alpha.stream(request)[Symbol.asyncIterator]();
      assert.deepEqual(await deltas.next(), { done: false, value: 'first' }, type);
      release();
      assert.deepEqual(await deltas.next(), { done: false, value: ' then' }, type);
      assert.equal((await deltas.next()).done, true, type);
    }
  });

  it('removes the key from a reply in one piece that echoes it, whatever its type says', async () => {
    let type: string | undefined;
    const { alpha } = await setup((res) => {
      res.writeHead(200, type === undefined ? {} : { 'content-type': type });
      res.end(JSON.stringify({ content: 'Your key is fkc_test.' }));
    });
    for (type of [undefined, 'text/plain', 'application/json']) {
      for (const text of [await alpha.complete(request), await streamText(alpha)]) {
        assert.doesNotMatch(text, /fkc_test/, String(type));
        assert.match(text, /Your key is /, String(type));
      }
    }
  });

  it('reads a reply in one line with a line end after it as one JSON body, not as JSON lines', async () => {
    let body = '{"message":{"content":"one piece"}}\n';
    const { alpha } = await setup((res) => {
      res.writeHead(200, {});
      res.end(body);
    });
    assert.equal(await streamText(alpha), 'one piece');
    body = '{\n  "message": {"content": "pretty"}\n}\n';
    assert.equal(await streamText(alpha), 'pretty');
  });

  it('keeps the text of JSON lines cut off midway and says so', async () => {
    const { alpha } = await setup((res) => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      res.write('{"message":{"content":"kept"},"done":false}\n{"message":{"con');
      setTimeout(() => res.destroy(), 20);
    });
    const cut = await streamFailure(alpha);
    assert.equal(cut.kept, 'kept');
    assert.equal(cut.error.kind, 'cut');
  });

  it('reads a stream sent in answer to a request that did not ask for one, and returns it whole', async () => {
    const { alpha } = await setup((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {"content":"all "}\n');
      setTimeout(() => res.end('data: {"content":"of it"}\ndata: [DONE]\n'), 20);
    });
    assert.equal(await alpha.complete(request), 'all of it');
  });

  it('shows a deeply nested JSON body, cut to a readable depth, never a stack overflow', async () => {
    const { alpha } = await setup((res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`{"result":${deepArrays(100_000)}}`);
    });
    const text = await alpha.complete(request);
    assert.match(text, /^```json\n\{\n {2}"result": \[/);
    assert.ok(text.includes('[…]'), 'the levels past the limit are elided');
    assert.ok(text.length < 5000, `${text.length} characters`);
  });

  it('shows a huge JSON body cut to 100,000 characters', async () => {
    const { alpha } = await setup((res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ rows: Array.from({ length: 300_000 }, (_, i) => ({ id: i })) }));
    });
    const text = await alpha.complete(request);
    assert.ok(text.length <= 100_020, `${text.length} characters`);
    assert.ok(text.endsWith('…\n```'));
  });

  it('turns a deeply nested error body or stream error into a readable sentence', async () => {
    let status = 500;
    const { alpha } = await setup((res) => {
      if (status === 500) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(`{"error":${'[{"error":'.repeat(3000)}"deep"${'}]'.repeat(3000)}}`);
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(`data: {"content":"kept"}\ndata: {"error":${deepArrays(50_000)}}\n`);
    });
    const server = await failure(alpha.complete(request));
    assert.equal(server.kind, 'server');
    assert.match(server.message, /^The service failed \(500 Internal Server Error\)\./);
    assert.ok(!/Maximum call stack|RangeError/.test(server.message), server.message);
    status = 200;
    let text = '';
    const stream = await failure(
      (async () => {
        for await (const delta of alpha.stream(request)) {
          text += delta;
        }
      })(),
    );
    assert.equal(text, 'kept');
    assert.equal(stream.kind, 'streamError');
    assert.match(stream.message, /^The service reported an error during the reply: \[\[\[/);
    assert.ok(stream.message.length < 400);
  });

  it('reuses the connection when the response ends soon after [DONE]', async () => {
    let ended: Promise<void> = Promise.resolve();
    const { alpha, server } = await setup((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {"content":"one"}\ndata: [DONE]\n');
      ended = new Promise((resolve) => res.on('finish', () => resolve()));
      setTimeout(() => res.end(), 30);
    });
    for (let i = 0; i < 3; i++) {
      assert.equal(await streamText(alpha), 'one');
      // The next message comes later than the end of this response, as a person's does (never within 30 ms).
      await ended;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.equal(server.connections, 1, 'one keep-alive connection for three replies');
  });

  it('completes at [DONE] at once and closes a connection the service holds open, after a short grace', async () => {
    const { alpha, server } = await setup((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {"content":"held"}\ndata: [DONE]\n');
    });
    const started = Date.now();
    assert.equal(await streamText(alpha), 'held');
    const done = Date.now();
    assert.ok(done - started < 1000, `done after ${done - started} ms`);
    const closedAfter = (await server.firstClose) - done;
    assert.ok(closedAfter >= 150 && closedAfter < 1000, `closed ${closedAfter} ms after [DONE]`);
  });
});
