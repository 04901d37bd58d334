import * as assert from 'node:assert/strict';
import type { ToolRunContext } from '../../../../../src/core/chat/tools/chatTool';
import type { LookupRequest, LookupValue } from '../../../../../src/core/encyclopedia/lookupTypes';
import { RESULT_FRAME } from '../../../../../src/core/mcp/axoToolSpecs';
import { ServiceError } from '../../../../../src/core/service/errors';
import { axoChatTools } from '../../../../../src/features/chat/tools/axoTools';

const context = (signal = new AbortController().signal): ToolRunContext => ({
  signal,
  confirm: async () => assert.fail('an AXO tool asks nothing'),
});

function tools(lookup: (request: LookupRequest, signal: AbortSignal) => Promise<LookupValue>) {
  const [ask, search, article] = axoChatTools({ lookup, model: () => 'axo', keyAdvice: 'the key command' });
  return { ask, search, article };
}

describe('chat tools: the AXO tools in our chat', () => {
  it('looks up through the runner, and gives the answer’s sources for the reply’s Sources', async () => {
    const asked: LookupRequest[] = [];
    const { ask } = tools(async (request) => {
      asked.push(request);
      return {
        kind: 'answer',
        answer: {
          query: 'Alan Turing',
          model: 'axo',
          text: 'Born 1912.',
          citations: [{ title: 'Alan Turing', url: 'https://axo.example/wiki/Alan_Turing' }],
        },
      };
    });
    assert.equal(ask.kind, 'axo');
    assert.equal(ask.title({ question: 'Alan Turing' }), 'Looked up “Alan Turing” in AXO');
    const result = await ask.run({ question: 'Alan Turing' }, context());
    assert.equal(result.status, 'done');
    assert.ok(result.text.startsWith(RESULT_FRAME));
    assert.match(result.text, /Born 1912/);
    assert.deepEqual(result.sources, [{ title: 'Alan Turing', url: 'https://axo.example/wiki/Alan_Turing' }]);
    assert.deepEqual(asked, [{ kind: 'ask', query: 'Alan Turing', model: 'axo' }]);
  });

  it('refuses a bad input in one sentence, and says a failed lookup in one', async () => {
    const { search, article } = tools(async () => {
      throw new ServiceError('notFound', 'No such article', { status: 404 });
    });
    const refused = await search.run({ query: '' }, context());
    assert.equal(refused.status, 'refused');
    assert.match(refused.text, /needs a non-empty “query” string/);
    const failed = await article.run({ title: 'Nowhere' }, context());
    assert.equal(failed.status, 'failed');
    assert.match(failed.text, /no such entry/);
    assert.equal(failed.sources, undefined);
  });

  it('takes axo_article’s optional section in its schema and passes the input on', async () => {
    const { article } = tools(async () => ({
      kind: 'article',
      requestedTitle: 'Alan Turing',
      article: {
        title: 'Alan Turing',
        content: 'Text.',
        url: 'https://axo.example/a',
        facts: [],
        media: [],
        citations: [],
      },
    }));
    const schema = article.spec.inputSchema as { properties: Record<string, unknown> };
    assert.ok(schema.properties.section);
    const result = await article.run({ title: 'Alan Turing', section: 'Early life' }, context());
    assert.equal(result.status, 'done');
    assert.deepEqual(result.sources, [{ title: 'Alan Turing', url: 'https://axo.example/a' }]);
  });
});
