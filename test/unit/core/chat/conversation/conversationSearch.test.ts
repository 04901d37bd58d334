import * as assert from 'node:assert/strict';
import {
  decodeSearchText,
  encodeSearchText,
  searchFoldedTexts,
  searchTextOf,
} from '../../../../../src/core/chat/conversation/searchText';
import type { StoredMessage } from '../../../../../src/core/chat/conversation/conversation';
import {
  MAX_QUERY_LENGTH,
  queryTerms,
  searchConversations,
  type Searchable,
} from '../../../../../src/core/chat/conversation/conversationSearch';

function conv(id: string, title: string, ...contents: string[]): Searchable {
  const messages: StoredMessage[] = contents.map((content, i) => ({
    id: `${id}-${i}`,
    role: i % 2 ? 'assistant' : 'user',
    content,
    createdAt: i,
  }));
  return { id, title, messages };
}

describe('chat core: conversation search', () => {
  const all = [
    conv('a', 'Sorting in Rust', 'How do I sort a Vec?', 'Use `v.sort()` or `v.sort_by(|a, b| a.cmp(b))`.'),
    conv('b', 'Café opening hours', 'When does the café open?', 'At nine, crème brûlée included.'),
    conv('c', 'Regex help', 'Match an e-mail address', 'Try `^[^@]+@[^@]+$` in Rust or JavaScript.'),
  ];

  it('a blank query matches nothing (the list shows everything then)', () => {
    assert.deepEqual(searchConversations('', all), []);
    assert.deepEqual(searchConversations('   \n', all), []);
  });

  it('matches titles, case-insensitively', () => {
    const found = searchConversations('sorting', all);
    assert.deepEqual(
      found.map((m) => [m.id, m.inTitle]),
      [['a', true]],
    );
  });

  it('matches message text and gives a snippet around the first place, from the right message', () => {
    const [match, ...rest] = searchConversations('sort_by', all);
    assert.equal(rest.length, 0);
    assert.equal(match.id, 'a');
    assert.equal(match.inTitle, false);
    assert.equal(match.snippet?.match, 'sort_by');
    assert.equal(match.snippet?.role, 'assistant');
    assert.match(`${match.snippet?.before}${match.snippet?.match}${match.snippet?.after}`, /v\.sort_by\(/);
  });

  it('every term must match, in the title or any message; order of results is the order given', () => {
    assert.deepEqual(
      searchConversations('rust', all).map((m) => m.id),
      ['a', 'c'],
    );
    assert.deepEqual(
      searchConversations('rust regex', all).map((m) => m.id),
      ['c'],
    );
    assert.deepEqual(searchConversations('rust café', all), []);
  });

  it('ignores accents both ways and shows the original text in the snippet', () => {
    const [match] = searchConversations('CREME brulee', all);
    assert.equal(match.id, 'b');
    assert.equal(match.snippet?.match, 'crème');
    const [byAccent] = searchConversations('opén', all);
    assert.equal(byAccent.id, 'b');
    assert.equal(byAccent.snippet?.match, 'open');
  });

  it('matches a Greek word whichever sigma it ends with, and shows the original in the snippet', () => {
    const greek = [conv('g', 'Myths', 'Who was ΟΔΥΣΣΕΥΣ?', 'The hero of the Odyssey.')];
    const [match] = searchConversations('οδυσσευς', greek);
    assert.equal(match?.id, 'g');
    assert.equal(match?.snippet?.match, 'ΟΔΥΣΣΕΥΣ');
    assert.equal(searchConversations('ΟΔΥΣΣΕΥΣ', greek)[0]?.id, 'g');
  });

  it('cuts long text around the match with ellipses, on one line', () => {
    const long = `${'lorem ipsum '.repeat(20)}\nthe needle\nis here ${'dolor sit '.repeat(20)}`;
    const [match] = searchConversations('needle', [conv('x', 'Long', long)]);
    const { before, after } = match.snippet ?? { before: '', after: '' };
    assert.ok(before.startsWith('…') && after.endsWith('…'), `${before} | ${after}`);
    assert.ok(before.length < 60 && after.length < 60);
    assert.doesNotMatch(`${before}${after}`, /\n/);
  });

  it('keeps emoji whole at the edges of a snippet', () => {
    const text = `${'🚀'.repeat(30)} target ${'👍🏽'.repeat(30)}`;
    const [match] = searchConversations('target', [conv('e', 'Emoji', text)]);
    assert.ok(match.snippet, 'the match has a snippet');
    const { before, after } = match.snippet;
    // Only whole emoji (a skin-tone pair is one) next to the match, and the ellipsis where text was cut.
    assert.match(before, /^…?(🚀)+ $/u, before);
    assert.match(after, /^ (👍🏽)+…?$/u, after);
  });

  it('a title-only match has no snippet; query terms are folded and deduplicated, long queries cut', () => {
    const [match] = searchConversations('hours', all);
    assert.equal(match.id, 'b');
    assert.equal(match.inTitle, true);
    assert.equal(match.snippet, undefined);
    assert.deepEqual(queryTerms('  Café  cafe CAFÉ x '), ['cafe', 'x']);
    assert.equal(queryTerms('a'.repeat(MAX_QUERY_LENGTH + 50))[0].length, MAX_QUERY_LENGTH);
  });

  it("finds a reply's tool step by its title, with a snippet from the title, and not by the step's result", () => {
    const c = conv('t', 'Tools', 'What is in the zoo?', 'Let me look.');
    c.messages[1].steps = [
      {
        id: 's1',
        tool: 'read_file',
        input: { path: 'src/zebra.ts' },
        title: 'Read `src/zebra.ts`, lines 1–40',
        status: 'done',
        result: 'export const quokka = 1;',
        offset: 12,
      },
    ];
    const [match] = searchConversations('zebra', [c]);
    assert.deepEqual(
      [match?.id, match?.snippet?.before, match?.snippet?.match, match?.snippet?.role],
      ['t', 'Read `src/', 'zebra', 'assistant'],
    );
    assert.deepEqual(searchConversations('quokka', [c]), [], 'what a file said was not said in the conversation');
    // The search index beside the store keeps the same text: it finds the step, and not its result, alike.
    const indexed = [decodeSearchText(encodeSearchText(searchTextOf({ ...c, updatedAt: 1 })), 't')!];
    assert.deepEqual(
      searchFoldedTexts('zebra', indexed).map((m) => [m.id, m.snippet?.match, m.snippet?.role]),
      [['t', 'zebra', 'assistant']],
    );
    assert.deepEqual(searchFoldedTexts('quokka', indexed), []);
  });
});
