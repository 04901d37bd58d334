import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { chatReply, longReply, replyDirective, type ChatMessage } from '../../fakeService/chatContent';
import { CORPUS } from '../../fakeService/corpus';
import {
  DEFAULT_AXO_KEY,
  DEFAULT_CHAT_KEY,
  NO_FAULT_PARAM,
  startFakeService,
  type FakeService,
} from '../../fakeService/fakeService';
import { STATUS_BODY_KINDS, STATUS_FAULTS } from '../../fakeService/faults';
import { AFTER_DONE_TEXT, BIG_EVENT_LENGTH, ERROR_EVENT_MESSAGE, LINES_HOLD_MS } from '../../fakeService/sseStream';
import { decodeChunks, readChunks, readUntilQuiet, reassemble, ssePayloads } from '../../fakeService/sseTestReader';
import { outRoot } from '../../support/repoRoot';

let fake: FakeService;

const MESSAGES: ChatMessage[] = [
  { role: 'user', content: 'Tell me about caching' },
  { role: 'assistant', content: 'Sure.' },
  { role: 'user', content: 'Show me code please' },
];

interface CallOptions {
  key?: string | null;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  redirect?: 'follow' | 'manual' | 'error';
}

function authHeaders(key: string | null | undefined, fallback: string): Record<string, string> {
  const k = key === undefined ? fallback : key;
  return k === null ? {} : { authorization: `Bearer ${k}` };
}

function chat(body: unknown, opts: CallOptions = {}): Promise<Response> {
  return fetch(`${fake.url}/v1/alpha`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...authHeaders(opts.key, fake.chatKey), ...opts.headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    signal: opts.signal,
    redirect: opts.redirect,
  });
}

function streamChat(messages: ChatMessage[], opts: CallOptions = {}): Promise<Response> {
  return chat({ model: 'alpha', messages, stream: true }, opts);
}

function axo(endpoint: string, params: Record<string, string>, opts: CallOptions = {}): Promise<Response> {
  return fetch(`${fake.url}/v1/axo/${endpoint}?${new URLSearchParams(params).toString()}`, {
    headers: { ...authHeaders(opts.key, fake.axoKey), ...opts.headers },
    signal: opts.signal,
    redirect: opts.redirect,
  });
}

/** No lone UTF-16 surrogate (with the u flag, a valid pair is one code point, not `Cs`). */
function wellFormed(text: string): boolean {
  return !/\p{Cs}/u.test(text);
}

async function streamWithFault(fault: string, messages = MESSAGES) {
  const res = await streamChat(messages, { headers: { 'x-fake-fault': fault } });
  const { chunks, error } = await readChunks(res);
  const raw = Buffer.concat(chunks);
  const payloads = ssePayloads(decodeChunks(chunks));
  return { res, raw, rawText: raw.toString('utf8'), payloads, error, ...reassemble(payloads) };
}

