import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { newConversation, type Conversation } from '../../../../../src/core/chat/conversation/conversation';
import { ConversationStore } from '../../../../../src/core/chat/store/conversationStore';
import { SEARCH_FOLDER } from '../../../../../src/core/chat/store/searchIndex';
import {
  decodeSearchText,
  encodeFolded,
  encodeSearchText,
  foldSearchText,
  foldSoon,
  joinedText,
  searchFoldedTexts,
  searchSourceOf,
  searchTextOf,
} from '../../../../../src/core/chat/conversation/searchText';
import { silentLogger } from '../../../../../src/core/logger';
import { assertGrowth, assertGrowthAsync } from '../../../../support/growth';

function conversation(id: string, updatedAt: number, ...contents: string[]): Conversation {
  const c = newConversation(updatedAt);
  c.id = id;
  c.title = `Title of ${id}`;
  c.updatedAt = updatedAt;
  contents.forEach((content, i) =>
    c.messages.push({ id: `${id}-m${i}`, role: i % 2 ? 'assistant' : 'user', content, createdAt: i }),
  );
  return c;
}

describe('chat core: the search index beside the store', () => {
  let dir: string;
  const stores: ConversationStore[] = [];
  const open = () => {
    const store = new ConversationStore(dir, silentLogger);
    stores.push(store);
    return store;
  };
  /** What a window finds after a reload: a new store on the folder. */
  const found = async (query: string) => {
    const store = open();
    const matches = await store.search.search(query, await store.list());
    await store.idle();
    return matches.map((m) => m.id);
  };
  const entryFile = (id: string) => path.join(dir, SEARCH_FOLDER, `${id}.txt`);
  const entryOf = (id: string) => decodeSearchText(fs.readFileSync(entryFile(id)), id);

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'search-index-'));
  });
  afterEach(() => {
    stores.splice(0).forEach((s) => s.dispose());
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('writes an entry after a save, off the save, and a reload searches it without reading the conversation', async () => {
    const store = open();
    await store.save(conversation('a', 10, 'How do I parse JSON?', 'Use JSON.parse.'));
    assert.ok(!fs.existsSync(entryFile('a')), 'the save itself does not write the entry');
    await store.idle();
    assert.equal(entryOf('a')?.updatedAt, 10);
    // The conversation's text changed on disk behind the index's back, with the same time and count: the index answers.
    const file = path.join(dir, 'a.json');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('Use JSON.parse.', 'Use a parser!!'));
    assert.deepEqual(await found('json.parse'), ['a']);
  });

  it('merges two windows: interleaved saves and deletes, a later save wins per conversation', async () => {
    const one = open();
    const two = open();
    await one.save(conversation('a', 10, 'apple question', 'apple answer'));
    await two.save(conversation('b', 11, 'banana question', 'banana answer'));
    await one.idle();
    await two.idle();
    // Window two adds a turn to "a"; window one's index write of its older copy lands after two's.
    const theirs = conversation('a', 20, 'apple question', 'apple answer', 'cherry question', 'cherry answer');
    await two.save(theirs);
    await two.idle();
    one.search.saved(conversation('a', 10, 'apple question', 'apple answer'));
    await one.idle();
    await one.delete('b');
    await two.save(conversation('c', 30, 'damson question', 'damson answer'));
    await two.idle();
    assert.deepEqual(await found('cherry'), ['a'], 'the stale entry was not trusted over the conversation file');
    assert.equal(entryOf('a')?.updatedAt, 20, 'and it was written again');
    assert.deepEqual(await found('banana'), []);
    assert.ok(!fs.existsSync(entryFile('b')));
    assert.deepEqual(await found('question'), ['c', 'a']);
  });

  it('writes no entry for a conversation another window deleted before this one wrote its entry', async () => {
    const one = open();
    const two = open();
    await one.save(conversation('a', 10, 'short-lived capybara'));
    await two.list();
    await two.delete('a');
    await one.idle();
    assert.ok(!fs.existsSync(entryFile('a')));
    assert.deepEqual(await found('capybara'), []);
  });

  it('rebuilds a missing index', async () => {
    const store = open();
    await store.save(conversation('a', 10, 'find the walrus'));
    await store.idle();
    fs.rmSync(path.join(dir, SEARCH_FOLDER), { recursive: true });
    assert.deepEqual(await found('walrus'), ['a']);
    assert.equal(entryOf('a')?.updatedAt, 10);
  });

  it('rebuilds a stale entry (another time or message count than the list says)', async () => {
    const store = open();
    await store.save(conversation('a', 10, 'old text only'));
    await store.idle();
    const old = fs.readFileSync(entryFile('a'), 'utf8');
    await store.save(conversation('a', 20, 'new text only'));
    await store.idle();
    fs.writeFileSync(entryFile('a'), old);
    assert.deepEqual(await found('old'), []);
    assert.deepEqual(await found('new'), ['a']);
    // Same time, other count.
    fs.writeFileSync(entryFile('a'), encodeSearchText({ ...searchTextOf(conversation('a', 20, 'x', 'planted')) }));
    assert.deepEqual(await found('planted'), []);
  });

  it('ignores and rebuilds a damaged or hostile entry: garbage, too large, wrong types, another id', async () => {
    const store = open();
    const c = conversation('a', 10, 'the real text');
    await store.save(c);
    await store.idle();
    const valid = searchTextOf(conversation('a', 10, 'planted text'));
    const size = fs.statSync(path.join(dir, 'a.json')).size;
    const entry = encodeSearchText(valid).toString('utf8');
    const header = { v: 2, id: 'a', updatedAt: 10, messageCount: 1, title: 't', roles: 'u' };
    const hostile = [
      'garbage \u0000\u0001 not an entry',
      '',
      `${JSON.stringify({ ...header, folded: 0, body: 0 })}`,
      // The texts as written outgrow the conversation's file (which holds them).
      encodeSearchText({ ...valid, body: `planted ${'x'.repeat(size)}` }).toString('utf8'),
      // Far larger than the conversation: not read at all.
      encodeSearchText({ ...valid, body: `planted ${'x'.repeat(4 * size)}` }).toString('utf8'),
      entry.replace('"updatedAt":10', '"updatedAt":"10"'),
      entry.replace('"roles":"u"', '"roles":"z"'),
      entry.replace('"title":"Title of a"', '"title":{"a":1}'),
      entry.replace('"folded":12', '"folded":1.5'),
      entry.replace('"folded":12', '"folded":-12'),
      entry.replace('"folded":12', '"folded":"12"'),
      entry.replace('"folded":12', '"folded":9000'),
      // Cut, or longer than its header says.
      entry.slice(0, -1),
      `${entry}planted`,
      entry.replace('"body":12', '"body":-12'),
      // The format before the folded part (1): rebuilt, not misread.
      `${JSON.stringify({ ...header, v: 1 })}\nplanted text`,
      encodeSearchText({ ...valid, id: 'b' }).toString('utf8'),
      `null\nplanted`,
      `[1]\nplanted`,
    ];
    assert.ok(entry.includes('"folded":12,"body":12}'), entry);
    for (const text of hostile) {
      fs.writeFileSync(entryFile('a'), text);
      assert.deepEqual(await found('planted'), [], JSON.stringify(text.slice(0, 80)));
      assert.deepEqual(await found('real'), ['a']);
      assert.equal(entryOf('a')?.body.toString(), 'the real text', 'rebuilt');
    }
    // A folder in the entry's place is not read either.
    fs.rmSync(entryFile('a'));
    fs.mkdirSync(entryFile('a'));
    assert.deepEqual(await found('real'), ['a']);
  });

  it('a deleted conversation leaves no match, in this window or after a reload, and no entry', async () => {
    const store = open();
    await store.save(conversation('a', 10, 'unique okapi'));
    await store.save(conversation('b', 11, 'other'));
    await store.idle();
    assert.deepEqual(
      (await store.search.search('okapi', await store.list())).map((m) => m.id),
      ['a'],
    );
    await store.delete('a');
    assert.deepEqual(await store.search.search('okapi', await store.list()), []);
    assert.ok(!fs.existsSync(entryFile('a')));
    // An entry left by a window that went away before removing it is swept on the next first search.
    fs.writeFileSync(entryFile('a'), encodeSearchText(searchTextOf(conversation('a', 10, 'unique okapi'))));
    assert.deepEqual(await found('okapi'), []);
    assert.ok(!fs.existsSync(entryFile('a')));
  });

  it('searches the conversation shown as it is in memory, not as saved', async () => {
    const store = open();
    const c = conversation('a', 10, 'saved words');
    await store.save(c);
    await store.idle();
    c.messages.push({ id: 'late', role: 'assistant', content: 'streaming lemur', createdAt: 3, status: 'streaming' });
    assert.deepEqual(
      (await store.search.search('lemur', await store.list(), c)).map((m) => m.id),
      ['a'],
    );
    assert.deepEqual(
      (await store.search.search('lemur', await store.list())).map((m) => m.id),
      [],
    );
    // Its last message grows (a reply streaming), gets a step, changes its status: each is searched as it is.
    const last = c.messages[c.messages.length - 1];
    const shown = async (query: string) => (await store.search.search(query, await store.list(), c)).map((m) => m.id);
    last.content += ' and a quokka';
    assert.deepEqual(await shown('quokka'), ['a']);
    last.steps = [{ id: 's1', tool: 'read_file', input: {}, title: 'Read `tapir.ts`', status: 'done', offset: 0 }];
    assert.deepEqual(await shown('tapir'), ['a']);
    c.title = 'Renamed to okapi';
    assert.deepEqual(await shown('okapi'), ['a']);
    c.messages.pop();
    assert.deepEqual(await shown('quokka'), []);
  });

  it('gives the snippet from the right message of the joined text, with its role and original case', () => {
    const folded = foldSearchText(searchTextOf(conversation('a', 1, 'first Café', 'second has the ZEBRA here', 'x')));
    const [match] = searchFoldedTexts('zebra', [folded]);
    assert.deepEqual(match.snippet, { before: 'second has the ', match: 'ZEBRA', after: ' here', role: 'assistant' });
    assert.equal(searchFoldedTexts('cafe', [folded])[0].snippet?.match, 'Café');
    assert.deepEqual(searchFoldedTexts('\u0000', [folded]), [], 'a separator is never searched');
    assert.deepEqual(searchFoldedTexts('café second', [folded]).length, 1);
  });

  it('folds a long history for its entry a slice at a time, to the same bytes as folding it at once', async () => {
    const contents = Array.from({ length: 3_000 }, (_, i) => (i % 3 ? `Réponse ${i} CAFÉ\u0000x` : `Question ${i}?`));
    const source = searchSourceOf(conversation('a', 5, ...contents));
    let turns = 0;
    const counter = setInterval(() => turns++, 0);
    const soon = await foldSoon(source, 0);
    clearInterval(counter);
    assert.ok(turns > 0, 'the event loop ran between slices');
    const once = foldSearchText(joinedText(source));
    assert.deepEqual(
      [soon.folded, soon.body, soon.title, soon.roles],
      [once.folded, once.body, once.title, once.roles],
    );
    assert.deepEqual(Buffer.concat(encodeFolded(soon)), encodeSearchText(joinedText(source)));
    assert.deepEqual(searchFoldedTexts('2999 cafe', [soon])[0].snippet, {
      before: 'Réponse ',
      match: '2999',
      after: ' CAFÉ x',
      role: 'assistant',
    });
  });

  it('folds a history for its entry a slice at a time in time linear in its messages', async () => {
    const make = (n: number) =>
      searchSourceOf(
        conversation('a', 1, ...Array.from({ length: n }, (_, i) => `Réponse ${i} CAFÉ ${'é'.repeat(20)}`)),
      );
    await assertGrowthAsync(
      'foldSoon',
      make,
      async (source) => assert.ok((await foldSoon(source, 1_000)).folded.length > 0),
      { n: 2_000 },
    );
  });

  it('folds and writes, reads and searches in time linear in the text (many messages, near misses, the match last)', () => {
    const make = (n: number) => {
      const contents = Array.from({ length: n }, (_, i) => `Aé near ${'zebr'.repeat(5)} ${i}`);
      contents.push('the zebra at last');
      return searchTextOf(conversation('a', 1, ...contents));
    };
    assertGrowth(
      'search text fold + encode + decode + search',
      make,
      (text) => {
        const decoded = decodeSearchText(encodeSearchText(text), 'a');
        assert.ok(decoded);
        assert.equal(searchFoldedTexts('zebra last', [decoded]).length, 1);
        assert.equal(searchFoldedTexts('zebra last', [foldSearchText(text)])[0].snippet?.match, 'zebra');
      },
      { n: 2_000, maxMs: 2_000 },
    );
  });
});
