import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { EncyclopediaStore } from '../../../../src/core/encyclopedia/encyclopediaStore';
import { silentLogger } from '../../../../src/core/logger';
import { AXO_TOOL_NAMES, AXO_TOOL_SPECS } from '../../../../src/core/mcp/axoToolSpecs';
import { AxoToolRunner } from '../../../../src/core/mcp/axoToolRunner';
import { MAX_MCP_BODY_BYTES, startMcpHttpServer, type RunningMcpServer } from '../../../../src/core/mcp/mcpHttpServer';
import { HttpClient } from '../../../../src/core/net/http';
import { AxoClient } from '../../../../src/core/service/axoClient';
import type { ArticleToolStructured } from '../../../../src/core/encyclopedia/articleForTool';
import { LONG_SECTIONS } from '../../../fakeService/axoHandler';
import { startFakeService, type FakeService } from '../../../fakeService/fakeService';
import { outRoot } from '../../../support/repoRoot';

/** The text of a tool result. */
function textOf(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return content.map((part) => part.text ?? '').join('');
}

/** An in-memory runner as the extension host builds it: the encyclopedia's store, lookups for tools. */
function inHostRunner(fake: FakeService): { runner: AxoToolRunner; store: EncyclopediaStore; http: HttpClient } {
  const http = new HttpClient(() => ({ timeoutMs: 5000, proxy: { strictSSL: true, noProxy: [] } }), silentLogger);
  const axo = new AxoClient(
    {
      http,
      baseUrl: () => fake.url,
      keys: async (kind) => (kind === 'encyclopedia' ? fake.axoKey : undefined),
      log: silentLogger,
    },
    { attempts: 1, baseDelayMs: 0, maxDelayMs: 0, budgetMs: 0 },
  );
  const store = new EncyclopediaStore({ client: axo, ttlMs: () => 60_000 });
  const runner = new AxoToolRunner({
    lookup: (request, signal) => store.lookupForTool(request, signal),
    model: () => 'axo',
    keyAdvice: 'the command “AXO: Set Encyclopedia API Key”',
  });
  return { runner, store, http };
}