describe('fake service', () => {
  before(async () => {
    fake = await startFakeService({ tokenDelayMs: 0 });
  });
  after(() => fake.close());
  beforeEach(() => fake.reset());

  describe('keys', () => {
    it('uses fixed, different prefixes for the two key kinds', () => {
      assert.match(DEFAULT_CHAT_KEY, /^fkc_.+/);
      assert.match(DEFAULT_AXO_KEY, /^fke_.+/);
      assert.equal(fake.chatKey, DEFAULT_CHAT_KEY);
      assert.equal(fake.axoKey, DEFAULT_AXO_KEY);
      assert.match(fake.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    });

    it('accepts each key on its own endpoint only; the other kind, a wrong or a missing key get 401', async () => {
      const unauthorized = { error: { message: 'Invalid API key', code: 'invalid_api_key' } };
      const body = { model: 'alpha', messages: MESSAGES };
      assert.equal((await chat(body)).status, 200);
      assert.equal((await axo('search', { q: 'Turing' })).status, 200);
      for (const key of [fake.axoKey, null, 'fkc_wrong_123', '']) {
        const res = await chat(body, { key });
        assert.equal(res.status, 401, `chat with ${String(key)}`);
        assert.deepEqual(await res.json(), unauthorized);
      }
      for (const key of [fake.chatKey, null, 'fke_wrong_123']) {
        const res = await axo('ask', { q: 'Turing' }, { key });
        assert.equal(res.status, 401, `axo with ${String(key)}`);
        assert.deepEqual(await res.json(), unauthorized);
      }
      const kinds = fake.requests.map((r) => `${r.keyKind}:${String(r.authorization)}`);
      assert.deepEqual(kinds, [
        ...['chat:true', 'axo:true', 'axo:true', 'none:false', 'wrong:true', 'wrong:true'],
        ...['chat:true', 'none:false', 'wrong:true'],
      ]);
    });

    it('honours custom keys', async () => {
      const other = await startFakeService({ chatKey: 'fkc_custom_1', axoKey: 'fke_custom_2' });
      try {
        const res = await fetch(`${other.url}/v1/axo/search?q=x`, {
          headers: { authorization: 'Bearer fke_custom_2' },
        });
        assert.equal(res.status, 200);
        const old = await fetch(`${other.url}/v1/axo/search?q=x`, {
          headers: { authorization: `Bearer ${DEFAULT_AXO_KEY}` },
        });
        assert.equal(old.status, 401);
      } finally {
        await other.close();
      }
    });
  });

  describe('chat requests', () => {
    it('validates method, JSON, model, messages and size', async () => {
      const get = await fetch(`${fake.url}/v1/alpha`, { headers: { authorization: `Bearer ${fake.chatKey}` } });
      assert.equal(get.status, 405);
      assert.equal((await chat('{not json')).status, 400);
      assert.equal((await chat({ messages: MESSAGES })).status, 400);
      assert.equal((await chat({ model: 'alpha', messages: [] })).status, 400);
      assert.equal((await chat({ model: 'alpha', messages: [{ role: 'user' }] })).status, 400);
      assert.equal((await chat({ model: 'alpha', messages: MESSAGES, stream: 'yes' })).status, 400);
      const bad = await chat({ model: 'x', messages: MESSAGES });
      assert.equal(bad.status, 404);
      assert.deepEqual(await bad.json(), { error: { message: "Model 'x' not found", code: 'model_not_found' } });
      const huge = await chat({ model: 'alpha', messages: [{ role: 'user', content: 'x'.repeat(2 * 1024 * 1024) }] });
      assert.equal(huge.status, 413);
      assert.equal((await fetch(`${fake.url}/v1/nothing`)).status, 404);
    });

    it('answers non-streaming requests with the default shape and the other shapes on request', async () => {
      const expected = chatReply(MESSAGES);
      const body = { model: 'alpha', messages: MESSAGES };
      const plain = (await (await chat(body)).json()) as { model: string; message: { role: string; content: string } };
      assert.equal(plain.model, 'alpha');
      assert.deepEqual(plain.message, { role: 'assistant', content: expected });
      const shapes: Record<string, (v: Record<string, unknown>) => unknown> = {
        content: (v) => v.content,
        reply: (v) => v.reply,
        text: (v) => v.text,
        output: (v) => v.output,
        choices: (v) => (v.choices as { message: { content: string } }[])[0].message.content,
      };
      for (const [shape, get] of Object.entries(shapes)) {
        const res = await chat(body, { headers: { 'x-fake-shape': shape } });
        assert.equal(get((await res.json()) as Record<string, unknown>), expected, shape);
      }
      const text = await chat(body, { headers: { 'x-fake-shape': 'plain' } });
      assert.match(text.headers.get('content-type') ?? '', /^text\/plain/);
      assert.equal(await text.text(), expected);
      fake.setFault('shape:choices');
      assert.ok('choices' in ((await (await chat(body)).json()) as object));
    });
  });

  describe('chat replies', () => {
    it('builds a default reply with markdown, code, accents, emoji and CJK, ending with the count', () => {
      const reply = chatReply(MESSAGES);
      for (const part of ['## ', '- ', '```ts', '```python', 'café', 'naïve', 'Zürich', 'Ærøskøbing', '東京']) {
        assert.ok(reply.includes(part), part);
      }
      for (const emoji of ['🚀', '👍🏽', '👨‍👩‍👧']) {
        assert.ok(reply.includes(emoji), emoji);
      }
      assert.ok(reply.endsWith('\nMessages received: 3.'));
      assert.equal(chatReply(MESSAGES), reply, 'deterministic');
    });

    it('follows #echo, #long:N and #hostile in the last user message', () => {
      const echo = [{ role: 'user', content: 'please #echo this 👍🏽 back' }];
      assert.equal(chatReply(echo), echo[0].content);
      for (const n of [0, 1, 41, 42, 43, 100, 777, 5000, 123457]) {
        const reply = chatReply([{ role: 'user', content: `go #long:${n} now` }]);
        assert.equal(reply.length, n);
        assert.equal((reply.match(/```/g) ?? []).length % 2, 0, 'fences closed');
        assert.ok(wellFormed(reply));
      }
      assert.ok(longReply(3000).includes('```ts'));
      const hostile = chatReply([{ role: 'user', content: 'be #hostile' }]);
      const parts = [
        '<script>alert(1)</script>',
        '<img src=x onerror=alert(1)>',
        '<iframe src="https://example.com"></iframe>',
        '[click](javascript:alert(1))',
        '[cmd](command:workbench.action.quit)',
        '![remote](https://example.com/pixel.png)',
        '[safe link](https://example.com/docs)',
      ];
      parts.forEach((p) => assert.ok(hostile.includes(p), p));
      const earlier = [{ role: 'user', content: '#echo' }, ...MESSAGES];
      assert.ok(chatReply(earlier).endsWith('Messages received: 4.'), 'only the last user message counts');
    });

    it('answers #reply:B64 with exactly the text encoded in it', () => {
      const text = 'Here:\n\n```ts\nconst crème = `brûlée ${1}`; // 👍🏽\n```\n';
      const directive = replyDirective(text);
      assert.match(directive, /^#reply:[A-Za-z0-9_-]+$/);
      const prompt = `Document this.\n\n\`\`\`js\n// ${directive}\nfunction f() {}\n\`\`\``;
      assert.equal(chatReply([{ role: 'user', content: prompt }]), text);
      assert.equal(chatReply([{ role: 'user', content: `${directive} #echo` }]), `${directive} #echo`, '#echo first');
      const older = [{ role: 'user', content: directive }, ...MESSAGES];
      assert.ok(chatReply(older).endsWith('Messages received: 4.'), 'only the last user message counts');
    });
  });

  describe('streaming', () => {
    it('streams pieces of 1–6 code points that reassemble exactly, then [DONE]', async () => {
      const res = await streamChat(MESSAGES);
      assert.equal(res.headers.get('content-type'), 'text/event-stream');
      const { chunks } = await readChunks(res);
      const text = decodeChunks(chunks);
      assert.ok(text.startsWith('data: {"content":'));
      const payloads = ssePayloads(text);
      const { text: joined, done, skipped } = reassemble(payloads);
      assert.equal(joined, chatReply(MESSAGES));
      assert.ok(done);
      assert.deepEqual(skipped, []);
      assert.ok(text.endsWith('data: [DONE]\n\n'));
      for (const p of payloads.slice(0, -1)) {
        const piece = (JSON.parse(p) as { content: string }).content;
        assert.ok(wellFormed(piece), `lone surrogate in ${p}`);
        const points = [...piece].length;
        assert.ok(points >= 1 && points <= 6, `${points} code points`);
      }
    });

    it('writes chunks that cut inside multi-byte characters and data lines, with the default delay', async () => {
      const slow = await startFakeService();
      try {
        const res = await fetch(`${slow.url}/v1/alpha`, {
          method: 'POST',
          headers: { authorization: `Bearer ${slow.chatKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'alpha', messages: MESSAGES, stream: true }),
        });
        const { chunks } = await readChunks(res);
        assert.ok(chunks.length > 20, `${chunks.length} chunks`);
        const midChar = chunks.slice(1).filter((c) => (c[0] & 0xc0) === 0x80).length;
        assert.ok(midChar >= 1, 'a chunk starts inside a UTF-8 sequence');
        const midLine = chunks.slice(1).filter((c) => !Buffer.from(c).toString('latin1').startsWith('data:')).length;
        assert.ok(midLine >= 1, 'a chunk starts inside a data: line');
        assert.equal(reassemble(ssePayloads(decodeChunks(chunks))).text, chatReply(MESSAGES));
      } finally {
        await slow.close();
      }
    });

    it('records a client abort and stops writing', async () => {
      const ac = new AbortController();
      const res = await streamChat(MESSAGES, { headers: { 'x-fake-fault': 'slow' }, signal: ac.signal });
      const reader = res.body!.getReader();
      await reader.read();
      ac.abort();
      const r = await fake.waitFor((x) => x.aborted);
      assert.equal(r.completed, false);
      assert.equal(r.status, 200);
      assert.ok(r.endedAt !== undefined);
      await streamChat(MESSAGES).then(readChunks);
      const ok = await fake.waitFor((x) => x.completed);
      assert.equal(ok.aborted, false);
      assert.deepEqual(ok.body, { model: 'alpha', messages: MESSAGES, stream: true });
    });
  });

  describe('stream faults', () => {
    const expected = chatReply(MESSAGES);

    it('cut: destroys the connection after about half of the events, without [DONE]', async () => {
      const r = await streamWithFault('cut');
      assert.ok(r.error, 'the body read fails');
      assert.equal(r.done, false);
      assert.ok(expected.startsWith(r.text) && r.text.length > expected.length / 4 && r.text.length < expected.length);
      const rec = await fake.waitFor((x) => x.endedAt !== undefined);
      assert.deepEqual([rec.fault, rec.completed, rec.aborted], ['cut', false, false]);
    });

    it('stall: sends some events, then nothing, and holds the connection until the client leaves', async () => {
      const ac = new AbortController();
      const res = await streamChat(MESSAGES, { headers: { 'x-fake-fault': 'stall' }, signal: ac.signal });
      const text = await readUntilQuiet(res, 300);
      const { text: got, done } = reassemble(ssePayloads(text));
      assert.ok(got.length > 0 && expected.startsWith(got) && !done);
      assert.equal(fake.requests[0].endedAt, undefined, 'still open');
      ac.abort();
      assert.ok((await fake.waitFor((x) => x.aborted)).fault === 'stall');
    });

    it('stall-headers: sends no headers at all until the client leaves', async () => {
      const started = Date.now();
      await assert.rejects(
        streamChat(MESSAGES, { headers: { 'x-fake-fault': 'stall-headers' }, signal: AbortSignal.timeout(300) }),
      );
      assert.ok(Date.now() - started >= 250);
      const rec = await fake.waitFor((x) => x.aborted);
      assert.equal(rec.status, 0);
    });

    it('slow: leaves about 100 ms between events', async () => {
      const messages = [{ role: 'user', content: '#echo #fault:slow' }];
      const res = await streamChat(messages);
      const reader = res.body!.getReader();
      const times: number[] = [];
      let text = '';
      for (let next = await reader.read(); !next.done; next = await reader.read()) {
        times.push(Date.now());
        text += Buffer.from(next.value).toString('utf8');
      }
      assert.equal(reassemble(ssePayloads(text)).text, '#echo #fault:slow');
      assert.ok(times.length >= 3);
      const gaps = times.slice(1).map((t, i) => t - times[i]);
      assert.ok(Math.min(...gaps) >= 80, `gaps ${gaps.join(',')}`);
    });

    const reassembling: Record<string, (r: Awaited<ReturnType<typeof streamWithFault>>) => void> = {
      'bad-json': (r) => assert.deepEqual(r.skipped, ['{"content": "oops']),
      'no-content': (r) => assert.deepEqual(r.skipped, ['{"role":"assistant"}', '{"role":"assistant"}']),
      'done-then-more': (r) => {
        const after = r.payloads.slice(r.payloads.indexOf('[DONE]') + 1);
        assert.equal(after.map((p) => (JSON.parse(p) as { content: string }).content).join(''), AFTER_DONE_TEXT);
      },
      crlf: (r) => assert.ok(r.rawText.includes('\r\n') && !/[^\r]\n/.test(r.rawText)),
      cr: (r) => assert.ok(r.rawText.includes('}\r\r') && !r.rawText.includes('\n')),
      bom: (r) => assert.deepEqual([...r.raw.subarray(0, 3)], [0xef, 0xbb, 0xbf]),
      comments: (r) => {
        for (const line of [': keep-alive', 'event: message', 'id: 1', 'id: 2']) {
          assert.ok(r.rawText.split('\n').includes(line), line);
        }
      },
      'no-space': (r) => {
        const lines = r.rawText.split('\n').filter((l) => l !== '');
        assert.ok(lines.every((l) => l.startsWith('data:{') || l === 'data:[DONE]'));
      },
    };
    for (const [fault, check] of Object.entries(reassembling)) {
      it(`${fault}: still reassembles to the reply for a spec-following reader`, async () => {
        const r = await streamWithFault(fault);
        assert.equal(r.res.status, 200);
        assert.equal(r.error, undefined);
        assert.equal(r.done, true);
        assert.equal(reassemble(r.payloads).text, expected);
        check(r);
        assert.equal(fake.requests[0].fault, fault);
      });
    }

    it('error-event: a few events, then an error payload, then the stream ends', async () => {
      const r = await streamWithFault('error-event');
      assert.equal(r.error, undefined);
      assert.equal(r.done, false);
      assert.equal(r.payloads.length, 6);
      assert.deepEqual(JSON.parse(r.payloads[5]), { error: { message: ERROR_EVENT_MESSAGE } });
      assert.ok(expected.startsWith(r.text));
    });

    it('big-event: one event of 1,000,000 characters', async () => {
      const r = await streamWithFault('big-event');
      assert.equal(r.payloads.length, 2);
      assert.ok(r.rawText.length > BIG_EVENT_LENGTH);
      assert.equal(reassemble(r.payloads).text, longReply(BIG_EVENT_LENGTH));
      assert.equal(r.done, true);
    });
  });

  describe('stream framing', () => {
    const expected = chatReply(MESSAGES);

    /** Streams with a framing header (and a fault), reads until 300 ms pass without a byte, leaves it open. */
    async function framed(headers: Record<string, string>, messages = MESSAGES) {
      const ac = new AbortController();
      const res = await streamChat(messages, { headers, signal: ac.signal });
      const text = await readUntilQuiet(res, 300);
      return { raw: text, close: () => ac.abort(), ...reassemble(ssePayloads(text)) };
    }

    it('lines: one data: line per event, LF, no blank line, held open after [DONE]', async () => {
      const r = await framed({ 'x-fake-framing': 'lines' });
      assert.equal(r.raw.includes('\n\n'), false, 'no blank line');
      assert.equal(r.raw.includes('\r'), false, 'LF only');
      const lines = r.raw.split('\n').slice(0, -1);
      assert.ok(lines.every((l) => l.startsWith('data: ')));
      assert.ok(r.raw.endsWith('data: [DONE]\n'));
      assert.equal(r.done, true);
      assert.equal(r.raw, r.raw.slice(0, r.raw.indexOf('[DONE]') + 7), 'nothing after [DONE]');
      assert.equal(r.text, expected);
      const rec = fake.requests[0];
      assert.deepEqual([rec.framing, rec.endedAt], ['lines', undefined], 'still open after [DONE]');
      r.close();
      await fake.waitFor((x) => x.aborted);
    });

    it(`lines: ends the response by itself ${LINES_HOLD_MS} ms after [DONE]`, async function () {
      this.timeout(LINES_HOLD_MS + 5000);
      const started = Date.now();
      const res = await streamChat(MESSAGES, { headers: { 'x-fake-framing': 'lines' } });
      const { chunks, error } = await readChunks(res);
      assert.equal(error, undefined);
      assert.equal(reassemble(ssePayloads(decodeChunks(chunks))).text, expected);
      assert.ok(Date.now() - started >= LINES_HOLD_MS - 50, `ended after ${Date.now() - started} ms`);
      assert.equal((await fake.waitFor((x) => x.endedAt !== undefined)).completed, true);
    });

    it('lines combines with crlf, cr, comments and cut', async () => {
      const crlf = await framed({ 'x-fake-framing': 'lines', 'x-fake-fault': 'crlf' });
      assert.ok(crlf.raw.includes('}\r\ndata: ') && !crlf.raw.includes('\r\n\r\n'));
      const cr = await framed({ 'x-fake-framing': 'lines', 'x-fake-fault': 'cr' });
      assert.ok(cr.raw.includes('}\rdata: ') && !cr.raw.includes('\r\r') && !cr.raw.includes('\n'));
      const comments = await framed({ 'x-fake-framing': 'lines', 'x-fake-fault': 'comments' });
      assert.ok(comments.raw.includes(': keep-alive\nevent: message\nid: 1\ndata: ') && !comments.raw.includes('\n\n'));
      for (const r of [crlf, cr, comments]) {
        assert.equal(r.done, true);
        assert.equal(r.text, expected);
        r.close();
      }
      const cut = await streamWithFault('cut', [{ role: 'user', content: 'Tell me about caching #framing:lines' }]);
      assert.ok(cut.error, 'the cut still cuts');
      assert.equal(cut.done, false);
      assert.equal(cut.rawText.includes('\n\n'), false);
    });

    it('ndjson: JSON lines as Ollama streams, no data:, no [DONE], typed application/x-ndjson, ended by itself', async () => {
      const res = await streamChat(MESSAGES, {
        headers: { 'x-fake-framing': 'ndjson', 'x-fake-fault': 'chunks:ollama' },
      });
      assert.equal(res.headers.get('content-type'), 'application/x-ndjson');
      const { chunks, error } = await readChunks(res);
      assert.equal(error, undefined);
      const raw = decodeChunks(chunks);
      assert.ok(raw.endsWith('\n') && !raw.includes('data:') && !raw.includes('[DONE]') && !raw.includes('\n\n'));
      const lines = raw
        .split('\n')
        .slice(0, -1)
        .map((line) => JSON.parse(line) as { message: { content: string }; done: boolean });
      assert.equal(lines.map((line) => line.message.content).join(''), expected);
      assert.deepEqual(
        lines.map((line) => line.done),
        [...lines.slice(1).map(() => false), true],
        'done only on the last line',
      );
      assert.equal((await fake.waitFor((x) => x.endedAt !== undefined)).framing, 'ndjson');
    });

    it('is chosen by header, then #framing:NAME, then the service-wide setting; unknown ones are refused', async () => {
      const directive = await framed({}, [{ role: 'user', content: 'hello #framing:lines' }]);
      assert.equal(directive.raw.includes('\n\n'), false);
      directive.close();
      fake.setFraming('lines');
      try {
        const serviceWide = await framed({});
        assert.equal(serviceWide.raw.includes('\n\n'), false);
        serviceWide.close();
        const header = await framed({ 'x-fake-framing': 'standard' });
        assert.equal(header.raw.includes('\n\n'), true);
        assert.equal(header.done, true);
      } finally {
        fake.setFraming('standard');
      }
      assert.equal((await streamChat(MESSAGES, { headers: { 'x-fake-framing': 'blank' } })).status, 400);
      assert.throws(() => fake.setFraming('blank' as 'lines'), /Unknown fake framing/);
    });
  });

  describe('status faults', () => {
    const endpoints: [string, () => Promise<Response>, (h: Record<string, string>) => Promise<Response>][] = [
      ['chat stream', () => streamChat(MESSAGES), (h) => streamChat(MESSAGES, { headers: h })],
      ['search', () => axo('search', { q: 'x' }), (h) => axo('search', { q: 'x' }, { headers: h })],
    ];
    for (const fault of STATUS_FAULTS) {
      it(`${fault}: every body kind, on chat and encyclopedia`, async () => {
        const status = Number(fault.slice(0, 3));
        for (const [name, , call] of endpoints) {
          for (const kind of STATUS_BODY_KINDS) {
            const res = await call({ 'x-fake-fault': `${fault}:${kind}` });
            const what = `${name} ${fault}:${kind}`;
            assert.equal(res.status, status, what);
            assert.equal(res.headers.get('retry-after'), fault === '429' ? '2' : null, what);
            checkBodyKind(kind, res.headers.get('content-type') ?? '', await res.text(), what);
          }
        }
      });
    }

    it('defaults to a JSON body, and 502:html is the classic gateway page', async () => {
      const json = await chat({ model: 'alpha', messages: MESSAGES }, { headers: { 'x-fake-fault': '503' } });
      assert.equal(json.status, 503);
      const body = (await json.json()) as { error: { message: string; code: string } };
      assert.equal(typeof body.error.message, 'string');
      const html = await axo('ask', { q: 'x' }, { headers: { 'x-fake-fault': '502:html' } });
      assert.equal(await html.text(), '<!DOCTYPE html><html><body><h1>502 Bad Gateway</h1></body></html>');
    });
  });

  function checkBodyKind(kind: string, type: string, body: string, what: string): void {
    const json = () => JSON.parse(body) as Record<string, unknown>;
    switch (kind) {
      case 'html':
        assert.match(type, /^text\/html/, what);
        assert.match(body, /^<!DOCTYPE html><html><body><h1>\d{3} [A-Za-z ]+<\/h1><\/body><\/html>$/, what);
        break;
      case 'empty':
        assert.equal(body, '', what);
        break;
      case 'text':
        assert.match(type, /^text\/plain/, what);
        assert.ok(body.length > 0, what);
        break;
      case 'message':
      case 'detail':
        assert.equal(typeof json()[kind], 'string', what);
        break;
      case 'string':
        assert.equal(typeof json().error, 'string', what);
        break;
      default: {
        assert.equal(type, 'application/json', what);
        const error = json().error as { message: unknown; code: unknown };
        assert.equal(typeof error.message, 'string', what);
        assert.equal(typeof error.code, 'string', what);
      }
    }
  }

  describe('other faults', () => {
    it('bad-json and non-json answer 200 with a body that is not JSON', async () => {
      for (const call of [() => axo('ask', { q: 'Alan Turing' }), () => chat({ model: 'alpha', messages: MESSAGES })]) {
        fake.setFault('bad-json');
        const bad = await call();
        assert.equal(bad.status, 200);
        assert.equal(bad.headers.get('content-type'), 'application/json');
        const text = await bad.text();
        assert.ok(text.length > 0);
        assert.throws(() => JSON.parse(text));
        fake.setFault('non-json');
        const html = await call();
        assert.equal(html.status, 200);
        assert.match(html.headers.get('content-type') ?? '', /^text\/html/);
        assert.match(await html.text(), /^<!DOCTYPE html>/);
      }
    });

    it('cut and stall on a JSON body: half the body, then a broken or silent connection', async () => {
      fake.setFault('cut');
      const cut = await readChunks(await axo('search', { q: 'Turing' }));
      assert.ok(cut.error);
      const ac = new AbortController();
      fake.setFault('stall');
      const stalled = await readUntilQuiet(await axo('search', { q: 'Turing' }, { signal: ac.signal }), 300);
      assert.ok(stalled.startsWith('{"results":'));
      ac.abort();
      await fake.waitFor((r) => r.aborted);
    });

    it('redirect: 302 (GET) or 307 (POST) to the same path, which then answers without the fault', async () => {
      const manual = await axo(
        'search',
        { q: 'Tom & Jerry' },
        { headers: { 'x-fake-fault': 'redirect' }, redirect: 'manual' },
      );
      assert.equal(manual.status, 302);
      const location = manual.headers.get('location') ?? '';
      assert.equal(new URL(location, fake.url).searchParams.get('q'), 'Tom & Jerry');
      assert.ok(location.startsWith('/v1/axo/search?'));
      fake.setFault('redirect');
      const followed = await axo('search', { q: 'Tom & Jerry' });
      assert.equal(followed.status, 200);
      const post = await chat({ model: 'alpha', messages: [{ role: 'user', content: '#echo hi #fault:redirect' }] });
      assert.equal(post.status, 200);
      assert.equal(
        ((await post.json()) as { message: { content: string } }).message.content,
        '#echo hi #fault:redirect',
      );
      const statuses = fake.requests.map((r) => `${r.status} ${r.fault ?? '-'} ${r.query[NO_FAULT_PARAM] ?? '-'}`);
      assert.deepEqual(statuses, ['302 redirect -', '302 redirect -', '200 - 1', '307 redirect -', '200 - 1']);
    });

    it('redirect-other-origin: points at the second listener, which records whether a key arrived', async () => {
      const res = await axo(
        'ask',
        { q: 'Turing' },
        { headers: { 'x-fake-fault': 'redirect-other-origin' }, redirect: 'manual' },
      );
      assert.equal(res.status, 302);
      const location = res.headers.get('location') ?? '';
      assert.ok(location.startsWith(`${fake.otherOriginUrl}/v1/axo/ask?`));
      assert.notEqual(fake.otherOriginUrl, fake.url);
      assert.equal((await fetch(location)).status, 401);
      await fetch(location, { headers: { authorization: 'Bearer leaked' } });
      assert.deepEqual(fake.otherOriginRequests, [
        { path: '/v1/axo/ask', authorization: false },
        { path: '/v1/axo/ask', authorization: true },
      ]);
      const listed = await fetch(`${fake.url}/__fake/other-origin-requests`);
      assert.equal(((await listed.json()) as unknown[]).length, 2);
    });

    it('stall-headers holds any endpoint; slow-headers answers normally after 1.5 s', async function () {
      this.timeout(5000);
      await assert.rejects(
        axo(
          'article',
          { title: 'TypeScript' },
          { headers: { 'x-fake-fault': 'stall-headers' }, signal: AbortSignal.timeout(200) },
        ),
      );
      const started = Date.now();
      const res = await axo('article', { title: 'TypeScript' }, { headers: { 'x-fake-fault': 'slow-headers' } });
      assert.ok(Date.now() - started >= 1400);
      assert.equal(res.status, 200);
      assert.equal(((await res.json()) as { title: string }).title, 'TypeScript');
    });
  });

  describe('fault sources', () => {
    it('queues faults by path prefix and consumes them `times` times', async () => {
      fake.setFault('503', { path: '/v1/axo' });
      assert.equal((await chat({ model: 'alpha', messages: MESSAGES })).status, 200, 'other path: not consumed');
      assert.equal((await axo('search', { q: 'x' })).status, 503);
      assert.equal((await axo('search', { q: 'x' })).status, 200);
      fake.setFault('500', { times: 2 });
      const statuses = [];
      for (let i = 0; i < 3; i++) {
        statuses.push((await axo('ask', { q: 'x' })).status);
      }
      assert.deepEqual(statuses, [500, 500, 200]);
      fake.setFault('500');
      fake.reset();
      assert.equal((await axo('ask', { q: 'x' })).status, 200, 'reset clears the queue');
    });

    it('rejects unknown faults instead of ignoring them', async () => {
      assert.throws(() => fake.setFault('50O'), /Unknown fake fault/);
      assert.throws(() => fake.setFault('500', { times: 0 }), /times/);
      const res = await axo('search', { q: 'x #fault:typo' });
      assert.equal(res.status, 400);
      assert.match(((await res.json()) as { error: { message: string } }).error.message, /typo/);
    });

    it('prefers the header over a #fault directive over the queue', async () => {
      fake.setFault('500');
      const res = await axo('search', { q: 'Turing #fault:404' }, { headers: { 'x-fake-fault': '403' } });
      assert.equal(res.status, 403);
      assert.equal((await axo('search', { q: 'Turing #fault:404' })).status, 404);
      assert.equal((await axo('search', { q: 'Turing' })).status, 500);
      assert.deepEqual(
        fake.requests.map((r) => r.fault),
        ['403', '404', '500'],
      );
    });

    it('reads #fault:MODE from the last user message, and from q or title with the directive stripped', async () => {
      const res = await chat({ model: 'alpha', messages: [{ role: 'user', content: 'hello #fault:429' }] });
      assert.equal(res.status, 429);
      assert.equal(res.headers.get('retry-after'), '2');
      const ask = await axo('ask', { q: 'Alan Turing #fault:shape:text' });
      assert.deepEqual(((await ask.json()) as { citations: string[] }).citations, [CORPUS[0].url]);
      const article = await axo('article', { title: 'C# (language) #fault:shape:extract' });
      const body = (await article.json()) as Record<string, unknown>;
      assert.equal(body.title, 'C# (language)');
      assert.equal(typeof body.extract, 'string');
      assert.equal(body.content, undefined);
    });
  });

  describe('control endpoints', () => {
    it('queues faults, lists requests (not its own), and resets, over HTTP', async () => {
      const post = (route: string, body?: unknown) =>
        fetch(`${fake.url}/__fake/${route}`, {
          method: 'POST',
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      assert.equal((await post('fault', { fault: '502:html', path: '/v1/alpha', times: 1 })).status, 200);
      assert.equal((await post('fault', { path: '/v1/alpha' })).status, 400);
      assert.equal((await post('fault', { fault: '500', times: 0 })).status, 400);
      assert.equal((await post('fault', { fault: 'no-such-fault' })).status, 400);
      assert.equal((await axo('search', { q: 'x' })).status, 200);
      const res = await chat({ model: 'alpha', messages: MESSAGES });
      assert.equal(res.status, 502);
      const listed = (await (await fetch(`${fake.url}/__fake/requests`)).json()) as { path: string; status: number }[];
      assert.deepEqual(
        listed.map((r) => `${r.path} ${r.status}`),
        ['/v1/axo/search 200', '/v1/alpha 502'],
      );
      assert.equal((await post('reset')).status, 200);
      assert.deepEqual(fake.requests, []);
      assert.equal((await fetch(`${fake.url}/__fake/nothing`)).status, 404);
    });

    it('waitFor resolves with past or future requests and rejects after its timeout', async () => {
      await axo('search', { q: 'x' });
      assert.equal((await fake.waitFor((r) => r.path === '/v1/axo/search')).status, 200);
      const later = fake.waitFor((r) => r.path === '/v1/axo/ask' && r.completed);
      await axo('ask', { q: 'Turing' });
      assert.equal((await later).query.q, 'Turing');
      await assert.rejects(
        fake.waitFor((r) => r.path === '/never', 50),
        /timed out/,
      );
    });
  });

  describe('encyclopedia', () => {
    it('answers ask from the best article, in every shape, for every model', async () => {
      const res = await axo('ask', { q: 'who was alan turing', model: 'axo' });
      const body = (await res.json()) as { answer: string; model: string; sources: { title: string; url: string }[] };
      assert.ok(body.answer.includes('English mathematician'));
      assert.equal(body.model, 'axo');
      assert.deepEqual(body.sources[0], { title: 'Alan Turing', url: 'https://axo.example/wiki/Alan_Turing' });
      for (const model of ['axo.1', 'axo.2']) {
        assert.equal((await axo('ask', { q: 'Turing', model })).status, 200);
      }
      const unknown = await axo('ask', { q: 'Turing', model: 'axo.9' });
      assert.equal(unknown.status, 404);
      assert.match(((await unknown.json()) as { error: { message: string } }).error.message, /axo\.9/);
      assert.equal((await axo('ask', { q: '  ' })).status, 400);
      assert.equal((await axo('ask', {})).status, 400);
      assert.deepEqual(await (await axo('ask', { q: 'zzzz qqqq' })).json(), { answer: '', model: 'axo', sources: [] });
      const text = (await (
        await axo('ask', { q: 'Turing' }, { headers: { 'x-fake-shape': 'text' } })
      ).json()) as object;
      assert.deepEqual(Object.keys(text), ['text', 'citations']);
      const content = (await (
        await axo('ask', { q: 'Turing' }, { headers: { 'x-fake-shape': 'content' } })
      ).json()) as object;
      assert.deepEqual(Object.keys(content), ['content', 'references']);
      const summary = (await (
        await axo('ask', { q: 'Turing' }, { headers: { 'x-fake-shape': 'summary' } })
      ).json()) as object;
      assert.deepEqual(Object.keys(summary), ['summary']);
    });

    it('reads + as a space in query strings', async () => {
      const res = await fetch(`${fake.url}/v1/axo/search?q=alan+turing`, {
        headers: { authorization: `Bearer ${fake.axoKey}` },
      });
      const body = (await res.json()) as { results: { title: string }[] };
      assert.equal(body.results[0].title, 'Alan Turing');
      assert.equal(fake.requests[0].query.q, 'alan turing');
    });

    it('searches best first, at most 10, empty when nothing matches, in every shape', async () => {
      const body = (await (await axo('search', { q: 'programming language Microsoft' })).json()) as {
        results: { title: string; snippet: string; url: string }[];
      };
      assert.ok(body.results.length >= 2 && body.results.length <= 10);
      assert.deepEqual(body.results.map((r) => r.title).sort(), ['C# (language)', 'TypeScript']);
      body.results.forEach((r) => assert.ok(r.snippet && r.url.startsWith('https://axo.example/wiki/')));
      assert.deepEqual(await (await axo('search', { q: 'nothing-like-this' })).json(), { results: [] });
      assert.ok(
        Array.isArray(await (await axo('search', { q: 'Turing' }, { headers: { 'x-fake-shape': 'array' } })).json()),
      );
      for (const shape of ['items', 'hits']) {
        const v = (await (
          await axo('search', { q: 'Turing' }, { headers: { 'x-fake-shape': shape } })
        ).json()) as object;
        assert.deepEqual(Object.keys(v), [shape]);
      }
      assert.equal((await axo('search', {})).status, 400);
    });

    it('returns articles, with facts only on facts=1, in every facts shape', async () => {
      const plain = (await (await axo('article', { title: 'Alan Turing' })).json()) as Record<string, unknown>;
      assert.deepEqual(Object.keys(plain), ['title', 'summary', 'content', 'url', 'media']);
      const withFacts = (await (await axo('article', { title: 'Alan Turing', facts: '1' })).json()) as {
        facts: Record<string, string>;
      };
      assert.equal(withFacts.facts.Born, '23 June 1912');
      for (const [shape, key] of [
        ['facts-array', 'name'],
        ['facts-label', 'label'],
        ['facts-key', 'key'],
      ]) {
        const res = await axo('article', { title: 'Alan Turing', facts: '1' }, { headers: { 'x-fake-shape': shape } });
        const facts = ((await res.json()) as { facts: Record<string, string>[] }).facts;
        assert.deepEqual(facts[0], { [key]: 'Born', value: '23 June 1912' });
      }
      const both = await axo(
        'article',
        { title: 'Alan Turing', facts: '1' },
        { headers: { 'x-fake-shape': 'extract,facts-key' } },
      );
      const v = (await both.json()) as { extract?: string; facts: unknown[] };
      assert.ok(v.extract && Array.isArray(v.facts));
      const missing = await axo('article', { title: 'Nope' });
      assert.equal(missing.status, 404);
      assert.match(((await missing.json()) as { error: { message: string } }).error.message, /^No article titled/);
    });
  });

  describe('corpus', () => {
    it('has about ten articles with awkward titles, 6–12 facts and media', () => {
      const titles = CORPUS.map((a) => a.title);
      for (const t of ['AC/DC', 'Who? What? (album)', 'C# (language)', 'Tom & Jerry', '東京', 'Αθήνα', 'Café Zürich']) {
        assert.ok(titles.includes(t), t);
      }
      assert.ok(CORPUS.length >= 10);
      for (const a of CORPUS) {
        assert.ok(a.facts.length >= 6 && a.facts.length <= 12, a.title);
        assert.ok(a.media.length >= 1 && a.url.startsWith('https://axo.example/wiki/'));
      }
      assert.ok(CORPUS.some((a) => a.facts.some(([, v]) => /\p{Extended_Pictographic}/u.test(v))));
    });

    it('round-trips every title through URL encoding (article, search, and the article URL)', async () => {
      for (const a of CORPUS) {
        const encoded = await fetch(`${fake.url}/v1/axo/article?title=${encodeURIComponent(a.title)}&facts=1`, {
          headers: { authorization: `Bearer ${fake.axoKey}` },
        });
        const body = (await encoded.json()) as { title: string; url: string; facts: object };
        assert.equal(body.title, a.title);
        assert.equal(Object.keys(body.facts).length, a.facts.length);
        assert.equal(((await (await axo('article', { title: a.title })).json()) as { title: string }).title, a.title);
        const search = (await (await axo('search', { q: a.title })).json()) as { results: { title: string }[] };
        assert.equal(search.results[0].title, a.title, `search ${a.title}`);
        const last = new URL(body.url).pathname.split('/').pop() ?? '';
        assert.equal(decodeURIComponent(last).replace(/_/g, ' '), a.title);
      }
    });
  });

  describe('CLI', () => {
    it('prints its URL and keys as one JSON line and stops on SIGTERM', async () => {
      const cli = path.join(outRoot, 'test', 'fakeService', 'cli.js');
      const child = spawn(process.execPath, [cli, '--port', '0', '--chat-key', 'fkc_cli_1'], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      try {
        const line = await new Promise<string>((resolve, reject) => {
          let out = '';
          child.stdout.on('data', (d: Buffer) => {
            out += d.toString();
            if (out.includes('\n')) {
              resolve(out.split('\n')[0]);
            }
          });
          child.on('exit', () => reject(new Error(`exited early: ${out}`)));
        });
        const info = JSON.parse(line) as { url: string; chatKey: string; axoKey: string };
        assert.deepEqual([info.chatKey, info.axoKey], ['fkc_cli_1', DEFAULT_AXO_KEY]);
        const res = await fetch(`${info.url}/v1/alpha`, {
          method: 'POST',
          headers: { authorization: 'Bearer fkc_cli_1', 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'alpha', messages: MESSAGES }),
        });
        assert.equal(res.status, 200);
      } finally {
        child.kill('SIGTERM');
      }
      assert.equal(await exited, 0);
    });
  });
});
