import * as assert from 'node:assert/strict';
import { ServiceError } from '../../src/core/errors';
import { readContentDeltas } from '../../src/core/sse';

const enc = new TextEncoder();

/** Feeds `text` as bytes cut at the given byte offsets (or every `step` bytes). */
async function* chunks(text: string | Uint8Array, step = 0): AsyncGenerator<Uint8Array> {
  const bytes = typeof text === 'string' ? enc.encode(text) : text;
  if (step <= 0) {
    yield bytes;
    return;
  }
  for (let i = 0; i < bytes.length; i += step) {
    yield bytes.slice(i, i + step);
  }
}

async function collect(body: AsyncIterable<Uint8Array>, skipped: string[] = []): Promise<string[]> {
  const out: string[] = [];
  for await (const delta of readContentDeltas(body, { onSkipped: (reason) => skipped.push(reason) })) {
    out.push(delta);
  }
  return out;
}

async function collectError(body: AsyncIterable<Uint8Array>): Promise<{ text: string; error?: ServiceError }> {
  let text = '';
  try {
    for await (const delta of readContentDeltas(body)) {
      text += delta;
    }
    return { text };
  } catch (error) {
    assert.ok(error instanceof ServiceError, `expected a ServiceError, got ${String(error)}`);
    return { text, error };
  }
}

const ev = (content: string) => `data: ${JSON.stringify({ content })}\n\n`;

describe('SSE reader', () => {
  it('appends content in order and stops at [DONE]', async () => {
    const out = await collect(chunks(ev('Hel') + ev('lo') + 'data: [DONE]\n\n', 7));
    assert.equal(out.join(''), 'Hello');
  });

  it('joins the deltas of one network chunk into one string', async () => {
    const out = await collect(chunks(ev('a') + ev('b') + ev('c') + 'data: [DONE]\n\n'));
    assert.deepEqual(out, ['abc']);
  });

  it('keeps a multi-byte character whole when it is split across chunks, at every split point', async () => {
    const text = 'café 🚀 東京 👨‍👩‍👧';
    const stream = ev(text) + 'data: [DONE]\n\n';
    for (let step = 1; step <= 9; step++) {
      assert.equal((await collect(chunks(stream, step))).join(''), text, `step ${step}`);
    }
  });

  it('handles CRLF and lone CR line endings', async () => {
    for (const eol of ['\r\n', '\r']) {
      const stream = `data: {"content":"x"}${eol}${eol}data: {"content":"y"}${eol}${eol}data: [DONE]${eol}${eol}`;
      assert.equal((await collect(chunks(stream, 3))).join(''), 'xy', JSON.stringify(eol));
    }
  });

  it('drops a UTF-8 BOM at the start', async () => {
    const body = new Uint8Array([0xef, 0xbb, 0xbf, ...enc.encode(ev('ok') + 'data: [DONE]\n\n')]);
    assert.equal((await collect(chunks(body, 2))).join(''), 'ok');
  });

  it('ignores comments, event: and id: lines', async () => {
    const stream = `: keep-alive\n\nevent: message\nid: 1\n${ev('a')}: ping\nretry: 10\n${ev('b')}data: [DONE]\n\n`;
    assert.equal((await collect(chunks(stream, 5))).join(''), 'ab');
  });

  it('trims the payload and accepts data: without a space', async () => {
    const stream = 'data:{"content":"a"}\n\ndata:    {"content":"b"}   \n\ndata:[DONE]\n\n';
    assert.equal((await collect(chunks(stream))).join(''), 'ab');
  });

  it('treats each data: line as its own event even without a blank line between them', async () => {
    const stream = 'data: {"content":"a"}\ndata: {"content":"b"}\ndata: [DONE]\n\n';
    assert.equal((await collect(chunks(stream))).join(''), 'ab');
  });

  it('skips payloads without content, or with bad JSON, and reports them', async () => {
    const skipped: string[] = [];
    const stream = `data: {"role":"assistant"}\n\ndata: {"content": "oops\n\n${ev('ok')}data: 42\n\ndata: [DONE]\n\n`;
    assert.equal((await collect(chunks(stream), skipped)).join(''), 'ok');
    assert.deepEqual(skipped, [
      'an event had no content',
      'an event was not valid JSON',
      'an event was not a JSON object',
    ]);
  });

  it('throws a streamError for an error payload, after yielding what came before', async () => {
    const stream = `${ev('partial')}data: {"error":{"message":"The model is overloaded"}}\n\n${ev('never')}`;
    const { text, error } = await collectError(chunks(stream, 4));
    assert.equal(text, 'partial');
    assert.equal(error?.kind, 'streamError');
    assert.match(error?.message ?? '', /The model is overloaded/);
  });

  it('accepts an error given as a plain string', async () => {
    const { error } = await collectError(chunks('data: {"error":"quota exceeded"}\n\n'));
    assert.match(error?.message ?? '', /quota exceeded/);
  });

  it('keeps the text and throws cut when the stream ends without [DONE]', async () => {
    const { text, error } = await collectError(chunks(ev('half a rep') + ev('ly'), 6));
    assert.equal(text, 'half a reply');
    assert.equal(error?.kind, 'cut');
    assert.match(error?.message ?? '', /cut off/);
  });

  it('reads a last event that has no blank line after it', async () => {
    const { text, error } = await collectError(chunks(`${ev('a')}data: {"content":"b"}\ndata: [DONE]`));
    assert.equal(text, 'ab');
    assert.equal(error, undefined);
  });

  it('reads nothing after [DONE]', async () => {
    let pulledAfterDone = false;
    async function* body() {
      yield enc.encode(ev('x') + 'data: [DONE]\n\n');
      pulledAfterDone = true;
      yield enc.encode(ev('y'));
    }
    assert.equal((await collect(body())).join(''), 'x');
    assert.equal(pulledAfterDone, false);
  });

  it('reads a 1 MB single event', async () => {
    const big = 'é'.repeat(500_000);
    const out = await collect(chunks(ev(big) + 'data: [DONE]\n\n', 16_384));
    assert.equal(out.join(''), big);
  });

  it('passes through an empty content string without yielding', async () => {
    const out = await collect(chunks(ev('') + ev('z') + 'data: [DONE]\n\n', 1));
    assert.equal(out.join(''), 'z');
  });
});
