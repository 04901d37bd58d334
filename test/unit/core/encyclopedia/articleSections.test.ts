import * as assert from 'node:assert/strict';
import { Marked } from 'marked';
import { articleForTool } from '../../../../src/core/encyclopedia/articleForTool';
import {
  INTRODUCTION,
  articleOutline,
  findSection,
  sectionSource,
  sectionText,
  splitSections,
} from '../../../../src/core/encyclopedia/articleSections';
import { articleResult } from '../../../../src/core/mcp/toolResults';
import type { Article } from '../../../../src/core/service/normalize';
import { assertGrowth } from '../../../support/growth';

/** The budget the tools give `articleForTool` (12,000 less the result's frame). */
const BUDGET = 11_800;

function articleOf(content: string, more: Partial<Article> = {}): Article {
  return { title: 'T', content, url: 'https://axo.example/wiki/T', facts: [], media: [], citations: [], ...more };
}

/** `count` sections `## Part i`, each `size` characters of words. */
function parts(count: number, size = 1_000): string {
  return Array.from({ length: count }, (_, i) => `## Part ${i + 1}\n\n${'word '.repeat(size / 5).trim()}`).join('\n\n');
}

function names(content: string): string[] {
  return splitSections(sectionSource(content)).map((s) => s.name);
}

/** Links and images rendered from Markdown (a result must show none from the service). */
function renderedLinks(markdown: string): string[] {
  const html = new Marked({ gfm: true }).parse(markdown, { async: false });
  return [...html.matchAll(/<(a|img|script)\b[^>]*>/g)].map((m) => m[0]);
}

