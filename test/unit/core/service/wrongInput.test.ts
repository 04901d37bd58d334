import * as assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AlphaClient, type ChatMessage } from '../../../../src/core/service/alphaClient';
import { AxoClient } from '../../../../src/core/service/axoClient';
import { fitToBudget } from '../../../../src/core/chat/request/contextBudget';
import { newConversation, newId, titleFor } from '../../../../src/core/chat/conversation/conversation';
import { ConversationStore } from '../../../../src/core/chat/store/conversationStore';
import { contextTokensOf } from '../../../../src/core/chat/request/modelLineup';
import { requestMessages } from '../../../../src/core/chat/request/promptMessages';
import type { KeyKind } from '../../../../src/core/service/errors';
import { HttpClient, type HttpRequest } from '../../../../src/core/net/http';
import type { HttpResponse } from '../../../../src/core/net/responseBody';
import { silentLogger } from '../../../../src/core/logger';
import { startFakeService, type FakeService } from '../../../fakeService/fakeService';
import { expectServiceError } from '../../../support/serviceError';

/** The real HTTP client, keeping every URL it is asked to send to (as sent: the raw query string). */
class RecordingHttp extends HttpClient {
  readonly urls: URL[] = [];

  override send(req: HttpRequest): Promise<HttpResponse> {
    this.urls.push(req.url);
    return super.send(req);
  }
}

interface Clients {
  alpha: AlphaClient;
  axo: AxoClient;
  http: RecordingHttp;
}

function clients(fake: FakeService, baseUrl: string = fake.url): Clients {
  const http = new RecordingHttp(() => ({ timeoutMs: 10_000, proxy: { strictSSL: true, noProxy: [] } }), silentLogger);
  const keys: Record<KeyKind, string> = { chat: fake.chatKey, encyclopedia: fake.axoKey };
  const ctx = { http, baseUrl: () => baseUrl, keys: async (k: KeyKind) => keys[k], log: silentLogger };
  return {
    alpha: new AlphaClient(ctx, () => 10_000),
    axo: new AxoClient(ctx, { attempts: 1, baseDelayMs: 10, maxDelayMs: 10, budgetMs: 10 }),
    http,
  };
}

async function streamAll(alpha: AlphaClient, messages: ChatMessage[]): Promise<string> {
  let text = '';
  for await (const delta of alpha.stream({ model: 'alpha', messages })) {
    text += delta;
  }
  return text;
}

/** `n` characters of prompt text mixing ASCII, accents, CJK and emoji (surrogate pairs stay whole). */
function bigPrompt(n: number): string {
  const unit = 'Explain this code, café 東京 👍🏽 and `x < y && z`.\n';
  let text = '';
  while (text.length + unit.length <= n) {
    text += unit;
  }
  return text + 'x'.repeat(n - text.length);
}

