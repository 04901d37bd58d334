import * as assert from 'node:assert/strict';
import { tests as examples } from 'commonmark-spec';
import type { Browser, Page } from 'playwright-core';
import { MATHML_ATTRIBUTES, MATHML_ELEMENTS } from '../../../src/webview/chat/render/mathMarkup';
import { MATH_FORMULAS, mathReply } from '../../fakeService/chatContent';
import { openChatPage } from '../../support/chatPage';
import { MATH_SET } from '../../support/mathSet';
import { launchBrowser } from '../harness/browser';

/**
 * `window.streamExample(markdown, seed, n)`: streams `markdown` into the page as a reply of `chat/delta` messages of
 * 1–6 characters, letting a frame pass after about half of them, ends it (waiting for its code to be decorated), and
 * then shows the same reply loaded from history (rendered whole; waited for as a new last article, since a busy
 * machine may run a frame before the state's message). Returns both renderings' HTML: the streamed one without the
 * chunks that group its blocks.
 */
const STREAM_EXAMPLE = `
window.streamExample = async (markdown, seed, n) => {
  let a = seed;
  const random = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
  const post = (message) => window.postMessage(message, '*');
  const budget = { usedTokens: 0, limitTokens: 200000 };
  const state = (messages) => ({
    type: 'chat/state',
    state: { conversationId: 'example-' + n, title: 'Example', messages, conversations: [], models: [], model: 'alpha',
      pendingContext: [], budget, hasSelection: false },
  });
  const user = { id: 'u' + n, role: 'user', content: 'Example ' + n, createdAt: 1 };
  post(state([]));
  await frame();
  post({ type: 'chat/started', requestId: n, user, conversations: [], budget,
    reply: { id: 'a' + n, role: 'assistant', content: '', createdAt: 2, status: 'streaming' } });
  await frame();
  for (let i = 0; i < markdown.length;) {
    const size = 1 + Math.floor(random() * 6);
    post({ type: 'chat/delta', requestId: n, text: markdown.slice(i, i + size) });
    i += size;
    if (random() < 0.5) await frame();
  }
  post({ type: 'chat/done', requestId: n, status: 'done' });
  // Each read waits on what the page shows, however late a busy machine runs its tasks and frames.
  const until = async (what, shown) => {
    for (let i = 0; !shown(); i++) {
      if (i === 2000) throw new Error('example ' + n + ': ' + what + ' was not shown within 2,000 frames');
      await frame();
    }
  };
  const article = () => document.querySelector('main.log article:last-of-type');
  const content = () => article().querySelector('.content');
  await until('the end of the streamed reply', () => !document.querySelector('.live-block'));
  // Code in view is decorated when the page is next idle.
  await until('decorated code', () => !content().querySelector('.code-block.bare'));
  const streamed = Array.from(content().querySelectorAll('.blocks .chunk'), (c) => c.innerHTML).join('');
  const streamedArticle = article();
  post(state([user, { id: 'a' + n, role: 'assistant', content: markdown, createdAt: 2, status: 'done' }]));
  // The state message is a task of its own: the reply from history is drawn when a new article ends the log.
  await until('the reply from history', () => article() !== streamedArticle);
  await until('decorated code in the reply from history', () => !content().querySelector('.code-block.bare'));
  return { streamed, whole: content().innerHTML };
};
`;

/** What the last reply drew: its MathML elements and attributes, styled elements, links, formula sources, text. */
const DRAWN_MATH = `(() => {
  const content = Array.from(document.querySelectorAll('main.log article .content')).at(-1);
  const mathml = Array.from(content.querySelectorAll('math, math *'));
  return {
    elements: [...new Set(mathml.map((e) => e.localName))],
    attributes: [...new Set(mathml.flatMap((e) => e.getAttributeNames()))],
    styled: content.querySelectorAll('[style]').length,
    links: content.querySelectorAll('a, [data-url], [href]').length,
    sources: Array.from(content.querySelectorAll('code.math-source'), (c) => c.textContent),
    text: content.innerText,
  };
})()`;

/**
 * The built chat page in Chromium, fed real protocol messages: the CommonMark examples whose rendering depends on
 * text that comes later (link reference definitions, lists), streamed over real frames through the page's
 * StreamRenderer, end exactly as the same reply loaded from history.
 */
