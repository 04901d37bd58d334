import * as assert from 'node:assert/strict';
import {
  normalizeAnswer,
  normalizeArticle,
  normalizeFacts,
  normalizeSearch,
} from '../../../../src/core/service/normalize';

describe('encyclopedia normalisation: ask', () => {
  for (const field of ['answer', 'text', 'content', 'summary']) {
    it(`reads the answer from "${field}"`, () => {
      const a = normalizeAnswer({ [field]: 'Turing was a mathematician.' }, 'Who was Turing?', 'axo');
      assert.equal(a.text, 'Turing was a mathematician.');
      assert.equal(a.query, 'Who was Turing?');
      assert.equal(a.model, 'axo');
      assert.equal(a.unrecognised, undefined);
    });
  }

  for (const field of ['sources', 'citations', 'references']) {
    it(`reads citations from "${field}" as strings and as {title,url}`, () => {
      const a = normalizeAnswer(
        {
          answer: 'x',
          [field]: ['Plain title', 'https://axo.example/wiki/A', { title: 'B', url: 'https://b.example/' }],
        },
        'q',
        'axo',
      );
      assert.deepEqual(a.citations, [
        { title: 'Plain title' },
        { title: 'https://axo.example/wiki/A', url: 'https://axo.example/wiki/A' },
        { title: 'B', url: 'https://b.example/' },
      ]);
    });
  }

  it('uses the URL as the title of a citation object without one', () => {
    const a = normalizeAnswer({ answer: 'x', sources: [{ url: 'https://c.example/' }] }, 'q', 'axo');
    assert.deepEqual(a.citations, [{ title: 'https://c.example/', url: 'https://c.example/' }]);
  });

  it('takes a plain-text body as the answer', () => {
    assert.equal(normalizeAnswer('Just text.', 'q', 'axo.1').text, 'Just text.');
  });

  it('keeps an empty answer empty (the UI then says there is no answer)', () => {
    const a = normalizeAnswer({ answer: '', model: 'axo', sources: [] }, 'q', 'axo');
    assert.equal(a.text, '');
    assert.equal(a.unrecognised, undefined);
  });

  it('reads an answer inside an envelope, and an answer given as an object', () => {
    for (const body of [
      { data: { answer: 'In data.', sources: ['S'] } },
      { result: { text: 'In data.', sources: ['S'] } },
      { status: 'ok', data: { result: { answer: 'In data.', citations: ['S'] } } },
      { answer: { text: 'In data.', sources: ['S'] }, model: 'axo' },
      { response: { answer: { content: 'In data.', references: ['S'] } } },
    ]) {
      const a = normalizeAnswer(body, 'q', 'axo');
      assert.equal(a.text, 'In data.', JSON.stringify(body));
      assert.deepEqual(a.citations, [{ title: 'S' }], JSON.stringify(body));
      assert.equal(a.unrecognised, undefined);
    }
  });

  it('shows an unknown shape as readable JSON, never [object Object]', () => {
    const a = normalizeAnswer({ weird: { nested: true } }, 'q', 'axo');
    assert.equal(a.unrecognised, true);
    assert.match(a.text, /"nested": true/);
    assert.doesNotMatch(a.text, /\[object Object\]/);
  });
});

describe('encyclopedia normalisation: search', () => {
  const hits = [
    { title: 'Alan Turing', snippet: 'English mathematician', url: 'https://axo.example/wiki/Alan_Turing' },
    { title: 'Turing machine' },
  ];

  it('reads a bare array', () => {
    assert.deepEqual(normalizeSearch(hits), [
      { title: 'Alan Turing', snippet: 'English mathematician', url: 'https://axo.example/wiki/Alan_Turing' },
      { title: 'Turing machine', snippet: undefined, url: undefined },
    ]);
  });

  for (const field of ['results', 'items', 'hits']) {
    it(`reads "${field}"`, () => {
      assert.deepEqual(
        normalizeSearch({ [field]: hits }).map((r) => r.title),
        ['Alan Turing', 'Turing machine'],
      );
    });
  }

  it('reads the snippet from summary/description and strings as titles', () => {
    const r = normalizeSearch({ results: [{ title: 'A', description: 'about A' }, 'B'] });
    assert.deepEqual(r, [{ title: 'A', snippet: 'about A', url: undefined }, { title: 'B' }]);
  });

  it('reads hits inside an envelope', () => {
    for (const body of [{ data: { results: hits } }, { result: hits }, { response: { data: { items: hits } } }]) {
      assert.deepEqual(
        normalizeSearch(body).map((r) => r.title),
        ['Alan Turing', 'Turing machine'],
        JSON.stringify(body),
      );
    }
  });

  it("reads MediaWiki's forms: pages with an excerpt, and OpenSearch's [query, titles, descriptions, urls]", () => {
    assert.deepEqual(
      normalizeSearch({ pages: [{ id: 1, key: 'Alan_Turing', title: 'Alan Turing', excerpt: 'Alan' }] }),
      [{ title: 'Alan Turing', snippet: 'Alan', url: undefined }],
    );
    const open = ['turing', ['Alan Turing', 'Turing machine'], ['English mathematician', ''], ['https://a.example/1']];
    assert.deepEqual(normalizeSearch(open), [
      { title: 'Alan Turing', snippet: 'English mathematician', url: 'https://a.example/1' },
      { title: 'Turing machine', snippet: undefined, url: undefined },
    ]);
  });

  it('skips hits without a title and returns [] for an unknown shape', () => {
    assert.deepEqual(normalizeSearch({ results: [{ snippet: 'no title' }] }), []);
    assert.deepEqual(normalizeSearch({ nothing: 1 }), []);
    assert.deepEqual(normalizeSearch(null), []);
  });
});