/** Lists the tools and calls each against the fake, as any MCP client would. */
async function checkTools(client: Client): Promise<void> {
  const { tools } = await client.listTools();
  assert.deepEqual(
    tools.map((tool) => tool.name),
    [...AXO_TOOL_NAMES],
  );
  for (const tool of tools) {
    const spec = AXO_TOOL_SPECS.find((s) => s.name === tool.name);
    assert.ok(spec);
    const property = (tool.inputSchema.properties as Record<string, { maxLength?: number }>)[spec.argument];
    assert.equal(property.maxLength, spec.maxLength, tool.name);
    assert.deepEqual(tool.inputSchema.required, [spec.argument]);
    assert.equal(tool.annotations?.readOnlyHint, true, tool.name);
    assert.equal(tool.annotations?.destructiveHint, false, tool.name);
    assert.equal(tool.description, spec.modelDescription);
  }
  const ask = textOf(await client.callTool({ name: 'axo_ask', arguments: { question: 'Who was Alan Turing?' } }));
  assert.match(ask, /English mathematician/);
  assert.match(ask, /\[1\] Alan Turing — https:\/\/axo\.example\/wiki\/Alan_Turing/);
  assert.match(ask, /About the article: Alan Turing/);
  const search = textOf(await client.callTool({ name: 'axo_search', arguments: { query: 'Turing' } }));
  assert.match(search, /^1\. Alan Turing — /m);
  const article = await client.callTool({ name: 'axo_article', arguments: { title: 'Alan Turing' } });
  assert.equal(article.isError, false);
  assert.match(textOf(article), /^# Alan Turing$/m);
  assert.match(textOf(article), /^\| Fact \| Value \|$/m);
}

/** The article the fake gives in 24 sections of about 900 characters: longer than one result holds. */
const LONG_TITLE = 'Alan Turing #fault:shape:long';

/**
 * Reads the long article as any MCP client would: its outline and first section, then one section by name; each
 * result's `structuredContent` (checked by the client against the tool's output schema) says what its text holds.
 */
async function checkLongArticle(client: Client): Promise<void> {
  const { tools } = await client.listTools();
  const tool = tools.find((t) => t.name === 'axo_article');
  assert.equal((tool?.inputSchema.properties as Record<string, { maxLength?: number }>).section.maxLength, 200);
  assert.deepEqual(tool?.inputSchema.required, ['title']);
  assert.equal(tool?.outputSchema?.type, 'object');

  const outline = await client.callTool({ name: 'axo_article', arguments: { title: LONG_TITLE } });
  assert.equal(outline.isError, false);
  const text = textOf(outline);
  assert.ok(text.length <= 12_000, `${text.length}`);
  assert.match(text, /^# Alan Turing$/m);
  assert.match(text, new RegExp(`in ${LONG_SECTIONS} sections, more than one result holds`));
  assert.match(text, /^## Section 1 of 24: Part 1\n\nPart 1 of Alan Turing\. Alan Turing was/m);
  assert.match(text, /^\| Born \| 23 June 1912 \|$/m);
  const data = outline.structuredContent as unknown as ArticleToolStructured;
  assert.equal(data.title, 'Alan Turing');
  assert.equal(data.url, 'https://axo.example/wiki/Alan_Turing');
  assert.equal(data.shown, 'outline');
  assert.equal(data.sectionCount, LONG_SECTIONS);
  // The data's outline is the text's, line for line, sizes included.
  const lines = [...text.matchAll(/^(\d+)\. (.+) — ([\d,]+) characters, about ([\d,]+) tokens$/gm)];
  assert.equal(lines.length, LONG_SECTIONS);
  assert.deepEqual(
    data.sections.map((s) => [
      String(s.number),
      s.name,
      s.characters.toLocaleString('en-US'),
      s.tokens.toLocaleString('en-US'),
    ]),
    lines.map((m) => m.slice(1)),
  );
  assert.ok(data.sections.every((s) => s.characters > 800 && s.characters < 1_200));
  assert.deepEqual(
    { ...data.section, tokens: 0 },
    { ...data.sections[0], tokens: 0, shownCharacters: data.sections[0].characters },
  );
  assert.deepEqual(data.facts[0], { name: 'Born', value: '23 June 1912' });
  assert.equal(data.factCount, 8);

  const part = await client.callTool({ name: 'axo_article', arguments: { title: LONG_TITLE, section: ' PART 7 ' } });
  assert.equal(part.isError, false);
  assert.match(textOf(part), /^## Section 7 of 24: Part 7\n\nPart 7 of Alan Turing\./m);
  assert.match(textOf(part), /^Next: section 8, “Part 8”\./m);
  assert.doesNotMatch(textOf(part), /Part 6 of|Part 8 of|## Outline/);
  const partData = part.structuredContent as unknown as ArticleToolStructured;
  assert.equal(partData.shown, 'section');
  assert.equal(partData.requested, 'PART 7');
  assert.deepEqual(partData.section, { ...data.sections[6], shownCharacters: data.sections[6].characters });

  const none = await client.callTool({ name: 'axo_article', arguments: { title: LONG_TITLE, section: 'Legacy' } });
  assert.match(textOf(none), /The article has no section “Legacy”\. It has 24 sections, listed in the outline below/);
  assert.equal((none.structuredContent as unknown as ArticleToolStructured).shown, 'notFound');

  // A short article comes whole, with the same data beside it.
  const short = await client.callTool({ name: 'axo_article', arguments: { title: 'Ada Lovelace' } });
  assert.equal((short.structuredContent as unknown as ArticleToolStructured).shown, 'whole');
  assert.doesNotMatch(textOf(short), /## Outline/);
}

/** Sends a raw request to the server, with any headers (a browser or a rebinding page would). */
function rawPost(
  url: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) =>
      // The server may close the connection of an oversized body before reading it all.
      error.code === 'ECONNRESET' || error.code === 'EPIPE' ? resolve({ status: -1, text: '' }) : reject(error),
    );
    req.end(body);
  });
}

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
});