describe('Chat page: streamed Markdown ends as the whole reply renders', function () {
  this.timeout(180_000);
  let browser: Browser | undefined;
  let page: Page;

  before(async () => {
    browser = await launchBrowser('chat-page-markdown');
    page = await openChatPage(browser);
    await page.addScriptTag({ content: STREAM_EXAMPLE });
  });
  after(async () => {
    await browser?.close();
  });

  it('every CommonMark example with a link definition or in the Lists section ends as loaded from history', async () => {
    const chosen = examples.filter((e) => e.markdown.includes(']:') || e.section === 'Lists');
    assert.ok(chosen.length > 100, `${chosen.length} examples`);
    const differences: string[] = [];
    for (const example of chosen) {
      const { streamed, whole } = (await page.evaluate(
        ([markdown, seed, n]) =>
          (
            globalThis as unknown as {
              streamExample(m: string, s: number, n: number): Promise<{ streamed: string; whole: string }>;
            }
          ).streamExample(markdown, seed, n),
        [example.markdown, example.number * 7 + 1, example.number] as const,
      )) as { streamed: string; whole: string };
      if (streamed !== whole) {
        differences.push(`example ${example.number}: ${JSON.stringify(example.markdown)}\n  streamed: ${streamed}`);
      }
    }
    assert.deepEqual(differences, [], `${differences.length} of ${chosen.length} differ:\n${differences.join('\n')}`);
  });

  /** Streams `markdown` into the page (see STREAM_EXAMPLE) and returns both renderings' HTML. */
  async function streamExample(
    markdown: string,
    seed: number,
    n: number,
  ): Promise<{ streamed: string; whole: string }> {
    return (await page.evaluate(
      ([m, s, k]) =>
        (
          globalThis as unknown as {
            streamExample(m: string, s: number, n: number): Promise<{ streamed: string; whole: string }>;
          }
        ).streamExample(m, s, k),
      [markdown, seed, n] as const,
    )) as { streamed: string; whole: string };
  }

  it('every reply of the math set ends as loaded from history, its formulas as MathML', async () => {
    const differences: string[] = [];
    for (const [i, markdown] of MATH_SET.entries()) {
      const { streamed, whole } = await streamExample(markdown, i * 13 + 5, 10_000 + i);
      if (streamed !== whole) {
        differences.push(`math reply ${i}: ${JSON.stringify(markdown)}\n  streamed: ${streamed}\n  whole:    ${whole}`);
      }
    }
    assert.deepEqual(differences, [], differences.join('\n'));
  });

  it('a reply of 120 formulas from history (drawn over frames, like a long one) ends with every formula as MathML and its source markers linked', async () => {
    const formulas = Array.from({ length: 120 }, (_, i) => `x_{${i}}^2 + \\frac{${i}}{k+1}`);
    // Grounded: every step cites source [1] or [2], and `[3]` (no such source) stays text.
    const markdown = formulas.map((f, i) => `Step ${i}: $${f}$ holds [${(i % 2) + 1}].`).join('\n\n') + '\n\nNot [3].';
    const drawn = (await page.evaluate(`(async (content) => {
      const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
      const budget = { usedTokens: 0, limitTokens: 200000 };
      const messages = [
        { id: 'u-many', role: 'user', content: 'Many formulas', createdAt: 1 },
        { id: 'a-many', role: 'assistant', content, createdAt: 2, status: 'done', sources: [
          { title: 'One', kind: 'web', url: 'https://example.com/one' },
          { title: 'Two', kind: 'none' },
        ] },
      ];
      window.postMessage({ type: 'chat/state', state: { conversationId: 'many-formulas', title: 'Many', messages,
        conversations: [], models: [], model: 'alpha', pendingContext: [], budget, hasSelection: false } }, '*');
      const article = () => document.querySelector('main.log article:last-of-type');
      const count = () => article()?.querySelectorAll('.content math').length ?? 0;
      const drawing = () => count() < 120 || document.querySelector('.live-block');
      for (let frames = 0; drawing() && frames < 2000; frames++) await frame();
      const notes = Array.from(article()?.querySelectorAll('.content math annotation') ?? [], (a) => a.textContent);
      const citations = Array.from(article()?.querySelectorAll('.content a.citation') ?? [], (a) => a.textContent);
      return { count: count(), notes, citations, text: article()?.querySelector('.content')?.textContent ?? '' };
    })(${JSON.stringify(markdown)})`)) as {
      count: number;
      notes: string[];
      citations: string[];
      text: string;
    };
    assert.equal(drawn.count, 120);
    assert.deepEqual(drawn.notes, formulas, 'each formula once, in order, named by its TeX');
    assert.match(drawn.text, /^Step 0: .*Step 119: .*Not \[3\]\.\s*$/s);
    assert.deepEqual(
      drawn.citations,
      formulas.map((_, i) => `[${(i % 2) + 1}]`),
      'each marker of a source links to it, once',
    );
  });

  it("a streamed reply's end is decorated in the frame that draws it, not when the page is next idle", async () => {
    // 20 blocks (two chunks, neither shown yet) ending with code, posted with chat/done in one go: the reply ends in
    // chat/done's task. Then a reply whose last 20 KB come with chat/done: its end is drawn over frames.
    const code = (i: number) => `\`\`\`ts\nconst value${i} = compute(${i});\n\`\`\``;
    const short = Array.from({ length: 20 }, (_, i) => (i % 4 === 3 ? code(i) : `Paragraph ${i}.`)).join('\n\n');
    const long = Array.from({ length: 2000 }, (_, i) => (i % 4 === 3 ? code(i) : `Paragraph ${i} of a long one.`));
    const seen = (await page.evaluate(`(async (replies) => {
      const post = (message) => window.postMessage(message, '*');
      const frame = () => new Promise((r) => requestAnimationFrame(r));
      const budget = { usedTokens: 0, limitTokens: 200000 };
      const seen = [];
      for (const [n, [first, rest]] of replies.entries()) {
        post({ type: 'chat/state', state: { conversationId: 'end-' + n, title: 'End', messages: [], conversations: [],
          models: [], model: 'alpha', pendingContext: [], budget, hasSelection: false } });
        const user = { id: 'eu' + n, role: 'user', content: 'Code', createdAt: 1 };
        post({ type: 'chat/started', requestId: 70 + n, user, conversations: [], budget,
          reply: { id: 'ea' + n, role: 'assistant', content: '', createdAt: 2, status: 'streaming' } });
        if (first) {
          post({ type: 'chat/delta', requestId: 70 + n, text: first });
          for (let i = 0; i < 3; i++) await frame();
        }
        post({ type: 'chat/delta', requestId: 70 + n, text: rest });
        post({ type: 'chat/done', requestId: 70 + n, status: 'done' });
        const reply = () => document.querySelector('main.log article[data-id="ea' + n + '"]');
        // Every frame until the reply's live block is gone: then its last code block has its toolbar.
        let frames = 0;
        while (!reply() || reply().querySelector('.live-block')) {
          if (++frames > 600) throw new Error('reply ' + n + ' did not end');
          await frame();
        }
        const blocks = reply().querySelectorAll('.content .code-block');
        const last = blocks[blocks.length - 1];
        // And no code left plain in its last two chunks (the end's last frame may add several at once).
        const chunks = [...reply().querySelectorAll('.content .chunk')].slice(-2);
        const bare = chunks.reduce((n, c) => n + c.querySelectorAll('.code-block.bare').length, 0);
        seen.push({ frames, blocks: blocks.length, bare, decorated: !!last && !last.classList.contains('bare') &&
          !!last.querySelector('.code-toolbar button[data-code-action="copy"]') && !!last.querySelector('.hljs-keyword') });
      }
      return seen;
    })(${JSON.stringify([
      ['', short],
      [long.slice(0, 400).join('\n\n') + '\n\n', long.slice(400).join('\n\n')],
    ])})`)) as { frames: number; blocks: number; bare: number; decorated: boolean }[];
    assert.equal(seen[0].blocks, 5);
    assert.equal(seen[1].blocks, 500);
    assert.ok(seen[1].frames > 1, `the long end was drawn in ${seen[1].frames} frame(s), not over several`);
    assert.deepEqual(
      seen.map((s) => s.decorated),
      [true, true],
      'the last code block of each reply is highlighted and has its toolbar when the reply is drawn to its end',
    );
    assert.deepEqual(
      seen.map((s) => s.bare),
      [0, 0],
      "no code block of a reply's last two chunks is left plain when the reply is drawn to its end",
    );
  });

  it('lets through only the MathML Temml emits, with no inline style, and names each formula by its TeX', async () => {
    await streamExample(mathReply(), 7, 20_000);
    const drawn = (await page.evaluate(DRAWN_MATH)) as {
      elements: string[];
      attributes: string[];
      styled: number;
      links: number;
      sources: string[];
      text: string;
    };
    assert.deepEqual(
      drawn.elements.filter((e) => !MATHML_ELEMENTS.includes(e)),
      [],
    );
    assert.deepEqual(
      drawn.attributes.filter((a) => !MATHML_ATTRIBUTES.includes(a)),
      [],
    );
    assert.equal(drawn.styled, 0);
    assert.equal(drawn.links, 0, 'no formula became a link');
    assert.deepEqual(drawn.sources, [
      '$\\href{javascript:alert(1)}{click me}$',
      '$$\\url{command:workbench.action.quit}$$',
      '$\\def\\a{\\a\\a}\\a$',
    ]);
    assert.match(drawn.text, /It costs \$5 and \$10, or \$5–\$10 in bulk\./);
    // Chromium's accessibility tree: each formula is math, named by its TeX.
    const cdp = await page.context().newCDPSession(page);
    const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as {
      nodes: { role?: { value: string }; name?: { value: string } }[];
    };
    const named = nodes.filter((n) => n.role?.value === 'MathMLMath').map((n) => n.name?.value);
    assert.deepEqual(named.slice(-4), Object.values(MATH_FORMULAS));
    await cdp.detach();
  });
});
