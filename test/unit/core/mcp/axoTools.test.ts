import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { LookupRequest, LookupValue } from '../../../../src/core/encyclopedia/lookupTypes';
import { AxoToolRunner, checkToolInput } from '../../../../src/core/mcp/axoToolRunner';
import { ARTICLE_BUDGET_CHARS, AXO_TOOL_SPECS, inputSchema } from '../../../../src/core/mcp/axoToolSpecs';
import { KEY_PLACEHOLDER, mcpClientConfig } from '../../../../src/core/mcp/stdioEnv';
import { answerResult, articleCitedByTitle, articleResult, searchResult } from '../../../../src/core/mcp/toolResults';
import { inertText } from '../../../../src/core/mcp/inertMarkdown';
import { ServiceError } from '../../../../src/core/service/errors';
import type { Article } from '../../../../src/core/service/normalize';
import { repoRoot } from '../../../support/repoRoot';

const root = repoRoot;

function runnerWith(lookup: (request: LookupRequest, signal: AbortSignal) => Promise<LookupValue>): AxoToolRunner {
  return new AxoToolRunner({ lookup, model: () => 'axo', keyAdvice: 'the command “AXO: Set Encyclopedia API Key”' });
}

function longArticle(paragraphs: number, facts: number): Article {
  return {
    title: 'Long',
    content: Array.from({ length: paragraphs }, (_, i) => `Paragraph ${i} ${'word '.repeat(80)}`).join('\n\n'),
    url: 'https://axo.example/wiki/Long',
    facts: Array.from({ length: facts }, (_, i) => ({ name: `Fact ${i}`, value: `Value ${i}` })),
    media: [],
    citations: [],
  };
}

