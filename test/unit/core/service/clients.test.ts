import * as assert from 'node:assert/strict';
import { AlphaClient, type ChatMessage } from '../../../../src/core/service/alphaClient';
import { AxoClient } from '../../../../src/core/service/axoClient';
import { ServiceError, type KeyKind } from '../../../../src/core/service/errors';
import { HttpClient } from '../../../../src/core/net/http';
import type { Logger } from '../../../../src/core/logger';
import { CHAT_SHAPES } from '../../../fakeService/chatHandler';
import { chatReply } from '../../../fakeService/chatContent';
import { CHUNK_FORMS } from '../../../fakeService/faults';
import { startFakeService, type FakeService } from '../../../fakeService/fakeService';
import { expectServiceError } from '../../../support/serviceError';

interface Setup {
  alpha: AlphaClient;
  axo: AxoClient;
  lines: string[];
  http: HttpClient;
}

/** Every log line of every client in this file, to check that no key is ever written. */
const allLines: string[] = [];

function setup(
  fake: FakeService,
  options: { timeoutMs?: number; baseUrl?: string; keys?: Partial<Record<KeyKind, string>> } = {},
): Setup {
  const lines: string[] = [];
  const push = (m: string) => {
    lines.push(m);
    allLines.push(m);
  };
  const log: Logger = { trace: push, debug: push, info: push, warn: push, error: push };
  const http = new HttpClient(
    () => ({ timeoutMs: options.timeoutMs ?? 5000, proxy: { strictSSL: true, noProxy: [] } }),
    log,
  );
  const keys = options.keys ?? { chat: fake.chatKey, encyclopedia: fake.axoKey };
  const ctx = { http, baseUrl: () => options.baseUrl ?? fake.url, keys: async (k: KeyKind) => keys[k], log };
  return {
    alpha: new AlphaClient(ctx, () => options.timeoutMs ?? 5000),
    axo: new AxoClient(ctx, { attempts: 3, baseDelayMs: 20, maxDelayMs: 3000, budgetMs: 5000 }),
    lines,
    http,
  };
}

const messages = (content: string): ChatMessage[] => [{ role: 'user', content }];

async function streamAll(alpha: AlphaClient, msgs: ChatMessage[], signal?: AbortSignal) {
  let text = '';
  let deltas = 0;
  try {
    for await (const delta of alpha.stream({ model: 'alpha', messages: msgs }, signal)) {
      text += delta;
      deltas++;
    }
    return { text, deltas };
  } catch (error) {
    assert.ok(error instanceof ServiceError, String(error));
    return { text, deltas, error };
  }
}

