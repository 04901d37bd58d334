import * as assert from 'node:assert/strict';
import { axoChatSpec, axoChatSpecs, lookupSources } from '../../../../../src/core/chat/tools/axoChatTools';
import { globProblem, lineArg, workspacePath } from '../../../../../src/core/chat/tools/toolInput';
import {
  axoTitle,
  findTitle,
  problemsTitle,
  proposeTitle,
  readTitle,
  searchTitle,
} from '../../../../../src/core/chat/tools/toolTitles';
import { WORKSPACE_TOOL_SPECS } from '../../../../../src/core/chat/tools/workspaceToolSpecs';
import { AXO_TOOL_SPECS } from '../../../../../src/core/mcp/axoToolSpecs';
import { checkCall } from '../../../../../src/core/toolCalls/callCheck';
import { assertGrowth } from '../../../../support/growth';

describe('chat tools: titles, arguments and specs', () => {
  it('titles each step as the issue shows them', () => {
    assert.equal(readTitle('src/app.ts', 1, 120), 'Read `src/app.ts`, lines 1–120');
    assert.equal(findTitle('**/*.ts', 12), 'Found 12 files matching `**/*.ts`');
    assert.equal(searchTitle('parseTrim', 3), 'Searched for `parseTrim`: 3 matches');
    assert.equal(axoTitle('axo_ask', 'Alan Turing'), 'Looked up “Alan Turing” in AXO');
    assert.equal(axoTitle('axo_search', 'Turing'), 'Searched AXO for “Turing”');
    assert.equal(axoTitle('axo_article', 'Alan Turing'), 'Read the AXO article “Alan Turing”');
    assert.equal(problemsTitle('src/app.ts'), 'Problems in `src/app.ts`');
    assert.equal(proposeTitle('README.md', true), 'Proposed a change to `README.md` (Review)');
  });

  it('keeps a hostile name inside its code span, on one line and bounded', () => {
    const title = readTitle('a`b\n'.repeat(200));
    assert.ok(!title.slice(6, -1).includes('`'), title);
    assert.ok(!title.includes('\n'));
    assert.ok(title.length < 140, String(title.length));
  });

  it('reads line numbers and paths as a model writes them', () => {
    assert.equal(lineArg({ a: 3.7 }, 'a'), 3);
    assert.equal(lineArg({ a: '12' }, 'a'), 12);
    assert.equal(lineArg({ a: -4 }, 'a'), 1);
    assert.equal(lineArg({ a: 'x' }, 'a'), undefined);
    assert.deepEqual(workspacePath('./src\\a.ts'), { path: 'src/a.ts' });
    assert.ok('problem' in workspacePath('file:///etc/passwd'));
    assert.ok('problem' in workspacePath('a\u0000b'));
    assert.ok('problem' in workspacePath(undefined));
  });

  it('describes the AXO tools as the other surfaces do, axo_article with an optional section', () => {
    const specs = axoChatSpecs();
    assert.deepEqual(
      specs.map((s) => s.name),
      ['axo_ask', 'axo_search', 'axo_article'],
    );
    assert.equal(specs[0].description, AXO_TOOL_SPECS[0].modelDescription);
    const article = axoChatSpec(AXO_TOOL_SPECS[2]);
    const ok = checkCall('{"name":"axo_article","arguments":{"title":"Alan Turing","section":"Early life"}}', [
      article,
    ]);
    assert.ok('call' in ok, JSON.stringify(ok));
    assert.ok('call' in checkCall('{"name":"axo_article","arguments":{"title":"Alan Turing"}}', [article]));
    assert.ok('problem' in checkCall('{"name":"axo_ask","arguments":{"question":"x","section":"y"}}', specs));
  });

  it('checks calls of every workspace tool against its schema', () => {
    const specs = Object.values(WORKSPACE_TOOL_SPECS);
    const ok = (json: string) => assert.ok('call' in checkCall(json, specs), json);
    ok('{"name":"read_file","arguments":{"path":"a.ts","start_line":1,"end_line":20}}');
    ok('{"name":"find_files","arguments":{"pattern":"**/*.ts"}}');
    ok('{"name":"search_text","arguments":{"query":"foo","include":"src/**"}}');
    ok('{"name":"get_problems","arguments":{}}');
    ok('{"name":"propose_edit","arguments":{"path":"a.ts","edits":[{"search":"a","replace":"b"}]}}');
    ok('{"name":"propose_edit","arguments":{"path":"a.ts","content":"new"}}');
    assert.ok('problem' in checkCall('{"name":"read_file","arguments":{}}', specs));
  });

  it('gives an answer’s and an article’s sources, deduplicated, http(s) only; a search gives none', () => {
    const article = {
      kind: 'article' as const,
      requestedTitle: 'Turing',
      article: {
        title: 'Alan Turing',
        content: '',
        url: 'https://axo.example/wiki/Alan_Turing',
        facts: [],
        media: [],
        citations: [
          { title: 'Same page', url: 'https://axo.example/wiki/Alan_Turing' },
          { title: 'Bad', url: 'javascript:alert(1)' },
          { title: 'Book' },
        ],
      },
    };
    assert.deepEqual(lookupSources(article), [
      { title: 'Alan Turing', url: 'https://axo.example/wiki/Alan_Turing' },
      { title: 'Bad' },
      { title: 'Book' },
    ]);
    assert.deepEqual(lookupSources({ kind: 'search', query: 'x', results: [{ title: 'A', url: 'https://a' }] }), []);
  });
});

describe('chat tools: glob patterns ALPHA writes', () => {
  it('takes a pattern within its length and wildcards, and says why not otherwise', () => {
    assert.equal(globProblem('src/**/*.ts'), undefined);
    assert.match(globProblem('') ?? '', /non-empty "pattern"/);
    assert.match(globProblem('a'.repeat(201)) ?? '', /201 characters/);
    assert.match(globProblem('*a*b*c*d*e*f*g') ?? '', /7 wildcards; at most 6/);
  });
});

describe('chat tools: the sources of a lookup', () => {
  it('gives the sources in linear time: many citations with long titles', () => {
    assertGrowth(
      'lookupSources',
      (n) => ({
        kind: 'answer' as const,
        answer: {
          query: 'q',
          model: 'axo',
          text: '',
          citations: Array.from({ length: n }, (_, i) => ({ title: ` \t x${' '.repeat(50)}`, url: `https://a/${i}` })),
        },
      }),
      (value) => lookupSources(value),
      { n: 5_000 },
    );
  });
});