describe('article sections', () => {
  it('split at the headings of one level, text before the first heading being the introduction', () => {
    const source = sectionSource(
      'Lead.\r\n\r\n## Early life\r\nBorn.\r\n### School\r\nSherborne.\r\n## Work ##\r\nBombe.',
    );
    const sections = splitSections(source);
    assert.deepEqual(
      sections.map((s) => s.name),
      [INTRODUCTION, 'Early life', 'Work'],
    );
    assert.equal(sectionText(source, sections[1]), 'Born.\n### School\nSherborne.');
    assert.equal(sectionText(source, sections[2]), 'Bombe.');
    assert.deepEqual(
      articleOutline(source, sections).map((e) => [e.number, e.name, e.chars]),
      [
        [1, INTRODUCTION, 5],
        [2, 'Early life', 27],
        [3, 'Work', 6],
      ],
    );
    assert.ok(articleOutline(source, sections).every((e) => e.tokens > 0));
  });

  it('take the shallowest level that occurs twice, so a lone title heading does not swallow the parts', () => {
    assert.deepEqual(names('# Alan Turing\n\n## A\n\na\n\n## B\n\nb'), [INTRODUCTION, 'A', 'B']);
    assert.deepEqual(names('Intro\n\n### Only\n\nx'), [INTRODUCTION, 'Only']);
  });

  it('have one section, the introduction, when the text has no heading', () => {
    assert.deepEqual(names('Just text.\n\nMore text. #hashtag and C# are no headings.\n#5 neither.'), [INTRODUCTION]);
    assert.deepEqual(names(''), [INTRODUCTION]);
    assert.deepEqual(names('####### seven is no heading'), [INTRODUCTION]);
  });

  it('see no heading inside fenced code, and close a fence only with its own kind', () => {
    const text = '## A\n\n```md\n## Not one\n~~~\n## Still not\n```\n\n## B\n\n~~~~\n## No\n~~~~\n## C';
    assert.deepEqual(names(text), ['A', 'B', 'C']);
    // An unclosed fence runs to the end, as it renders.
    assert.deepEqual(names('## A\n```\n## B'), ['A']);
  });

  it('make duplicate names unique, whatever their case and whatever names are taken already', () => {
    assert.deepEqual(names('## History\n## HISTORY\n## History (2)\n## history\n##\n## #'), [
      'History',
      'HISTORY (2)',
      'History (2) (2)',
      'history (3)',
      'Untitled section',
      'Untitled section (2)',
    ]);
  });

  it('keep a heading that injects Markdown, HTML or invisible characters as plain words, inert in the outline', () => {
    const heading =
      '[Quit](command:workbench.action.quit) <img src=x onerror=alert(1)> **bold** ![i](javascript:x)\u202e';
    const content = `## ${heading}\n\n${'x '.repeat(8_000)}\n\n## [ref]: javascript:alert(1)\n\ny`;
    const source = sectionSource(content);
    const [first, second] = splitSections(source);
    assert.equal(
      first.name,
      '[Quit](command:workbench.action.quit) <img src=x onerror=alert(1)> **bold** ![i](javascript:x)',
    );
    assert.equal(second.name, '[ref]: javascript:alert(1)');
    const result = articleForTool(articleOf(content), { budget: BUDGET });
    assert.equal(result.structured.shown, 'outline');
    assert.deepEqual(
      renderedLinks(result.text).filter((tag) => !/^<a href="https:\/\/axo\.example\//.test(tag)),
      [],
    );
    assert.doesNotMatch(result.text, /\u202e|<img/);
    // Asked for as it reads, it is found.
    assert.equal(findSection(splitSections(source), ` ${first.name.toUpperCase()} `), 0);
  });

  it('find a section by name (trimmed, any case, spaces folded) or by number, else none', () => {
    const sections = splitSections(sectionSource(parts(3)));
    assert.equal(findSection(sections, '  part   2 '), 1);
    assert.equal(findSection(sections, 'PART 3'), 2);
    assert.equal(findSection(sections, '1'), 0);
    assert.equal(findSection(sections, '4'), undefined);
    assert.equal(findSection(sections, '0'), undefined);
    assert.equal(findSection(sections, 'Part'), undefined);
    assert.equal(findSection(sections, '   '), undefined);
    // A heading that is a number is found by its name before the number.
    assert.equal(findSection(splitSections(sectionSource('## 2\n\na\n\n## 1984\n\nb')), '2'), 0);
  });
});

describe('articleForTool', () => {
  it('gives a short article whole, as the article result always was', () => {
    const article = articleOf(parts(3, 200), { facts: [{ name: 'Born', value: '1912' }] });
    const result = articleForTool(article, { budget: BUDGET });
    assert.equal(result.text, articleResult(article, BUDGET));
    assert.equal(result.structured.shown, 'whole');
    assert.deepEqual(
      result.structured.sections.map((s) => s.name),
      ['Part 1', 'Part 2', 'Part 3'],
    );
    assert.deepEqual(result.structured.facts, [{ name: 'Born', value: '1912' }]);
    assert.equal(result.structured.section, undefined);
  });

  it('gives a long article as its outline with sizes and its first section', () => {
    const article = articleOf(`Lead paragraph.\n\n${parts(30)}`, {
      facts: [{ name: 'Born', value: '1912' }],
      citations: [{ title: 'Source', url: 'https://e.example/s' }],
    });
    const { text, structured } = articleForTool(article, { budget: BUDGET });
    assert.ok(text.length <= BUDGET, `${text.length}`);
    assert.match(text, /^# T\nURL: https:\/\/axo\.example\/wiki\/T\n\nThis article has 30,\d{3} characters \(about/);
    assert.match(text, /in 31 sections, more than one result holds \(11,800 characters\)/);
    assert.match(
      text,
      /^## Outline\n\n1\. Introduction — 15 characters, about \d+ tokens\n2\. Part 1 — 999 characters/m,
    );
    assert.match(text, /^31\. Part 30 — 999 characters, about \d+ tokens$/m);
    assert.match(text, /^## Section 1 of 31: Introduction\n\nLead paragraph\.\n\n## Facts/m);
    assert.match(text, /^\| Born \| 1912 \|$/m);
    assert.match(text, /^\[1\] Source — https:\/\/e\.example\/s$/m);
    assert.equal(structured.shown, 'outline');
    assert.equal(structured.sectionCount, 31);
    assert.equal(structured.sections.length, 31);
    assert.deepEqual(structured.sections[1], { number: 2, name: 'Part 1', characters: 999, tokens: 200 });
    assert.deepEqual(structured.section, {
      number: 1,
      name: INTRODUCTION,
      characters: 15,
      tokens: structured.sections[0].tokens,
      shownCharacters: 15,
    });
  });

  it('gives the section asked for alone, and names the next one', () => {
    const article = articleOf(parts(30));
    const { text, structured } = articleForTool(article, { budget: BUDGET, section: ' part 7 ' });
    assert.match(
      text,
      /^# T\nURL: \S+\n\n## Section 7 of 30: Part 7\n\n(word ){199}word\n\nNext: section 8, “Part 8”\./,
    );
    assert.doesNotMatch(text, /## Outline|Trimmed/);
    assert.equal(structured.shown, 'section');
    assert.equal(structured.requested, 'part 7');
    assert.equal(structured.section?.name, 'Part 7');
    assert.match(articleForTool(article, { budget: BUDGET, section: '30' }).text, /This is the last of 30 sections\.$/);
    const empty = articleForTool(articleOf('## A\n## B\n\nb'), { budget: BUDGET, section: 'a' });
    assert.match(empty.text, /^## Section 1 of 2: A\n\nThis section has no text\.\n\nNext: section 2, “B”\./m);
    // A blank section is no section: the article as without one.
    assert.equal(articleForTool(article, { budget: BUDGET, section: '  ' }).structured.shown, 'outline');
  });

  it('answers a section no one has with the outline and a sentence naming the sections', () => {
    const { text, structured } = articleForTool(articleOf(parts(4)), { budget: BUDGET, section: 'Legacy' });
    assert.match(text, /The article has no section “Legacy”\. It has 4 sections, listed in the outline below/);
    assert.match(text, /^4\. Part 4 — 999 characters/m);
    assert.doesNotMatch(text, /## Section/);
    assert.equal(structured.shown, 'notFound');
    assert.equal(structured.sections.length, 4);
  });

  it('cuts a huge single section to the budget and says so', () => {
    const content = 'word '.repeat(200_000);
    const { text, structured } = articleForTool(articleOf(content), { budget: BUDGET });
    assert.ok(text.length <= BUDGET, `${text.length}`);
    assert.match(text, /^## Section 1 of 1: Introduction$/m);
    assert.match(
      text,
      /\[Trimmed to fit 11800 characters: the section was cut from 999,999 to \d{1,2},\d{3} characters\. The whole article is at https:\/\/axo\.example\/wiki\/T\.\]$/,
    );
    assert.equal(structured.section?.characters, 999_999);
    assert.ok((structured.section?.shownCharacters ?? 0) > 5_000);
    const asked = articleForTool(articleOf(`## Big\n\n${content}`), { budget: BUDGET, section: 'big' }).text;
    assert.ok(asked.length <= BUDGET);
    assert.match(asked, /the section was cut from 999,999 to/);
  });

  it('lists as many of thousands of sections as fit, and reads any of them by number', () => {
    const content = Array.from({ length: 5_000 }, (_, i) => `## History\n\nEvent ${i}.`).join('\n');
    const { text, structured } = articleForTool(articleOf(content), { budget: BUDGET });
    assert.ok(text.length <= BUDGET, `${text.length}`);
    assert.match(text, /^… and 4,9\d\d more sections, numbers \d+ to 5,000: ask for one by its number\.$/m);
    assert.equal(structured.sectionCount, 5_000);
    assert.ok(structured.sections.length > 20 && structured.sections.length < 200, `${structured.sections.length}`);
    const last = articleForTool(articleOf(content), { budget: BUDGET, section: '5000' });
    assert.match(last.text, /^## Section 5,000 of 5,000: History \(5000\)\n\nEvent 4999\.$/m);
    assert.equal(
      articleForTool(articleOf(content), { budget: BUDGET, section: 'history (4321)' }).structured.section?.number,
      4_321,
    );
    const missing = articleForTool(articleOf(content), { budget: BUDGET, section: 'nope' });
    assert.ok(missing.text.length <= BUDGET, `${missing.text.length}`);
  });

  it('keeps every result within the budget, whatever the service sends', () => {
    const hostile: Article[] = [
      articleOf('#'.repeat(100_000) + '\n' + ' '.repeat(100_000) + '#\n' + '`'.repeat(100_000)),
      articleOf(`## ${'h'.repeat(200_000)}\n\ntext`),
      articleOf(parts(40), {
        title: 'T'.repeat(40_000),
        facts: Array.from({ length: 500 }, (_, i) => ({ name: `N${i}`, value: 'v'.repeat(5_000) })),
        citations: Array.from({ length: 30 }, (_, i) => ({ title: 's'.repeat(5_000), url: `https://e.example/${i}` })),
      }),
    ];
    for (const article of hostile) {
      for (const section of [undefined, '1', '2', 'x'.repeat(5_000)]) {
        const { text, structured } = articleForTool(article, { budget: BUDGET, section });
        assert.ok(text.length <= BUDGET, `${text.length}`);
        assert.ok(JSON.stringify(structured).length <= 2 * BUDGET, `${JSON.stringify(structured).length}`);
      }
    }
  });

  it('splits, outlines and picks in time linear in the headings and in the text', function () {
    this.timeout(30_000);
    // Duplicate names that collide with numbered ones, headings in and out of fences, a long line of marks.
    const manyHeadings = (n: number) =>
      Array.from({ length: n }, (_, i) =>
        i % 3 === 0 ? `## A (${i})\n` : i % 3 === 1 ? '## A\n' : '```\n## B\n```\n',
      ).join('') + '#'.repeat(n);
    assertGrowth(
      'articleForTool, many headings',
      (n) => articleOf(manyHeadings(n)),
      (a) => articleForTool(a, { budget: BUDGET, section: 'a (2)' }),
      { n: 2_000, rounds: 3 },
    );
    const oneSection = (n: number) => articleOf(`## Big\n\n${'word  \t'.repeat(n)}${' '.repeat(n)}#`);
    assertGrowth(
      'articleForTool, one huge section',
      oneSection,
      (a) => articleForTool(a, { budget: BUDGET, section: 'big' }),
      { n: 40_000, rounds: 3 },
    );
  });
});