describe('service clients against the fake service', function () {
  this.timeout(20_000);
  let fake: FakeService;
  let s: Setup;

  before(async () => {
    fake = await startFakeService({ tokenDelayMs: 1 });
  });
  after(async () => fake.close());
  beforeEach(() => {
    fake.reset();
    s = setup(fake);
  });
  afterEach(async () => s.http.dispose());

  describe('ALPHA streaming', () => {
    it('streams the reply byte-exact, in several deltas', async () => {
      const msgs = messages('Hello there');
      const { text, deltas, error } = await streamAll(s.alpha, msgs);
      assert.equal(error, undefined);
      assert.equal(text, chatReply(msgs));
      assert.ok(deltas > 3, `only ${deltas} deltas`);
      assert.equal(fake.requests[0].keyKind, 'chat');
      assert.deepEqual((fake.requests[0].body as { stream: boolean }).stream, true);
    });

    for (const mode of ['crlf', 'cr', 'bom', 'comments', 'no-space', 'no-content', 'done-then-more']) {
      it(`reads the whole reply with fault "${mode}"`, async () => {
        fake.setFault(mode, { path: '/v1/alpha' });
        const msgs = messages(`fault ${mode}`);
        const { text, error } = await streamAll(s.alpha, msgs);
        assert.equal(error, undefined);
        assert.equal(text, chatReply(msgs));
      });
    }

    for (const form of CHUNK_FORMS) {
      it(`reads the whole reply streamed in the chunks of other servers: ${form}`, async () => {
        fake.setFault(`chunks:${form}`, { path: '/v1/alpha' });
        const msgs = messages(`chunks ${form}`);
        const { text, error } = await streamAll(s.alpha, msgs);
        assert.equal(error, undefined);
        assert.equal(text, chatReply(msgs));
      });
    }

    it('skips an event with bad JSON, logs it and reads the rest', async () => {
      fake.setFault('bad-json', { path: '/v1/alpha' });
      const msgs = messages('bad json please');
      const { text, error } = await streamAll(s.alpha, msgs);
      assert.equal(error, undefined);
      assert.ok(text.length > chatReply(msgs).length / 2);
      assert.ok(
        s.lines.some((l) => /skipped an event was not valid JSON/.test(l)),
        s.lines.join('\n'),
      );
    });

    it('keeps the text of a cut stream and says it was cut off', async () => {
      fake.setFault('cut', { path: '/v1/alpha' });
      const msgs = messages('cut me');
      const { text, error } = await streamAll(s.alpha, msgs);
      assert.equal(error?.kind, 'cut');
      assert.match(error?.message ?? '', /cut off/);
      assert.ok(text.length > 0 && chatReply(msgs).startsWith(text));
    });

    it('reports an error event from the stream after keeping what came before', async () => {
      fake.setFault('error-event', { path: '/v1/alpha' });
      const { text, error } = await streamAll(s.alpha, messages('overload'));
      assert.equal(error?.kind, 'streamError');
      assert.match(error?.message ?? '', /overloaded/);
      assert.ok(text.length > 0);
    });

    for (const framing of ['standard', 'lines', 'ndjson']) {
      it(`reports an error event named "error" whose payload is only a message (${framing} framing)`, async () => {
        const msgs = messages(`named error #framing:${framing} #fault:error-event:named`);
        const { text, error } = await streamAll(s.alpha, msgs);
        assert.equal(error?.kind, 'streamError');
        assert.match(error?.message ?? '', /during the reply: The model is overloaded$/);
        assert.ok(text.length > 0 && chatReply(msgs).startsWith(text));
      });
    }

    it('times out a stalled stream, keeping the partial text', async () => {
      const quick = setup(fake, { timeoutMs: 400 });
      fake.setFault('stall', { path: '/v1/alpha' });
      const { text, error } = await streamAll(quick.alpha, messages('stall'));
      await quick.http.dispose();
      assert.equal(error?.kind, 'timeout');
      assert.match(error?.message ?? '', /stopped sending/);
      assert.ok(text.length > 0);
    });

    it('times out when no headers come', async () => {
      const quick = setup(fake, { timeoutMs: 400 });
      fake.setFault('stall-headers', { path: '/v1/alpha' });
      const { error } = await streamAll(quick.alpha, messages('stall headers'));
      await quick.http.dispose();
      assert.equal(error?.kind, 'timeout');
      assert.match(error?.message ?? '', /did not answer/);
    });

    it('reads a single 1,000,000-character event', async () => {
      fake.setFault('big-event', { path: '/v1/alpha' });
      const { text, error } = await streamAll(s.alpha, messages('big'));
      assert.equal(error, undefined);
      assert.ok(text.length >= 1_000_000);
    });

    it('aborts the request when the signal fires: quietly, keeping what arrived, seen by the service', async () => {
      fake.setFault('slow', { path: '/v1/alpha' });
      const controller = new AbortController();
      let text = '';
      for await (const delta of s.alpha.stream({ model: 'alpha', messages: messages('slow one') }, controller.signal)) {
        text += delta;
        controller.abort();
      }
      assert.ok(text.length > 0);
      const seen = await fake.waitFor((r) => r.path === '/v1/alpha' && r.aborted, 3000);
      assert.equal(seen.completed, false);
    });
  });

  describe('ALPHA streaming framed as the spec says: one data: line per event, no blank line', () => {
    it('streams deltas and completes at [DONE] while the service holds the connection open', async () => {
      const msgs = messages('Lines please #framing:lines');
      const started = Date.now();
      const { text, deltas, error } = await streamAll(s.alpha, msgs);
      const doneAfter = Date.now() - started;
      assert.equal(error, undefined);
      assert.equal(text, chatReply(msgs));
      assert.ok(deltas > 3, `only ${deltas} deltas`);
      assert.ok(doneAfter < 1500, `done ${doneAfter} ms after sending, the service holds the connection 3 s`);
      assert.equal(fake.requests[0].framing, 'lines');
      assert.equal(fake.requests[0].endedAt, undefined, 'the response was still open when the reply completed');
      const closed = await fake.waitFor((r) => r.aborted, 2000);
      const closedAfter = (closed.endedAt ?? 0) - started - doneAfter;
      assert.ok(closedAfter >= 150 && closedAfter < 1500, `closed ${closedAfter} ms after [DONE], not after ~200`);
    });

    for (const mode of ['crlf', 'cr', 'bom', 'comments', 'no-space', 'no-content', 'done-then-more', 'bad-json']) {
      it(`reads the whole reply with fault "${mode}"`, async () => {
        const msgs = messages(`lines ${mode} #framing:lines #fault:${mode}`);
        const started = Date.now();
        const { text, error } = await streamAll(s.alpha, msgs);
        assert.equal(error, undefined);
        assert.equal(text, chatReply(msgs));
        assert.ok(Date.now() - started < 1500, 'ends at [DONE]');
      });
    }

    it('keeps the text of a cut stream, and times out a stalled one', async () => {
      const cut = await streamAll(s.alpha, messages('lines cut #framing:lines #fault:cut'));
      assert.equal(cut.error?.kind, 'cut');
      assert.ok(cut.text.length > 0);
      const quick = setup(fake, { timeoutMs: 400 });
      const stalled = await streamAll(quick.alpha, messages('lines stall #framing:lines #fault:stall'));
      await quick.http.dispose();
      assert.equal(stalled.error?.kind, 'timeout');
      assert.ok(stalled.text.length > 0);
    });
  });

  describe('ALPHA streamed as JSON lines (application/x-ndjson, as Ollama streams)', () => {
    for (const form of ['spec', ...CHUNK_FORMS]) {
      it(`reads the whole reply, streamed, in the ${form} form`, async () => {
        const fault = form === 'spec' ? '' : ` #fault:chunks:${form}`;
        const msgs = messages(`ndjson ${form} #framing:ndjson${fault}`);
        const { text, deltas, error } = await streamAll(s.alpha, msgs);
        assert.equal(error, undefined);
        assert.equal(text, chatReply(msgs));
        assert.ok(deltas > 3, `only ${deltas} deltas`);
        assert.equal(fake.requests[0].framing, 'ndjson');
      });
    }

    for (const mode of ['crlf', 'cr', 'bom', 'comments', 'bad-json', 'no-content']) {
      it(`reads the whole reply with fault "${mode}"`, async () => {
        const msgs = messages(`ndjson ${mode} #framing:ndjson #fault:${mode}`);
        const { text, error } = await streamAll(s.alpha, msgs);
        assert.equal(error, undefined);
        assert.equal(text, chatReply(msgs));
      });
    }

    it('keeps the text of a cut stream and says it was cut off; reports an error line', async () => {
      const msgs = messages('ndjson cut #framing:ndjson #fault:cut');
      const cut = await streamAll(s.alpha, msgs);
      assert.equal(cut.error?.kind, 'cut');
      assert.ok(cut.text.length > 0 && chatReply(msgs).startsWith(cut.text));
      const failed = await streamAll(s.alpha, messages('ndjson error #framing:ndjson #fault:error-event'));
      assert.equal(failed.error?.kind, 'streamError');
      assert.ok(failed.text.length > 0);
    });
  });

  describe('ALPHA in one response', () => {
    for (const shape of CHAT_SHAPES) {
      it(`normalises the "${shape}" shape`, async () => {
        fake.setFault(`shape:${shape}`, { path: '/v1/alpha' });
        const msgs = messages(`shape ${shape}`);
        assert.equal(await s.alpha.complete({ model: 'alpha', messages: msgs }), chatReply(msgs));
      });
    }

    it('normalises the default shape', async () => {
      const msgs = messages('default shape');
      assert.equal(await s.alpha.complete({ model: 'alpha', messages: msgs }), chatReply(msgs));
    });
  });

  describe('errors', () => {
    it('names the chat key on 401 and never the encyclopedia key', async () => {
      const wrong = setup(fake, { keys: { chat: fake.axoKey, encyclopedia: fake.axoKey } });
      const e = await expectServiceError(wrong.alpha.complete({ model: 'alpha', messages: messages('hi') }));
      await wrong.http.dispose();
      assert.equal(e.kind, 'badKey');
      assert.equal(e.action, 'setChatKey');
      assert.match(e.message, /chat API key/);
      assert.equal(fake.requests[0].keyKind, 'axo');
      assert.equal(fake.requests[0].status, 401);
    });

    it('names the encyclopedia key on 401 from the encyclopedia', async () => {
      const wrong = setup(fake, { keys: { chat: fake.chatKey, encyclopedia: fake.chatKey } });
      const e = await expectServiceError(wrong.axo.search('turing'));
      await wrong.http.dispose();
      assert.equal(e.action, 'setEncyclopediaKey');
      assert.match(e.message, /encyclopedia API key/);
    });

    it('asks for a key that is missing, without a request', async () => {
      const none = setup(fake, { keys: {} });
      const e = await expectServiceError(none.alpha.complete({ model: 'alpha', messages: messages('hi') }));
      await none.http.dispose();
      assert.equal(e.kind, 'missingKey');
      assert.equal(fake.requests.length, 0);
    });

    const statusCases: [string, RegExp, string][] = [
      ['403', /not allowed.*403 Forbidden/, 'forbidden'],
      ['404', /404 Not Found/, 'notFound'],
      ['413', /too large.*413/, 'tooLarge'],
      ['429', /rate limiting.*Try again in 2 s/, 'rateLimited'],
      ['429-noretry', /rate limiting.*in a moment/, 'rateLimited'],
      ['500:json', /500 Internal Server Error.*The service said/, 'server'],
      ['500:html', /500 Internal Server Error/, 'server'],
      ['502:html', /502 Bad Gateway/, 'server'],
      ['502:empty', /502 Bad Gateway\)\. Try again later/, 'server'],
      ['503:text', /503 Service Unavailable/, 'server'],
      ['503:message', /503.*The service said/, 'server'],
      ['500:detail', /500.*The service said/, 'server'],
      ['500:string', /500.*The service said/, 'server'],
    ];
    for (const [fault, pattern, kind] of statusCases) {
      it(`maps ${fault} on chat to a clear sentence (${kind}), never [object Object]`, async () => {
        fake.setFault(fault, { path: '/v1/alpha' });
        const e = await expectServiceError(s.alpha.complete({ model: 'alpha', messages: messages('x') }));
        assert.equal(e.kind, kind);
        assert.match(e.message, pattern);
        assert.doesNotMatch(e.message, /object Object|<html|<body/i);
      });
    }

    // The fault matrix's server rows: every 5xx status with every body kind, on both endpoints.
    for (const status of ['500', '502', '503']) {
      for (const body of ['json', 'html', 'empty']) {
        it(`maps ${status} with ${body === 'json' ? 'a' : 'an'} ${body} body to a sentence naming the status, on chat and encyclopedia`, async () => {
          fake.setFault(`${status}:${body}`, { path: '/v1/alpha' });
          const chat = await expectServiceError(s.alpha.complete({ model: 'alpha', messages: messages('x') }));
          fake.setFault(`${status}:${body}`, { path: '/v1/axo', times: 10 });
          const axo = await expectServiceError(s.axo.search(`matrix ${status} ${body}`));
          for (const e of [chat, axo]) {
            assert.equal(e.kind, 'server');
            assert.equal(e.action, 'retry');
            assert.match(e.message, new RegExp(`\\b${status}\\b`));
            assert.doesNotMatch(e.message, /object Object|<html|<body|<!DOCTYPE/i);
          }
        });
      }
    }

    it('says when a JSON endpoint sends HTML or broken JSON', async () => {
      fake.setFault('non-json', { path: '/v1/axo' });
      const html = await expectServiceError(s.axo.search('turing'));
      assert.equal(html.kind, 'badResponse');
      assert.match(html.message, /not JSON/);
      fake.setFault('bad-json', { path: '/v1/axo' });
      const broken = await expectServiceError(s.axo.search('turing'));
      assert.match(broken.message, /not JSON/);
    });

    it('follows no redirect: nothing reaches the other origin, and the error names it', async () => {
      fake.setFault('redirect-other-origin', { path: '/v1/axo' });
      const e = await expectServiceError(s.axo.search('turing'));
      assert.equal(e.kind, 'config');
      assert.ok(e.message.includes(`tried to send the request on to ${fake.otherOriginUrl}/v1/axo`), e.message);
      assert.deepEqual(fake.otherOriginRequests, []);
    });

    it('refuses a redirect on the same origin too (the spec has none)', async () => {
      fake.setFault('redirect', { path: '/v1/axo' });
      const e = await expectServiceError(s.axo.search('turing'));
      assert.match(
        e.message,
        /answered 302 and tried to send the request on to http:\/\/127\.0\.0\.1:\d+\/v1\/axo\/search;/,
      );
    });

    it('sends no prompt on through a 307 of the chat endpoint', async () => {
      fake.setFault('redirect-other-origin', { path: '/v1/alpha' });
      const e = await expectServiceError(
        s.alpha.complete({ model: 'alpha', messages: [{ role: 'user', content: 'hi' }] }),
      );
      assert.equal(e.kind, 'config');
      assert.deepEqual(fake.otherOriginRequests, []);
    });
  });

  describe('AXO', () => {
    it('answers with citations', async () => {
      const answer = await s.axo.ask('Who was Alan Turing?', 'axo');
      assert.ok(answer.text.length > 0);
      assert.ok(answer.citations.length > 0);
      assert.equal(fake.requests[0].keyKind, 'axo');
      assert.equal(fake.requests[0].query.model, 'axo');
    });

    it('searches and opens an article with every fact', async () => {
      const results = await s.axo.search('Turing');
      assert.equal(results[0].title, 'Alan Turing');
      const article = await s.axo.article(results[0].title);
      assert.equal(article.title, 'Alan Turing');
      assert.ok(article.facts.length >= 6);
      assert.equal(fake.requests.at(-1)?.query.facts, '1');
    });

    for (const title of ['AC/DC', 'Tom & Jerry', 'C# (language)', '東京']) {
      it(`URL-encodes the title "${title}"`, async () => {
        const article = await s.axo.article(title);
        assert.equal(article.title, title);
        assert.equal(fake.requests.at(-1)?.query.title, title);
      });
    }

    it('refuses blank input before any request', async () => {
      const e = await expectServiceError(s.axo.ask('   \u0007  ', 'axo'));
      assert.equal(e.kind, 'badRequest');
      assert.equal(fake.requests.length, 0);
    });

    it('rejects an unknown model with a clear 404', async () => {
      const e = await expectServiceError(s.axo.ask('Turing', 'axo.9'));
      assert.equal(e.kind, 'notFound');
      assert.match(e.message, /axo\.9/);
    });

    it('retries 503 and 502 then succeeds', async () => {
      fake.setFault('503', { path: '/v1/axo', times: 1 });
      fake.setFault('502:html', { path: '/v1/axo', times: 1 });
      const results = await s.axo.search('Turing');
      assert.ok(results.length > 0);
      assert.equal(fake.requests.length, 3);
    });

    it('honours Retry-After on 429', async () => {
      fake.setFault('429', { path: '/v1/axo', times: 1 });
      const started = Date.now();
      await s.axo.search('Turing');
      assert.ok(Date.now() - started >= 1900, `waited ${Date.now() - started} ms`);
      assert.equal(fake.requests.length, 2);
    });

    it('gives up after the attempts and never retries a 401 or a chat request', async () => {
      fake.setFault('503', { path: '/v1/axo', times: 5 });
      await expectServiceError(s.axo.search('Turing'));
      assert.equal(fake.requests.length, 3);
      fake.reset();
      fake.setFault('401', { path: '/v1/axo', times: 5 });
      await expectServiceError(s.axo.search('Turing'));
      assert.equal(fake.requests.length, 1);
      fake.reset();
      fake.setFault('503', { path: '/v1/alpha', times: 5 });
      await expectServiceError(s.alpha.complete({ model: 'alpha', messages: messages('x') }));
      assert.equal(fake.requests.length, 1);
    });

    it('cancels a retry wait at once', async () => {
      fake.setFault('429', { path: '/v1/axo', times: 1 });
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 200);
      const started = Date.now();
      const e = await expectServiceError(s.axo.search('Turing', controller.signal));
      assert.equal(e.kind, 'aborted');
      assert.ok(Date.now() - started < 1500);
    });

    for (const suffix of ['', '/', '/v1', '/v1/']) {
      it(`works with the base URL written as "…${suffix}"`, async () => {
        const variant = setup(fake, { baseUrl: fake.url + suffix });
        const results = await variant.axo.search('Turing');
        await variant.http.dispose();
        assert.ok(results.length > 0);
        assert.equal(fake.requests[0].path, '/v1/axo/search');
      });
    }
  });

  describe('logs, after every other test', () => {
    it('never holds a key', () => {
      assert.ok(allLines.length > 50, `only ${allLines.length} log lines`);
      assert.ok(allLines.some((l) => l.includes('Authorization: Bearer ***')));
      assert.ok(allLines.every((l) => !l.includes(fake.chatKey) && !l.includes(fake.axoKey)));
    });
  });
});