describe('AXO MCP server', function () {
  this.timeout(30_000);
  let fake: FakeService;

  before(async () => {
    fake = await startFakeService({ tokenDelayMs: 1 });
  });
  after(() => fake.close());
  beforeEach(() => fake.reset());

  describe('in the extension host (Streamable HTTP on 127.0.0.1)', () => {
    let server: RunningMcpServer;
    let setup: ReturnType<typeof inHostRunner>;
    const connect = async (): Promise<Client> => {
      const client = new Client({ name: 'test', version: '1' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(server.url), {
          requestInit: { headers: { Authorization: `Bearer ${server.token}` } },
        }) as Transport,
      );
      return client;
    };

    before(async () => {
      setup = inHostRunner(fake);
      server = await startMcpHttpServer({ runner: setup.runner, version: '1.0.0', log: silentLogger });
    });
    after(async () => {
      await server.close();
      await setup.http.dispose();
    });

    it('listens on 127.0.0.1 with a long random token', () => {
      assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      assert.ok(server.token.length >= 40);
    });

    it('lists the three tools with their schemas and calls each against the service', async () => {
      const client = await connect();
      try {
        await checkTools(client);
      } finally {
        await client.close();
      }
    });

    it('gives a long article as its outline and first section, a section when asked, with structured content', async () => {
      const client = await connect();
      try {
        await checkLongArticle(client);
      } finally {
        await client.close();
      }
    });

    it('adds no hover term for what an agent looked up', async () => {
      const client = await connect();
      try {
        await client.callTool({ name: 'axo_article', arguments: { title: 'Ada Lovelace' } });
        assert.equal(setup.store.index.match('Ada Lovelace', 2), undefined);
        assert.equal(setup.store.cache.size, 0);
      } finally {
        await client.close();
      }
    });

    it('aborts the request when the client cancels the call', async () => {
      const client = await connect();
      try {
        const controller = new AbortController();
        const call = client.callTool(
          { name: 'axo_ask', arguments: { question: 'Who was Alan Turing? #fault:stall' } },
          undefined,
          { signal: controller.signal },
        );
        await fake.waitFor((r) => r.path === '/v1/axo/ask' && r.fault === 'stall');
        controller.abort();
        await assert.rejects(call);
        const seen = await fake.waitFor((r) => r.path === '/v1/axo/ask' && r.aborted, 5000);
        assert.equal(seen.aborted, true);
      } finally {
        await client.close();
      }
    });

    it('refuses a request without the token, with a wrong one, or with a foreign Host or Origin', async () => {
      const port = new URL(server.url).port;
      const good = { Authorization: `Bearer ${server.token}`, Accept: 'application/json, text/event-stream' };
      assert.equal((await rawPost(server.url, { Accept: good.Accept }, INITIALIZE)).status, 401);
      assert.equal((await rawPost(server.url, { ...good, Authorization: 'Bearer wrong' }, INITIALIZE)).status, 401);
      assert.equal((await rawPost(server.url, { ...good, Host: `evil.example:${port}` }, INITIALIZE)).status, 403);
      assert.equal((await rawPost(server.url, { ...good, Origin: 'https://evil.example' }, INITIALIZE)).status, 403);
      assert.equal(
        (await rawPost(server.url, { ...good, Origin: `http://localhost:${port}` }, INITIALIZE)).status,
        200,
      );
      assert.equal((await rawPost(server.url, good, INITIALIZE)).status, 200);
    });

    it('refuses an oversized body', async () => {
      const good = { Authorization: `Bearer ${server.token}`, Accept: 'application/json, text/event-stream' };
      const big = JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'ping',
        params: { pad: 'x'.repeat(MAX_MCP_BODY_BYTES) },
      });
      const answer = await rawPost(server.url, good, big);
      assert.ok(answer.status === 413 || answer.status === -1, `status ${answer.status}`);
    });
  });

  describe('over stdio, in a child process', () => {
    let cacheDir: string;
    before(() => {
      cacheDir = mkdtempSync(path.join(tmpdir(), 'axo-mcp-'));
    });
    after(() => rmSync(cacheDir, { recursive: true, force: true }));

    const start = async (env: Record<string, string>): Promise<Client> => {
      const client = new Client({ name: 'test', version: '1' });
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [path.join(outRoot, 'src', 'mcpServer.js')],
          env: { PATH: process.env.PATH ?? '', AXO_CACHE_DIR: cacheDir, ...env },
          stderr: 'pipe',
        }),
      );
      return client;
    };

    it('serves the three tools with the key and base URL from the environment', async () => {
      const client = await start({ AXO_API_KEY: fake.axoKey, AXO_BASE_URL: fake.url });
      try {
        await checkTools(client);
        assert.ok(fake.requests.every((r) => r.keyKind === 'axo'));
      } finally {
        await client.close();
      }
    });

    it('gives a long article in parts too, with structured content', async () => {
      const client = await start({ AXO_API_KEY: fake.axoKey, AXO_BASE_URL: fake.url });
      try {
        await checkLongArticle(client);
      } finally {
        await client.close();
      }
    });

    it('answers from its cache file in a later process, without a request', async () => {
      const client = await start({ AXO_API_KEY: fake.axoKey, AXO_BASE_URL: fake.url });
      try {
        const result = await client.callTool({ name: 'axo_search', arguments: { query: 'Turing' } });
        assert.match(textOf(result), /^1\. Alan Turing — /m);
        assert.deepEqual(fake.requests, []);
      } finally {
        await client.close();
      }
    });

    it('says in one sentence that the key is missing, and how to set it', async () => {
      const client = await start({ AXO_BASE_URL: fake.url });
      try {
        const result = await client.callTool({ name: 'axo_ask', arguments: { question: 'Who was Ada Lovelace?' } });
        assert.equal(result.isError, true);
        assert.equal(
          textOf(result),
          'AXO is not set up: no encyclopedia API key is set. The user can set one with the AXO_API_KEY environment ' +
            "variable in this MCP server's configuration.",
        );
        assert.deepEqual(fake.requests, []);
      } finally {
        await client.close();
      }
    });
  });
});
