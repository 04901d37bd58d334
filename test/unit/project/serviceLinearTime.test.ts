import * as assert from 'node:assert/strict';
import { lookupMarkdown } from '../../../src/core/encyclopedia/articleMarkdown';
import { hoverMarkdown } from '../../../src/core/encyclopedia/hoverText';
import type { LookupValue } from '../../../src/core/encyclopedia/lookupTypes';
import { tokenize } from '../../../src/core/encyclopedia/termIndex';
import { readText } from '../../../src/core/net/responseBody';
import { ServiceError } from '../../../src/core/service/errors';
import { normalizeChatReply } from '../../../src/core/service/normalize';
import { readContentDeltas } from '../../../src/core/service/sse';
import { simpleContent } from '../../../src/core/service/sseContent';
import { assertGrowth, assertGrowthAsync } from '../../support/growth';

/*
 * The growth tests of the service's readers and the encyclopedia's (rows of test/support/readers.ts). Each input is
 * sized so that a run at 8n of a linear reader takes some milliseconds of CPU time, while quadratic work on it would
 * take hundreds of milliseconds or more: far above the growth floor (15 ms), and growing 64 times where 16 (32 for the
 * bodies) is allowed.
 * Every reader is also held to 2 s of CPU time for one run at 8n (`maxMs`), the bound a user would notice.
 */

const MAX_MS = 2_000;
/** Each size's best of 5 runs, allowed to grow 16 times from n to 8n (linear work grows 8, quadratic 64 times). */
const GROWTH = { maxMs: MAX_MS, rounds: 5 };
/**
 * The growth allowed to the body readers: they build many short strings per chunk, and where the larger input's leave
 * the young generation the collector adds up to about 4 times on a busy machine (as in coreLinearTime.test.ts); at
 * 8n these bodies are long enough that quadratic work would take seconds, over `maxMs` as well as over this factor.
 */
const BODY_GROWTH = { ...GROWTH, factor: 32 };
const enc = new TextEncoder();

/** `run` done `times` times: a reader that takes well under a millisecond is measured over several runs. */
const repeated =
  <T>(run: (input: T) => unknown, times: number) =>
  (input: T): void => {
    for (let i = 0; i < times; i++) {
      run(input);
    }
  };

/** `text` as bytes cut every `step` bytes (a character's bytes may fall in two chunks). */
function cut(text: string, step: number): Uint8Array[] {
  const bytes = enc.encode(text);
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += step) {
    out.push(bytes.subarray(i, i + step));
  }
  return out;
}

/** A body that yields `chunks` one by one. */
async function* bodyOf(chunks: readonly Uint8Array[]): AsyncGenerator<Uint8Array> {
  for (const chunk of chunks) {
    yield chunk;
  }
}

/** A body that never ends: the same small chunk again and again. */
async function* endless(chunk: Uint8Array): AsyncGenerator<Uint8Array> {
  for (;;) {
    yield chunk;
  }
}

/** What the SSE reader yields for `chunks`, joined, and the error it ended with (if any). */
async function readSse(chunks: readonly Uint8Array[]): Promise<{ text: string; error?: unknown }> {
  let text = '';
  try {
    for await (const delta of readContentDeltas(bodyOf(chunks), { onSkipped: () => undefined })) {
      text += delta;
    }
    return { text };
  } catch (error) {
    return { text, error };
  }
}

/** The kind of a ServiceError, or what else was thrown. */
function kindOf(error: unknown): string {
  return error instanceof ServiceError ? error.kind : String(error);
}

/**
 * Text that made readers rescan: unclosed openers repeated, `\r` runs, one line without a line break (as the chat
 * page's readers are tried on, in test/unit/webview/chat/pageLinearTime.test.ts).
 */
const OPENERS: Record<string, (n: number) => string> = {
  '** repeated': (n) => '**a '.repeat(n),
  '$$ repeated': (n) => '$$a '.repeat(n),
  '\\[ repeated': (n) => '\\[a '.repeat(n),
  '` repeated': (n) => '`a '.repeat(n),
  '[ repeated': (n) => '[a '.repeat(n),
  '< repeated': (n) => '<a '.repeat(n),
  '\\r run': (n) => `a${'\r'.repeat(4 * n)}b`,
  'one line without a line break': (n) => 'word '.repeat(n),
};