describe('wrong input', function () {
  this.timeout(30_000);
  let fake: FakeService;
  let c: Clients;

  before(async () => {
    fake = await startFakeService({ tokenDelayMs: 0 });
  });
  after(async () => fake.close());
  beforeEach(() => {
    fake.reset();
    c = clients(fake);
  });
  afterEach(async () => c.http.dispose());

  describe('an empty prompt', () => {
    for (const [name, content] of [
      ['an empty', ''],
      ['a white-space-only', '  \n\t \r\n '],
    ] as const) {
      it(`refuses ${name} prompt with a clear message and sends nothing (stream and complete)`, async () => {
        const streamed = await expectServiceError(streamAll(c.alpha, [{ role: 'user', content }]));
        const completed = await expectServiceError(
          c.alpha.complete({ model: 'alpha', messages: [{ role: 'user', content }] }),
        );
        for (const error of [streamed, completed]) {
          assert.equal(error.kind, 'badRequest');
          assert.match(error.message, /Type a message first: it is empty/);
        }
        const none = await expectServiceError(c.alpha.complete({ model: 'alpha', messages: [] }));
        assert.equal(none.kind, 'badRequest');
        assert.equal(c.http.urls.length, 0);
        assert.equal(fake.requests.length, 0);
      });
    }

    it('gives a white-space-only prompt no title', () => {
      assert.equal(titleFor('   \n\t'), '');
    });
  });

  describe('a 1 MB prompt', () => {
    const MB = 1_000_000;

    it('is too large for ALPHA by the estimate (fitToBudget marks it tooLarge) and is kept whole', () => {
      const prompt = bigPrompt(MB);
      const limit = contextTokensOf('alpha');
      const fit = fitToBudget(
        requestMessages([{ id: 'u', role: 'user', content: prompt, createdAt: 1 }]),
        limit,
        Math.min(8192, limit / 8),
      );
      assert.equal(fit.tooLarge, true);
      assert.ok(fit.tokens > limit, `${fit.tokens} tokens`);
      assert.equal(fit.messages.length, 1);
      assert.equal(fit.messages[0].content, prompt);
    });

    it('keeps the oldest turns out, not the 1 MB prompt, when earlier turns are dropped', () => {
      const prompt = bigPrompt(MB);
      const history = Array.from({ length: 10 }, (_, i) => ({
        id: `m${i}`,
        role: i % 2 ? ('assistant' as const) : ('user' as const),
        content: `turn ${i}`,
        createdAt: i,
        ...(i % 2 ? { status: 'done' as const } : {}),
      }));
      const fit = fitToBudget(
        requestMessages([...history, { id: 'u', role: 'user', content: prompt, createdAt: 99 }]),
        200_000,
        8192,
      );
      assert.equal(fit.dropped, 10);
      assert.equal(fit.messages.at(-1)?.content, prompt);
    });

    it('is saved and read back byte-exact with its conversation (nothing typed is lost)', async () => {
      const dir = await mkdtemp(join(tmpdir(), 'alpha-axo-wrong-input-'));
      try {
        const prompt = bigPrompt(MB);
        const conversation = newConversation();
        conversation.title = titleFor(prompt);
        conversation.messages.push({ id: newId(), role: 'user', content: prompt, createdAt: 1 });
        conversation.messages.push({
          id: newId(),
          role: 'assistant',
          content: '',
          createdAt: 2,
          status: 'error',
          error: { kind: 'tooLarge', message: 'This message is too long.', action: 'retry', at: 2 },
        });
        await new ConversationStore(dir, silentLogger).save(conversation);
        const loaded = await new ConversationStore(dir, silentLogger).load(conversation.id);
        assert.equal(loaded?.messages[0].content, prompt);
        assert.equal(loaded?.messages[1].error?.kind, 'tooLarge');
        assert.equal(loaded?.title, 'Explain this code, café 東京 👍🏽 and `x < y && z`.');
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });

    it('reaches the service whole when sent (1,000,000 characters echoed back exactly)', async () => {
      const prompt = `#echo ${'a'.repeat(MB - 6)}`;
      assert.equal(prompt.length, MB);
      const reply = await c.alpha.complete({ model: 'alpha', messages: [{ role: 'user', content: prompt }] });
      assert.equal(reply, prompt);
      const body = fake.requests[0].body as { messages: ChatMessage[] };
      assert.equal(body.messages[0].content, prompt);
    });

    it('gets a clear "too large" message when the service refuses it with 413', async () => {
      // 1,000,000 characters of three UTF-8 bytes each: 3 MB, over the fake's 2 MB limit.
      const prompt = '東'.repeat(MB);
      const error = await expectServiceError(streamAll(c.alpha, [{ role: 'user', content: prompt }]));
      assert.equal(error.kind, 'tooLarge');
      assert.match(error.message, /The request is too large for the service \(413/);
      assert.equal(fake.requests[0].status, 413);
    });
  });

  describe('a query of only spaces', () => {
    for (const query of ['', '   ', ' \t\n\r ', '\u0000\u0007 \u001b']) {
      it(`refuses ${JSON.stringify(query)} for ask, search and article with a clear message, sending nothing`, async () => {
        const ask = await expectServiceError(c.axo.ask(query, 'axo'));
        const search = await expectServiceError(c.axo.search(query));
        const article = await expectServiceError(c.axo.article(query));
        assert.match(ask.message, /Type a question first: it is empty\./);
        assert.match(search.message, /Type search terms first: it is empty\./);
        assert.match(article.message, /Type an article title first: it is empty\./);
        for (const e of [ask, search, article]) {
          assert.equal(e.kind, 'badRequest');
        }
        assert.equal(c.http.urls.length, 0);
        assert.equal(fake.requests.length, 0);
      });
    }

    it('refuses an empty encyclopedia model the same way', async () => {
      const error = await expectServiceError(c.axo.ask('Who was Alan Turing?', '  '));
      assert.match(error.message, /Type an encyclopedia model first/);
      assert.equal(fake.requests.length, 0);
    });
  });

  describe('control characters', () => {
    it('drops invisible control characters, keeps tab and line breaks percent-encoded, and trims', async () => {
      await c.axo.search('  Alan\u0000 Tur\u0007ing\u001b\u007f\tand\nhis\r\nmachine  ');
      const url = c.http.urls[0];
      assert.equal(url.search, '?q=Alan%20Turing%09and%0Ahis%0D%0Amachine');
      assert.equal(fake.requests[0].query.q, 'Alan Turing\tand\nhis\r\nmachine');
    });

    it('sends C1 controls and line separators as their UTF-8 percent-encoding, never raw', async () => {
      await c.axo.ask('a\u0085b\u2028c', 'axo');
      const raw = c.http.urls[0].href;
      assert.ok(raw.includes('q=a%C2%85b%E2%80%A8c'), raw);
      assert.ok(!/[\u0000-\u001f\u007f-\u009f\u2028]/.test(raw), raw);
      assert.equal(fake.requests[0].query.q, 'a\u0085b\u2028c');
    });

    it('cleans a title the same way before it is sent', async () => {
      await c.axo.article('\u0001Alan\u0000 Turing\u0007').catch(() => undefined);
      assert.equal(c.http.urls[0].search, '?title=Alan%20Turing&facts=1');
      assert.equal(fake.requests[0].query.title, 'Alan Turing');
    });
  });

  describe('titles and queries with reserved and non-Latin characters', () => {
    const title = 'AC/DC? Tom & Jerry #1 = 50% C++ 東京 Ελληνικά Москва עברית';

    it('percent-encodes an article title, spaces as %20 (the spec shows + only for ask)', async () => {
      await c.axo.article(title).catch(() => undefined);
      assert.equal(
        c.http.urls[0].search,
        '?title=AC%2FDC%3F%20Tom%20%26%20Jerry%20%231%20%3D%2050%25%20C%2B%2B%20' +
          '%E6%9D%B1%E4%BA%AC%20%CE%95%CE%BB%CE%BB%CE%B7%CE%BD%CE%B9%CE%BA%CE%AC%20' +
          '%D0%9C%D0%BE%D1%81%D0%BA%D0%B2%D0%B0%20%D7%A2%D7%91%D7%A8%D7%99%D7%AA&facts=1',
      );
      assert.equal(c.http.urls[0].pathname, '/v1/axo/article');
      assert.deepEqual(fake.requests[0].query, { title, facts: '1' });
    });

    it('percent-encodes search terms, spaces as %20', async () => {
      await c.axo.search(title);
      assert.ok(c.http.urls[0].search.startsWith('?q=AC%2FDC%3F%20Tom%20%26%20Jerry%20%231%20'), c.http.urls[0].search);
      assert.equal(fake.requests[0].query.q, title);
    });

    it('writes the spaces of an ask query as +, as the spec shows, and a literal + as %2B', async () => {
      await c.axo.ask(title, 'axo');
      const search = c.http.urls[0].search;
      assert.ok(search.startsWith('?model=axo&q=AC%2FDC%3F+Tom+%26+Jerry+%231+%3D+50%25+C%2B%2B+'), search);
      assert.ok(!search.includes('%20'), search);
      assert.deepEqual(fake.requests[0].query, { model: 'axo', q: title });
    });

    it('finds the article the fake holds under a title with / and & (round trip)', async () => {
      const article = await c.axo.article('AC/DC');
      assert.equal(article.title, 'AC/DC');
    });
  });

  describe('a malformed alphaAxo.baseUrl', () => {
    for (const [raw, pattern] of [
      ['', /No service URL is set\. Set "alphaAxo\.baseUrl"/],
      ['not a url', /The service URL "not a url" in "alphaAxo\.baseUrl" is not a valid URL\./],
      ['http://', /"http:\/\/" in "alphaAxo\.baseUrl" is not a valid URL/],
      ['127.0.0.1:8787', /"127\.0\.0\.1:8787" in "alphaAxo\.baseUrl" is not a valid URL/],
      ['http://exa mple.com', /in "alphaAxo\.baseUrl" is not a valid URL/],
      ['localhost:8787', /"localhost:8787" in "alphaAxo\.baseUrl" must start with http:\/\/ or https:\/\//],
      ['ftp://example.com', /in "alphaAxo\.baseUrl" must start with http:\/\/ or https:\/\/, not ftp:\/\//],
      ['https://user:secret@example.com', /"alphaAxo\.baseUrl" must not contain a user name or password/],
    ] as const) {
      it(`names the setting for ${JSON.stringify(raw)} on chat and encyclopedia, sending nothing`, async () => {
        const bad = clients(fake, raw);
        try {
          const chat = await expectServiceError(streamAll(bad.alpha, [{ role: 'user', content: 'Hello' }]));
          const lookup = await expectServiceError(bad.axo.search('Alan Turing'));
          for (const error of [chat, lookup]) {
            assert.equal(error.kind, 'config');
            assert.equal(error.action, 'openSettings');
            assert.match(error.message, pattern);
            assert.ok(!error.message.includes('secret'), error.message);
          }
          assert.equal(bad.http.urls.length, 0);
          assert.equal(fake.requests.length, 0);
        } finally {
          await bad.http.dispose();
        }
      });
    }
  });
});
