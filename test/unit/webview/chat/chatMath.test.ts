import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import temml from 'temml';
import { performance } from 'node:perf_hooks';
import { FormulaCache } from '../../../../src/webview/chat/render/formulaCache';
import {
  MAX_FORMULA_CHARS,
  MAX_FORMULAS_PER_DRAWING,
  MAX_MATHML_PER_DRAWING,
} from '../../../../src/webview/chat/render/math';
import {
  MATHML_ATTRIBUTES,
  MATHML_ELEMENTS,
  MAX_MACRO_TOKENS,
  MAX_MATHML_CHARS,
  mathMarkup,
} from '../../../../src/webview/chat/render/mathMarkup';
import { MATH_FORMULAS, mathReply } from '../../../fakeService/chatContent';
import { MATH_SET } from '../../../support/mathSet';
import { everyChar, randomCuts, renderStreamed, renderWhole } from '../../../support/streamedMarkdown';

describe('chat webview: math', () => {
  it('every reply of the math set streamed in pieces ends rendered exactly as the whole text', () => {
    for (const [n, reply] of MATH_SET.entries()) {
      const whole = renderWhole(reply);
      assert.equal(renderStreamed(reply, everyChar(reply)), whole, `reply ${n}, one character at a time`);
      for (let seed = 1; seed <= 16; seed++) {
        const cuts = randomCuts(reply, n * 100 + seed, seed % 2 ? 5 : 30);
        assert.equal(renderStreamed(reply, cuts), whole, `reply ${n}, random cuts, seed ${seed}`);
      }
    }
  });

  it('renders inline and display math as MathML with its TeX as alttext and annotation', () => {
    const html = renderWhole(MATH_SET[0]);
    assert.equal((html.match(/<math /g) ?? []).length, 3, html);
    assert.match(html, /<div class="math-block"><math display="block" alttext="x = \\frac\{-b/);
    assert.match(html, /<annotation encoding="application\/x-tex">a \\neq 0<\/annotation>/);
    const parens = renderWhole(MATH_SET[2]);
    assert.equal((parens.match(/<math /g) ?? []).length, 2, parens);
    assert.match(parens, /<math display="block" alttext="\\int_0/);
  });

  it("renders the fake service's math reply: four formulas, the amounts as text, the hostile ones as source", () => {
    const html = renderWhole(mathReply());
    const alts = Array.from(html.matchAll(/<math [^>]*alttext="([^"]*)"/g), (m) => m[1].replace(/&amp;/g, '&'));
    assert.deepEqual(alts, Object.values(MATH_FORMULAS));
    assert.match(html, /<p>It costs \$5 and \$10, or \$5–\$10 in bulk\.<\/p>/);
    assert.equal((html.match(/<code class="math-source"/g) ?? []).length, 3, html);
    assert.equal(renderStreamed(mathReply(), everyChar(mathReply())), html);
  });

  it('leaves dollar amounts as text', () => {
    assert.equal(renderWhole(MATH_SET[1]), '<p>It costs $5 and $10, or $5–$10 in bulk; US$3 each.</p>\n');
    assert.equal(renderWhole('Between $ 5 and $ 6, or \\$x\\$.'), '<p>Between $ 5 and $ 6, or $x$.</p>\n');
  });

  it('shows an unfinished formula, and one a blank line leaves open, as text', () => {
    assert.equal(renderWhole('unfinished $$\n\\frac{1}{2}'), '<p>unfinished $$\n\\frac{1}{2}</p>\n');
    assert.equal(renderWhole('$$\nx = 1'), '<p>$$\nx = 1</p>\n');
    assert.equal(renderWhole('$$\nnot closed\n\nso text\n'), '<p>$$\nnot closed</p>\n<p>so text</p>\n');
    assert.equal(renderWhole('a $x + b'), '<p>a $x + b</p>\n');
  });

  it('shows a formula that does not parse, or a hostile one, as its source in code, with no link', () => {
    const html = renderWhole(MATH_SET[8]);
    assert.doesNotMatch(html, /<a |href=|<math/);
    assert.match(
      html,
      /<code class="math-source" title="Formula not rendered: [^"]*\\href[^"]*">\$\\href\{javascript:/,
    );
    assert.match(
      html,
      /<code class="math-source" title="[^"]*">\$\$\\url\{command:workbench\.action\.quit\}\$\$<\/code>/,
    );
    assert.match(renderWhole('$\\includegraphics{https://example.com/x.png}$'), /math-source/);
    assert.match(
      renderWhole('$$\n\\frac{1}{\n$$\n'),
      /<p class="math-source"><code [^>]*>\$\$\n\\frac\{1\}\{\n\$\$<\/code><\/p>/,
    );
  });

  it('bounds what a formula may cost: macro expansion, sizes, length', () => {
    assert.match(renderWhole('$\\def\\a{\\a\\a}\\a$'), /math-source/);
    assert.match(renderWhole('$$\\gdef\\b{x\\b}\\b$$'), /math-source/);
    const huge = mathMarkup(temml, '\\rule{100000em}{1em}\\hspace{5000pt}', false);
    assert.match(huge, /width="20em"/);
    assert.match(huge, /width="240pt"/);
    const long = `$${'x+'.repeat(MAX_FORMULA_CHARS)}x$`;
    assert.doesNotMatch(renderWhole(long), /<math/, 'an inline formula over the cap is text');
    const block = renderWhole(`$$\n${'x+'.repeat(MAX_FORMULA_CHARS)}x\n$$\n`);
    assert.match(block, /<code class="math-source" title="Formula longer than 4000 characters">/);
  });

  it('a macro defined in one formula does not reach the next (streamed and whole agree)', () => {
    const html = renderWhole('$\\gdef\\v{1}\\v$ then $\\v$');
    assert.equal((html.match(/<math /g) ?? []).length, 1, html);
    assert.match(html, /math-source[^>]*>\$\\v\$/);
  });

  it('emits no inline style, and only the MathML elements and attributes the page allows', () => {
    const corpus = [
      'x^2',
      '\\sqrt{x}\\sqrt[3]{y}',
      '\\left(\\sum_{i=1}^n x_i\\right)',
      '\\color{red}{x}\\colorbox{red}{y}\\rule{1em}{2em}',
      '\\begin{pmatrix}1&2\\\\3&4\\end{pmatrix}',
      "\\mathcal{L} f'(x)\\hat{x}\\vec{v}\\text{hi}\\;",
      '\\begin{aligned}a&=b\\\\c&=d\\end{aligned}',
      '\\cancel{x}\\boxed{x}\\fbox{y}\\phantom{z}\\raisebox{1em}{x}',
      '\\tag{1} x',
      '\\sideset{_a^b}{_c^d}\\sum \\overbrace{a+b}^{n}\\xrightarrow{f}\\binom{n}{k}',
      '\\begin{equation}x\\end{equation}\\genfrac(]{0pt}{2}{a}{b}\\tfrac12\\displaystyle x',
    ];
    const elements = new Set<string>();
    const attributes = new Set<string>();
    for (const tex of corpus) {
      const markup = mathMarkup(temml, tex, true);
      assert.doesNotMatch(markup, / style="/, tex);
      for (const [, element, rest] of markup.matchAll(/<([a-z]+)((?: [a-z]+="[^"]*")*)>/g)) {
        elements.add(element);
        for (const [, name] of rest.matchAll(/ ([a-z]+)="/g)) {
          attributes.add(name);
        }
      }
    }
    // `span` is the HTML counter of an equation number (`\begin{equation}`), inside `mtext`.
    assert.deepEqual(
      [...elements].filter((e) => !MATHML_ELEMENTS.includes(e) && e !== 'span'),
      [],
    );
    assert.deepEqual(
      [...attributes].filter((a) => !MATHML_ATTRIBUTES.includes(a)),
      [],
    );
    assert.ok(elements.size >= 25 && attributes.size >= 15, `${elements.size} elements, ${attributes.size} attributes`);
  });

  it('allows no MathML element or attribute Temml does not emit', () => {
    const source = readFileSync(require.resolve('temml'), 'utf8');
    for (const element of MATHML_ELEMENTS) {
      assert.ok(source.includes(`"${element}"`), `Temml emits <${element}>`);
    }
    for (const name of MATHML_ATTRIBUTES.filter((a) => !['class', 'alttext', 'aria-label'].includes(a))) {
      assert.ok(source.includes(`setAttribute("${name}"`), `Temml sets ${name}`);
    }
  });
});

describe('chat webview: what math may cost the page', function () {
  this.timeout(60_000);

  /** A macro pasting its argument 40 times, applied twice: 1,600 copies of the argument. */
  const multiplying = (argument: string) => `\\def\\a#1{${'#1'.repeat(40)}}\\def\\b#1{\\a{\\a{#1}}}\\b{${argument}}`;

  it('a formula whose MathML passes the bound is shown as its TeX, with the reason', () => {
    const tex = multiplying('xxxxxxx');
    assert.throws(() => mathMarkup(temml, tex, true), /MathML is longer than 100000 characters/);
    const html = renderWhole(`$$\n${tex}\n$$\n`);
    assert.doesNotMatch(html, /<math/);
    assert.match(
      html,
      /<p class="math-source"><code class="math-source" title="Formula not rendered: Its MathML is longer/,
    );
    assert.ok(html.length < (2 * MAX_MATHML_CHARS) / 10, `${html.length} characters`);
    // An ordinary long formula stays far below it.
    assert.ok(mathMarkup(temml, 'x_{i_{j_{k}}}+'.repeat(280), true).length < MAX_MATHML_CHARS / 2);
  });

  it('the macros a formula defines are bounded by the tokens they produce, not only by their expansions', () => {
    // 314 characters that made 3.2 MB of MathML in 11.6 s of Temml: 42 expansions, under maxExpand.
    const tex = multiplying('x'.repeat(200));
    const started = performance.now();
    assert.throws(() => mathMarkup(temml, tex, true), /macros expand to more than 20000 tokens/);
    assert.ok(performance.now() - started < 2_000, `${Math.round(performance.now() - started)} ms`);
    assert.match(renderWhole(`$$\n${tex}\n$$\n`), /<code class="math-source" title="Formula not rendered: Its macros/);
    // Macros that paste what they are given as Temml does, delimited and nested.
    assert.match(mathMarkup(temml, '\\def\\p(#1,#2){#1^{#2}} \\p(a,b)', false), /<msup><mi>a<\/mi><mi>b<\/mi><\/msup>/);
    assert.equal((mathMarkup(temml, '\\def\\a#1{#1#1}\\a{\\a{x}}', false).match(/<mi>x<\/mi>/g) ?? []).length, 4);
    assert.ok(MAX_MACRO_TOKENS < MAX_MATHML_CHARS);
  });

  it('the formula cache is bounded by the characters it holds, not only by entries', () => {
    const cache = new FormulaCache<{ html: string }>(512, 10_000);
    for (let i = 0; i < 100; i++) {
      cache.set(`D${i}`, { html: 'm'.repeat(1_000) });
      assert.ok(cache.size().chars <= 10_000, `${cache.size().chars} characters after ${i + 1}`);
    }
    assert.equal(cache.size().entries, 9);
    assert.equal(cache.get('D99')?.html.length, 1_000);
    assert.equal(cache.get('D0'), undefined);
    cache.set('big', { html: 'm'.repeat(20_000) });
    assert.equal(cache.get('big'), undefined);
    const counted = new FormulaCache<{ html: string }>(2, 1_000_000);
    ['a', 'b', 'c'].forEach((key) => counted.set(key, { html: key }));
    assert.deepEqual(counted.size(), { entries: 2, chars: 4 });
  });

  it('one drawing shows at most MAX_FORMULAS_PER_DRAWING formulas as MathML; the rest stay TeX', () => {
    // `text` then `$$x` lines pair into inline formulas: 8,000 of them drawn at once took 0.7–0.9 s of layout.
    const started = performance.now();
    const html = renderWhole(`text\n${'$$x\n'.repeat(16_000)}`);
    const took = performance.now() - started;
    assert.equal((html.match(/<math /g) ?? []).length, MAX_FORMULAS_PER_DRAWING);
    const asTex = (html.match(/<code class="math-source" title="Over 200 formulas/g) ?? []).length;
    assert.equal(asTex, 8_000 - MAX_FORMULAS_PER_DRAWING);
    assert.ok(took < 5_000, `${Math.round(took)} ms`);
    // Each drawing counts afresh: a reply streamed in parts draws each part's formulas.
    assert.equal((renderWhole('$a$ and $b$').match(/<math /g) ?? []).length, 2);
    assert.ok(MAX_MATHML_PER_DRAWING >= MAX_FORMULAS_PER_DRAWING * 1_000);
  });
});