/** An answer, an article and search results whose every text field from the service is `text`. */
function lookupValues(text: string): LookupValue[] {
  const citations = [{ title: text, url: 'https://axo.example/source' }, { title: text }];
  return [
    { kind: 'answer', answer: { query: text, model: text, text, citations } },
    {
      kind: 'article',
      requestedTitle: text,
      article: {
        title: text,
        summary: text,
        content: `${text}\n\n${text}`,
        url: 'https://axo.example/wiki/x',
        facts: [{ name: text, value: text }],
        media: [`https://axo.example/media/${text}`],
        citations,
      },
    },
    { kind: 'search', query: text, results: [{ title: text, snippet: text, url: 'https://axo.example/hit' }] },
  ];
}

/** A chat body `depth` levels deep: envelopes, then objects and lists of one item in turn, none a reply shape. */
function deepBody(depth: number): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i++) {
    value = i % 2 === 0 ? [value] : { x: value };
  }
  return { data: { result: value } };
}

describe('Service and encyclopedia readers of outside text run in linear time', function () {
  this.timeout(30_000);

  it('the SSE reader takes many tiny events, one event without a line end and CR runs in small chunks in linear time', async () => {
    // Each input is cut into chunks of 5 bytes; the reader must not rescan what it holds at each chunk.
    const inputs: Record<string, (n: number) => string> = {
      'many tiny events': (n) => `${'data: {"content":"a"}\n'.repeat(n)}data: [DONE]\n`,
      'many tiny events, each line ended by a CR': (n) => `${'data: {"content":"a"}\r'.repeat(n)}data: [DONE]\r`,
      'one event without a line end': (n) => `data: {"content":"${'ab\\n'.repeat(4 * n)}"}`,
      'a CR run': (n) => `data: {"content":"a"}${'\r'.repeat(16 * n)}data: [DONE]\n`,
      'unclosed [ lines held for one event': (n) => 'data: [\n'.repeat(n / 4),
    };
    for (const [name, make] of Object.entries(inputs)) {
      await assertGrowthAsync(`SSE, ${name}`, (n) => cut(make(n), 5), readSse, { n: 1_000, ...BODY_GROWTH });
    }
    assert.deepEqual(await readSse(cut(inputs['many tiny events'](7), 5)), { text: 'aaaaaaa' });
    assert.deepEqual(await readSse(cut(inputs['a CR run'](3), 5)), { text: 'a' });
    const noEnd = await readSse(cut(inputs['one event without a line end'](3), 5));
    assert.equal(noEnd.text, 'ab\n'.repeat(12));
    assert.equal(kindOf(noEnd.error), 'cut');
    const held = await readSse(cut(inputs['unclosed [ lines held for one event'](12), 5));
    assert.deepEqual([held.text, kindOf(held.error)], ['', 'cut']);
  });

  it('the SSE fast path reads one long data line and repeated escapes in linear time', () => {
    const read = (payload: string) => simpleContent(payload, 0, payload.length);
    const inputs: Record<string, (n: number) => string> = {
      'one long data line': (n) => ` {"content":"${'word '.repeat(n)}"}`,
      'escapes repeated': (n) => `{"content":"${'\\n\\"\\\\\\u00e9'.repeat(n)}"}`,
      'escapes repeated, then a bad one': (n) => `{"content":"${'\\t'.repeat(4 * n)}\\x"}`,
      'an unescaped quote at the end of a long line': (n) => `{"content":"${'a'.repeat(4 * n)}""}`,
    };
    for (const [name, make] of Object.entries(inputs)) {
      assertGrowth(`simpleContent, ${name}`, make, repeated(read, 8), { n: 2_500, ...GROWTH });
    }
    assert.equal(read(inputs['escapes repeated'](2)), '\n"\\é\n"\\é');
    assert.equal(read(inputs['one long data line'](2)), 'word word ');
    assert.equal(read(inputs['escapes repeated, then a bad one'](2)), undefined);
    assert.equal(read(inputs['an unescaped quote at the end of a long line'](2)), undefined);
  });

  it('a chat reply nested thousands of levels deep or made of long strings is normalized in linear time', () => {
    const inputs: Record<string, (n: number) => unknown> = {
      // Written at most 32 levels deep, whatever the depth: JSON.stringify would overflow the stack at 8n.
      'deep nesting': (n) => deepBody(4 * n),
      'many long text parts': (n) => ({ content: Array.from({ length: n }, () => ({ type: 'text', text: 'ab"\\' })) }),
      'a long string in an unknown shape': (n) => ({ note: '"\\<'.repeat(2 * n) }),
      'many strings in an unknown shape': (n) => ({ items: Array.from({ length: n }, (_, i) => `"${i}\\`) }),
    };
    for (const [name, make] of Object.entries(inputs)) {
      assertGrowth(`normalizeChatReply, ${name}`, make, repeated(normalizeChatReply, 8), { n: 500, ...GROWTH });
    }
    assert.equal(normalizeChatReply({ data: { choices: [{ message: { content: 'Hi' } }] } }), 'Hi');
    assert.equal(normalizeChatReply(inputs['many long text parts'](2)), 'ab"\\ab"\\');
    const deep = normalizeChatReply(deepBody(5_000));
    assert.ok(deep.startsWith('```json\n{\n  "data": {\n    "result": {\n      "x": [\n'), deep.slice(0, 80));
    assert.ok(deep.includes('…') && !deep.includes('bottom'), 'written only to its depth limit');
    const long = normalizeChatReply(inputs['a long string in an unknown shape'](20_000));
    assert.ok(long.length < 100_100 && long.endsWith('…\n```'), 'cut at 100,000 characters');
  });

  it('a body of many tiny chunks, or one past the limit, is read in linear time', async () => {
    // Three-byte chunks split the two bytes of each é; past the limit the body never ends, so only the limit stops it.
    await assertGrowthAsync(
      'readText, many tiny chunks',
      (n) => cut('é a '.repeat(n), 3),
      (c) => readText(bodyOf(c)),
      {
        n: 2_000,
        ...BODY_GROWTH,
      },
    );
    const pastLimit = async (limit: number) => {
      try {
        return await readText(endless(enc.encode('ab')), limit);
      } catch (error) {
        return error;
      }
    };
    await assertGrowthAsync('readText, a body past the limit', (n) => 2 * n, pastLimit, { n: 4_000, ...BODY_GROWTH });
    assert.equal(await readText(bodyOf(cut('é a '.repeat(3), 3))), 'é a é a é a ');
    const refused = await pastLimit(10 * 1024);
    assert.equal(kindOf(refused), 'badResponse');
    assert.match((refused as Error).message, /more than 10 KB/);
  });

  it('an encyclopedia value of unclosed openers, CR runs and one long line is written as Markdown in linear time', () => {
    const write = (values: LookupValue[]) => values.map(lookupMarkdown);
    for (const [name, make] of Object.entries(OPENERS)) {
      assertGrowth(`lookupMarkdown, ${name}`, (n) => lookupValues(make(n)), repeated(write, 4), { n: 250, ...GROWTH });
    }
    const [answer, article, search] = write(lookupValues('**a [b <c'));
    assert.match(answer, /^# \\\*\\\*a \\\[b \\<c\n/);
    assert.match(answer, /\n\*\*a \[b &lt;c\n/);
    assert.match(article, /\| \\\*\\\*a \\\[b \\<c \| \\\*\\\*a \\\[b \\<c \|/);
    assert.match(search, /^# Search: \\\*\\\*a/);
  });

  it('a hover for an encyclopedia value of unclosed openers, CR runs and one long line is written in linear time', () => {
    const write = (values: LookupValue[]) => values.map(hoverMarkdown);
    for (const [name, make] of Object.entries(OPENERS)) {
      assertGrowth(`hoverMarkdown, ${name}`, (n) => lookupValues(make(n)), repeated(write, 4), { n: 250, ...GROWTH });
    }
    const [answer, article, search] = write(lookupValues('**a [b'));
    assert.match(answer ?? '', /^\*\*\\\*\\\*a \\\[b\*\* · /);
    assert.match(article ?? '', /^\*\*\\\*\\\*a \\\[b\*\* · AXO encyclopedia\n\n\\\*\\\*a \\\[b\n/);
    assert.equal(search, undefined);
    const summary = (write(lookupValues(OPENERS['one line without a line break'](2_000)))[1] ?? '').split('\n\n')[1];
    assert.ok(summary.length <= 401 && summary.endsWith('…'), `the summary is clipped: ${summary.length} characters`);
  });

  it('a long line without a newline, punctuation runs and mixed CJK words are tokenized in linear time', () => {
    const inputs: Record<string, (n: number) => string> = {
      ...OPENERS,
      'punctuation runs': (n) => '!?.,;'.repeat(n),
      'one word of CJK and Latin': (n) => '漢a'.repeat(2 * n),
      'one word of wide letters that are not CJK': (n) => '한'.repeat(4 * n),
    };
    for (const [name, make] of Object.entries(inputs)) {
      assertGrowth(`tokenize, ${name}`, make, repeated(tokenize, 8), { n: 250, ...GROWTH });
    }
    assert.deepEqual(
      tokenize('Alan, 漢字a!', 10).map((t) => [t.text, t.start, t.end]),
      [
        ['alan', 10, 14],
        [',', 14, 15],
        ['漢', 16, 17],
        ['字', 17, 18],
        ['a', 18, 19],
        ['!', 19, 20],
      ],
    );
    assert.equal(tokenize(inputs['one word of wide letters that are not CJK'](1)).length, 1);
  });
});