describe('encyclopedia normalisation: article', () => {
  const base = { title: 'Alan Turing', url: 'https://axo.example/wiki/Alan_Turing', summary: 'Mathematician.' };

  for (const field of ['content', 'extract', 'text']) {
    it(`reads the text from "${field}"`, () => {
      const a = normalizeArticle({ ...base, [field]: 'Body.' }, 'Alan Turing');
      assert.equal(a.content, 'Body.');
      assert.equal(a.title, 'Alan Turing');
      assert.equal(a.url, 'https://axo.example/wiki/Alan_Turing');
      assert.equal(a.summary, 'Mathematician.');
    });
  }

  it('reads an article inside an envelope', () => {
    for (const body of [
      { data: { ...base, content: 'Body.' } },
      { result: { article: { ...base, extract: 'Body.' } } },
    ]) {
      const a = normalizeArticle(body, 'Alan Turing');
      assert.equal(a.content, 'Body.', JSON.stringify(body));
      assert.equal(a.url, 'https://axo.example/wiki/Alan_Turing');
      assert.equal(a.unrecognised, undefined);
    }
  });

  it('reads an article given in sections or paragraphs, before its summary', () => {
    const sections = normalizeArticle(
      {
        ...base,
        sections: [
          { title: 'Early life', content: 'Born in London.' },
          { heading: 'Work', text: 'Computability.' },
          { content: 'No heading.' },
        ],
      },
      'Alan Turing',
    );
    assert.equal(sections.content, '## Early life\n\nBorn in London.\n\n## Work\n\nComputability.\n\nNo heading.');
    assert.equal(sections.summary, 'Mathematician.');
    const paragraphs = normalizeArticle({ title: 'T', paragraphs: ['One.', '', 'Two.'] }, 'T');
    assert.equal(paragraphs.content, 'One.\n\nTwo.');
  });

  it('uses the summary as text when there is no other', () => {
    assert.equal(normalizeArticle({ title: 'T', summary: 'Only a summary.' }, 'T').content, 'Only a summary.');
  });

  it('reads facts as an object, keeping order, with non-string values made readable', () => {
    const a = normalizeArticle(
      { ...base, content: 'x', facts: { Born: '23 June 1912', Age: 41, Fields: ['Maths', 'CS'] } },
      'Alan Turing',
    );
    assert.deepEqual(a.facts, [
      { name: 'Born', value: '23 June 1912' },
      { name: 'Age', value: '41' },
      { name: 'Fields', value: 'Maths, CS' },
    ]);
  });

  for (const nameKey of ['name', 'label', 'key']) {
    it(`reads facts as an array of {${nameKey}, value}`, () => {
      const a = normalizeArticle(
        { ...base, content: 'x', facts: [{ [nameKey]: 'Born', value: '1912' }] },
        'Alan Turing',
      );
      assert.deepEqual(a.facts, [{ name: 'Born', value: '1912' }]);
    });
  }

  it('reads facts as [name, value] pairs and never prints [object Object]', () => {
    assert.deepEqual(normalizeFacts([['Born', '1912']]), [{ name: 'Born', value: '1912' }]);
    assert.deepEqual(normalizeFacts(['Born: 23 June 1912', 'Known for: Turing machine', 'Cryptanalyst', ' ']), [
      { name: 'Born', value: '23 June 1912' },
      { name: 'Known for', value: 'Turing machine' },
      { name: 'Cryptanalyst', value: '' },
    ]);
    const nested = normalizeFacts({ Spouse: { name: 'None' } });
    assert.doesNotMatch(nested[0].value, /\[object Object\]/);
    assert.match(nested[0].value, /"name": "None"/);
  });

  for (const field of ['media', 'images']) {
    it(`reads "${field}" as URLs (strings or {url|src})`, () => {
      const a = normalizeArticle(
        {
          ...base,
          content: 'x',
          [field]: ['https://m.example/a.jpg', { url: 'https://m.example/b.png' }, { src: 'https://m.example/c.gif' }],
        },
        'Alan Turing',
      );
      assert.deepEqual(a.media, ['https://m.example/a.jpg', 'https://m.example/b.png', 'https://m.example/c.gif']);
    });
  }

  it('reads an article wrapped in {article: …} and its citations', () => {
    const a = normalizeArticle({ article: { ...base, content: 'x', sources: ['https://s.example/'] } }, 'Alan Turing');
    assert.equal(a.content, 'x');
    assert.deepEqual(a.citations, [{ title: 'https://s.example/', url: 'https://s.example/' }]);
  });

  it('keeps non-Latin titles and emoji in fact values intact', () => {
    const a = normalizeArticle({ title: '東京', content: '首都', facts: { Flag: '🇯🇵' } }, '東京');
    assert.equal(a.title, '東京');
    assert.deepEqual(a.facts, [{ name: 'Flag', value: '🇯🇵' }]);
  });

  it('falls back to the requested title and shows an unknown shape as JSON', () => {
    const a = normalizeArticle({ foo: 'bar' }, 'Requested');
    assert.equal(a.title, 'Requested');
    assert.equal(a.unrecognised, true);
    assert.match(a.content, /"foo": "bar"/);
    assert.deepEqual(a.facts, []);
  });
});