describe('AXO tools', () => {
  it('are declared in package.json exactly as the MCP server serves them', () => {
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      contributes: { languageModelTools: Record<string, unknown>[] };
    };
    const declared = pkg.contributes.languageModelTools;
    assert.deepEqual(
      declared.map((tool) => tool.name),
      AXO_TOOL_SPECS.map((spec) => spec.name),
    );
    for (const [i, spec] of AXO_TOOL_SPECS.entries()) {
      assert.equal(declared[i].modelDescription, spec.modelDescription);
      assert.deepEqual(declared[i].inputSchema, inputSchema(spec));
      assert.equal(declared[i].canBeReferencedInPrompt, true);
      assert.match(String(declared[i].toolReferenceName), /^axo[A-Z]\w+$/);
      assert.equal(declared[i].when, 'config.alphaAxo.agentTools.enabled');
    }
  });

  it('refuse input that is missing, empty, not a string or too long, in one sentence', () => {
    assert.deepEqual(checkToolInput('axo_ask', { question: '  Who  was\nTuring? ' }), { value: 'Who was Turing?' });
    assert.match(JSON.stringify(checkToolInput('axo_ask', {})), /needs a non-empty “question” string/);
    assert.match(JSON.stringify(checkToolInput('axo_search', { query: 3 })), /needs a non-empty “query” string/);
    assert.match(
      JSON.stringify(checkToolInput('axo_article', { title: 'x'.repeat(301) })),
      /301 characters long; axo_article takes at most 300/,
    );
    assert.match(JSON.stringify(checkToolInput('rm_rf', { title: 'x' })), /no AXO tool named/);
  });

  it('take an optional section for axo_article only: a string within its bound, blank or null as none', () => {
    assert.deepEqual(checkToolInput('axo_article', { title: 'Alan Turing', section: '  Early \n life ' }), {
      value: 'Alan Turing',
      section: 'Early life',
    });
    assert.deepEqual(checkToolInput('axo_article', { title: 'Alan Turing', section: '   ' }), { value: 'Alan Turing' });
    assert.deepEqual(checkToolInput('axo_article', { title: 'Alan Turing', section: null }), { value: 'Alan Turing' });
    assert.equal(
      (checkToolInput('axo_article', { title: 'T', section: 3 }) as { problem: string }).problem,
      'The section of axo_article is a string (a name or a number from the outline).',
    );
    assert.equal(
      (checkToolInput('axo_article', { title: 'T', section: 'x'.repeat(201) }) as { problem: string }).problem,
      'The section is 201 characters long; axo_article takes at most 200.',
    );
    assert.deepEqual(checkToolInput('axo_ask', { question: 'q', section: 'Early life' }), { value: 'q' });
    // Key-shaped runs never reach the result, even echoed back as an unknown section.
    const key = `sk-${'a1B2'.repeat(10)}`;
    assert.doesNotMatch(JSON.stringify(checkToolInput('axo_article', { title: 'T', section: key })), /a1B2a1B2/);
    const runner = runnerWith(() => Promise.reject(new Error('unused')));
    assert.equal(
      runner.invocationMessage('axo_article', { title: 'Alan Turing', section: 'Early life' }),
      'Looking up “Alan Turing”, section “Early life”, in AXO',
    );
  });

  it('read a long article in parts: the outline and first section, then the section asked for', async () => {
    const article = longArticle(0, 3);
    article.content = Array.from({ length: 20 }, (_, i) => `## Part ${i + 1}\n\n${'word '.repeat(200)}`).join('\n\n');
    const runner = runnerWith(async () => ({ kind: 'article', article, requestedTitle: 'Long' }));
    const signal = new AbortController().signal;
    const first = await runner.run('axo_article', { title: 'Long' }, signal);
    assert.ok(first.text.length <= ARTICLE_BUDGET_CHARS);
    assert.match(first.text, /^## Section 1 of 20: Part 1$/m);
    assert.equal(first.structured?.shown, 'outline');
    const part = await runner.run('axo_article', { title: 'Long', section: 'part 12' }, signal);
    assert.match(
      part.text,
      /^Quoted data from the AXO encyclopedia[^\n]+\n\n# Long\nURL: \S+\n\n## Section 12 of 20: Part 12$/m,
    );
    assert.equal(part.structured?.section?.number, 12);
    assert.equal((await runner.run('axo_search', { query: 'q' }, signal)).structured, undefined);
  });

  it('say "Looking up … in AXO" before they run', () => {
    const runner = runnerWith(() => Promise.reject(new Error('unused')));
    assert.equal(runner.invocationMessage('axo_article', { title: 'Alan Turing' }), 'Looking up “Alan Turing” in AXO');
    assert.equal(runner.invocationMessage('axo_search', { query: 'Turing' }), 'Searching AXO for “Turing”');
  });

  it('turn each failure into one sentence, never a stack', async () => {
    const signal = new AbortController().signal;
    const failWith = (error: unknown) =>
      runnerWith(() => Promise.reject(error)).run('axo_ask', { question: 'q' }, signal);
    const cases: [unknown, RegExp][] = [
      [
        new ServiceError('badKey', 'x', { status: 401, keyKind: 'encyclopedia' }),
        /^AXO rejected the encyclopedia API key \(HTTP 401\)\. The user can set a valid one with the command “AXO: Set Encyclopedia API Key”\.$/,
      ],
      [
        new ServiceError('rateLimited', 'x', { status: 429, retryAfterSeconds: 7 }),
        /^AXO is limiting requests \(HTTP 429\): try again in 7 seconds\.$/,
      ],
      [new ServiceError('rateLimited', 'x', { status: 429 }), /try again in a minute\.$/],
      [
        new ServiceError('timeout', 'The service at 127.0.0.1 did not answer within 5 s.'),
        /^AXO did not answer in time: The service at 127\.0\.0\.1 did not answer within 5 s\.$/,
      ],
      [
        new ServiceError('missingKey', 'x', { keyKind: 'encyclopedia' }),
        /^AXO is not set up: no encyclopedia API key is set\./,
      ],
      [new TypeError('boom\n    at x (y.js:1:2)'), /^AXO could not answer: boom at x \(y\.js:1:2\)\.$/],
    ];
    for (const [error, sentence] of cases) {
      const outcome = await failWith(error);
      assert.equal(outcome.isError, true);
      assert.match(outcome.text, sentence);
      assert.doesNotMatch(outcome.text, /\n/);
    }
  });

  it('pass the caller’s cancellation to the lookup and say it was cancelled', async () => {
    const controller = new AbortController();
    let seen: AbortSignal | undefined;
    const runner = runnerWith(
      (_request, signal) =>
        new Promise((_resolve, reject) => {
          seen = signal;
          signal.addEventListener('abort', () => reject(new ServiceError('aborted', 'cancelled')));
        }),
    );
    const running = runner.run('axo_search', { query: 'Turing' }, controller.signal);
    controller.abort();
    assert.equal(seen?.aborted, true);
    assert.deepEqual(await running, { text: 'The AXO lookup was cancelled.', isError: true });
  });

  it('say so when AXO has no answer or no results', () => {
    assert.equal(
      answerResult({ query: 'Who is nobody?', model: 'axo', text: ' ', citations: [] }),
      'AXO has no answer to “Who is nobody?”.',
    );
    assert.equal(searchResult('zzz', []), 'AXO found no articles for “zzz”.');
  });

  it('tell the article an answer is about from a citation whose URL names its title', () => {
    assert.equal(
      articleCitedByTitle([
        { title: 'A page', url: 'https://example.com/other' },
        { title: 'Alan Turing', url: 'https://axo.example/wiki/Alan_Turing' },
      ]),
      'Alan Turing',
    );
    assert.equal(articleCitedByTitle([{ title: 'Turing', url: 'https://axo.example/wiki/Alan_Turing' }]), undefined);
    assert.match(
      answerResult({ query: 'q', model: 'axo', text: 'A.', citations: [] }, 'Ada Lovelace'),
      /About the article: Ada Lovelace/,
    );
  });

  it('keep an article within its budget, cutting the text at a paragraph, then facts, and say so', () => {
    const whole = articleResult(longArticle(3, 5));
    assert.doesNotMatch(whole, /Trimmed/);
    assert.match(whole, /\| Fact 4 \| Value 4 \|/);

    const long = articleResult(longArticle(60, 20));
    assert.ok(long.length <= ARTICLE_BUDGET_CHARS, `${long.length}`);
    assert.match(long, /\| Fact 19 \| Value 19 \|/);
    assert.match(long, /Paragraph \d+ (word ){79}word\n\n## Facts/);
    assert.match(
      long,
      /\[Trimmed to fit 12000 characters: the text was cut from \d+ to \d+ characters\. The whole article is at https:\/\/axo\.example\/wiki\/Long\.\]$/,
    );

    const factful = articleResult(longArticle(60, 2000));
    assert.ok(factful.length <= ARTICLE_BUDGET_CHARS, `${factful.length}`);
    assert.match(factful, /the text was cut from \d+ to \d+ characters; \d+ of 2000 facts are shown/);
  });

  it('make service text inert: no raw HTML, no links but http(s), no control or bidi characters', () => {
    const text = inertText(
      '<script>x</script> [a](javascript:alert(1)) [b](<command:quit> "t") [ok](https://e.com) ![i](command:x)\n' +
        '[ref]: command:quit\n\u001b[31mred\u202e',
    );
    assert.equal(
      text,
      '&lt;script>x&lt;/script> \\[a\\](javascript:alert(1)) \\[b\\](&lt;command:quit> "t") \\[ok\\](https://e.com) ' +
        '!\\[i\\](command:x)\n\\[ref\\]: command:quit\n\\[31mred',
    );
  });

  it('copy a client configuration that names the variables and never holds a key', () => {
    const config = JSON.parse(mcpClientConfig('/ext/alpha-axo-1.0.0', 'https://api.example.com/')) as {
      mcpServers: { axo: { command: string; args: string[]; env: Record<string, string> } };
    };
    assert.equal(config.mcpServers.axo.command, 'node');
    assert.deepEqual(config.mcpServers.axo.args, [path.join('/ext/alpha-axo-1.0.0', 'dist', 'mcpServer.js')]);
    assert.deepEqual(config.mcpServers.axo.env, {
      AXO_API_KEY: KEY_PLACEHOLDER,
      AXO_BASE_URL: 'https://api.example.com/',
    });
  });
});
