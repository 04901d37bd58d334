import * as assert from 'node:assert/strict';
import {
  EncyclopediaStore,
  TOOL_CACHE_MAX_CHARS,
  type EncyclopediaClient,
} from '../../../../src/core/encyclopedia/encyclopediaStore';
import type { LookupCache } from '../../../../src/core/encyclopedia/lookupCache';
import type { LookupValue } from '../../../../src/core/encyclopedia/lookupTypes';
import { STDIO_CACHE_MAX_CHARS, stdioLookupCache } from '../../../../src/core/mcp/stdioServer';

/** An article whose text is `chars` long. */
function bigArticle(title: string, chars: number): LookupValue {
  return {
    kind: 'article',
    article: { title, content: 'x'.repeat(chars), facts: [], media: [], citations: [] },
    requestedTitle: title,
  };
}

describe('the caches of agents’ lookups are bounded by characters, not only by entries', function () {
  this.timeout(30_000);
  it('the tools’ cache in the extension host holds at most its character budget', async () => {
    const client: EncyclopediaClient = {
      ask: () => Promise.reject(new Error('unused')),
      search: () => Promise.reject(new Error('unused')),
      article: async (title) => ({ title, content: 'x'.repeat(1_000_000), facts: [], media: [], citations: [] }),
    };
    const store = new EncyclopediaStore({ client, ttlMs: () => 3_600_000 });
    for (let i = 0; i < 20; i++) {
      await store.lookupForTool({ kind: 'article', title: `A${i}` });
    }
    const cache = (store as unknown as { toolCache: LookupCache<LookupValue> }).toolCache;
    assert.ok(cache.totalChars <= TOOL_CACHE_MAX_CHARS, `${cache.totalChars} > ${TOOL_CACHE_MAX_CHARS}`);
    assert.ok(cache.size >= 10, 'the newest entries stay');
  });

  it('the stdio server’s cache holds at most its character budget', () => {
    const cache = stdioLookupCache();
    for (let i = 0; i < 20; i++) {
      cache.set(`k${i}`, bigArticle(`A${i}`, 2_000_000));
    }
    assert.ok(cache.totalChars <= STDIO_CACHE_MAX_CHARS, `${cache.totalChars} > ${STDIO_CACHE_MAX_CHARS}`);
    assert.ok(cache.peek('k19'), 'the newest entry stays');
  });
});
