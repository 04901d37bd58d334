import * as assert from 'node:assert/strict';
import { ServiceError } from '../../../../src/core/service/errors';
import { MAX_EVENT_CHARS, readContentDeltas } from '../../../../src/core/service/sse';

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

async function collectError(
  body: AsyncIterable<Uint8Array>,
  maxEventChars?: number,
): Promise<{ text: string; error?: ServiceError }> {
  let text = '';
  try {
    for await (const delta of readContentDeltas(body, {}, { maxEventChars })) {
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
  it("ends a reply without [DONE] as whole after another server's own end event, and as cut off without one", async () => {
    const ends = [
      { type: 'message_stop' },
      { model: 'alpha', message: { role: 'assistant', content: '' }, done: true },
      { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
      { candidates: [{ content: { parts: [] }, finishReason: 'STOP' }] },
    ];
    for (const end of ends) {
      const { text, error } = await collectError(chunks(`${ev('Whole')}data: ${JSON.stringify(end)}\n\n`, 5));
      assert.equal(text, 'Whole');
      assert.equal(error, undefined, JSON.stringify(end));
    }
    const cut = await collectError(chunks(ev('Half'), 5));
    assert.equal(cut.text, 'Half');
    assert.equal(cut.error?.kind, 'cut');
  });

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

  it('throws a streamError for an event named error, or of type error, whose payload has only a message', async () => {
    const cases = [
      `event: error\ndata: {"message":"Overloaded"}\n\n`,
      `event: error\ndata: {"message":"Overloaded"}\n`,
      `event:error\r\ndata: Overloaded\r\n\r\n`,
      `event: error\ndata: Overloaded\n`,
      `data: {"type":"error","message":"Overloaded"}\n\n`,
      `event: error\ndata: {"detail":"Overloaded"}\n\n`,
    ];
    for (const tail of cases) {
      const { text, error } = await collectError(chunks(`${ev('kept')}${tail}${ev('never')}`, 3));
      assert.equal(text, 'kept', JSON.stringify(tail));
      assert.equal(error?.kind, 'streamError', JSON.stringify(tail));
      assert.match(error?.message ?? '', /during the reply: Overloaded$/, JSON.stringify(tail));
    }
    // The name belongs to its own event only: a later message-only event, or one named otherwise, is skipped.
    const skipped: string[] = [];
    const out = await collect(
      chunks(
        `event: error\ndata: {"content":"a"}\n\nevent: ping\ndata: {"message":"b"}\n\ndata: {"message":"c"}\n\ndata: [DONE]\n\n`,
      ),
      skipped,
    );
    assert.equal(out.join(''), 'a');
    assert.deepEqual(skipped, ['an event had no content', 'an event had no content']);
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

  it('gives every payload the content JSON.parse gives it, escapes and odd spacing included', async () => {
    const payloads = [
      '{"content":"plain"}',
      '{"content":""}',
      '{"content":"say \\"hi\\""}',
      '{"content":"back\\\\slash"}',
      '{"content":"line\\nbreak\\ttab"}',
      '{"content":"\\u00e9\\ud83d\\ude80"}',
      '{"content":"é🚀"}',
      '{"content":"a","role":"assistant"}',
      '{"role":"assistant","content":"b"}',
      '{ "content" : "spaced" }',
      '{"content":"trailing"}   ',
      '{"content":"x"}{"content":"y"}',
      '{"content":"}',
      '{"content":"\t"}',
    ];
    for (const payload of payloads) {
      let expected = '';
      try {
        const content = (JSON.parse(payload) as { content?: unknown }).content;
        expected = typeof content === 'string' ? content : '';
      } catch {
        // Not JSON: skipped, no content.
      }
      for (const data of [`data: ${payload}`, `data:${payload}`]) {
        const out = await collect(chunks(`${data}\ndata: [DONE]\n`));
        assert.equal(out.join(''), expected, data);
      }
    }
  });

  describe('framed as the spec says: one data: line per event, no blank line', () => {
    /** A body that sends `parts` one by one, recording how many were pulled, and never ends by itself. */
    function heldOpen(parts: string[]): { body: AsyncIterable<Uint8Array>; pulled: () => number } {
      let pulled = 0;
      async function* body(): AsyncGenerator<Uint8Array> {
        for (const part of parts) {
          pulled++;
          yield enc.encode(part);
        }
        await new Promise(() => undefined);
      }
      return { body: body(), pulled: () => pulled };
    }

    it("yields each line's content when its line ends, before the next chunk is read", async () => {
      const source = heldOpen(['data: {"content":"a"}\n', 'data: {"content":"b"}\n', 'data: [DONE]\n']);
      const seen: string[] = [];
      for await (const delta of readContentDeltas(source.body)) {
        seen.push(`${delta}@${source.pulled()}`);
      }
      assert.deepEqual(seen, ['a@1', 'b@2']);
    });

    it('ends at [DONE] although the body never ends and no blank line ever comes', async () => {
      const source = heldOpen([`${'data: {"content":"x"}\n'.repeat(3)}data: [DONE]\n`]);
      assert.equal((await collect(source.body)).join(''), 'xxx');
    });

    it('reads LF, CRLF and lone CR line ends, cut at every byte', async () => {
      for (const eol of ['\n', '\r\n', '\r']) {
        const stream = `data: {"content":"x"}${eol}: ping${eol}data: {"content":"y"}${eol}data: [DONE]${eol}`;
        for (let step = 1; step <= 8; step++) {
          assert.equal((await collect(chunks(stream, step))).join(''), 'xy', `${JSON.stringify(eol)} step ${step}`);
        }
      }
    });

    it('does not take the LF after a CR that ended a chunk for a blank line', async () => {
      async function* body(): AsyncGenerator<Uint8Array> {
        yield enc.encode('data: {"content":\r');
        yield enc.encode('\ndata: "split"}\r\n\r\ndata: [DONE]\r\n');
      }
      const skipped: string[] = [];
      assert.equal((await collect(body(), skipped)).join(''), 'split');
      assert.deepEqual(skipped, []);
    });
  });

  describe('the standard form: several data: lines, then a blank line', () => {
    it('reads each line that is JSON on its own as its own event', async () => {
      const stream = 'data: {"content":"a"}\ndata: {"content":"b"}\n\ndata: [DONE]\n\n';
      assert.equal((await collect(chunks(stream, 3))).join(''), 'ab');
    });

    it('joins the lines of one JSON object split across data: lines and parses it at the blank line', async () => {
      const stream =
        'data: {"content":\ndata: "one object",\ndata: "n": 1}\n\ndata: {"content":"!"}\n\ndata: [DONE]\n\n';
      for (let step = 1; step <= 6; step++) {
        const skipped: string[] = [];
        assert.equal((await collect(chunks(stream, step), skipped)).join(''), 'one object!', `step ${step}`);
        assert.deepEqual(skipped, []);
      }
    });

    it('keeps reading lines after a line that is not JSON, and reports that line once', async () => {
      const skipped: string[] = [];
      const stream = 'data: {"content": "oops\ndata: {"content":"a"}\ndata: {"content":"b"}\ndata: [DONE]\n';
      assert.equal((await collect(chunks(stream, 4), skipped)).join(''), 'ab');
      assert.deepEqual(skipped, ['an event was not valid JSON']);
    });
  });

  describe('bounded memory', () => {
    it('stops with a clear message, keeping the text, when one line grows past the limit', async () => {
      const stream = `${ev('kept')}data: {"content":"${'x'.repeat(5000)}"}\n\n${ev('never')}data: [DONE]\n\n`;
      const { text, error } = await collectError(chunks(stream, 100), 1000);
      assert.equal(text, 'kept');
      assert.equal(error?.kind, 'badResponse');
      assert.match(error?.message ?? '', /sent an event larger than 1 KB/);
    });

    it('stops when an unfinished line never ends, without waiting for the body to end', async () => {
      let pulled = 0;
      async function* endless(): AsyncGenerator<Uint8Array> {
        yield enc.encode(ev('kept'));
        for (;;) {
          pulled++;
          yield enc.encode('data: {"content":"' + 'y'.repeat(100));
        }
      }
      const { text, error } = await collectError(endless(), 1000);
      assert.equal(text, 'kept');
      assert.match(error?.message ?? '', /larger than/);
      assert.ok(pulled <= 11, `stopped after ${pulled} chunks`);
    });

    it('stops when the held lines of one event grow past the limit', async () => {
      const stream = `${ev('kept')}${'data: not json at all\n'.repeat(100)}\n`;
      const { text, error } = await collectError(chunks(stream, 50), 1000);
      assert.equal(text, 'kept');
      assert.match(error?.message ?? '', /larger than/);
    });

    it('refuses a real line over 8 MiB and reads one just under it', async () => {
      const under = 'u'.repeat(MAX_EVENT_CHARS - 100);
      const ok = await collectError(chunks(`${ev(under)}data: [DONE]\n`, 65_536));
      assert.equal(ok.text.length, under.length);
      assert.equal(ok.error, undefined);
      const { text, error } = await collectError(chunks(`${ev('kept')}${ev(under + 'o'.repeat(200))}`, 65_536));
      assert.equal(text, 'kept');
      assert.match(error?.message ?? '', /larger than 8 MB/);
    });
  });

  describe('JSON lines (NDJSON), as Ollama streams: no data:, no [DONE]', () => {
    async function lines(
      body: AsyncIterable<Uint8Array>,
      framing: 'sse' | 'jsonLines',
      maxEventChars?: number,
    ): Promise<{ deltas: string[]; skipped: string[]; error?: ServiceError }> {
      const deltas: string[] = [];
      const skipped: string[] = [];
      try {
        for await (const delta of readContentDeltas(
          body,
          { onSkipped: (reason) => skipped.push(reason) },
          { framing, maxEventChars },
        )) {
          deltas.push(delta);
        }
        return { deltas, skipped };
      } catch (error) {
        assert.ok(error instanceof ServiceError, `expected a ServiceError, got ${String(error)}`);
        return { deltas, skipped, error };
      }
    }
    const ollama = (content: string, done = false) =>
      JSON.stringify({ model: 'alpha', message: { role: 'assistant', content }, done }) + '\n';

    it('reads each line as a payload, at every chunk size, and ends at the end of the body', async () => {
      const body = ollama('Grüße, ') + ollama('wörld 👋') + ollama('', true);
      for (const step of [0, 1, 3, 7, 64]) {
        const { deltas, skipped, error } = await lines(chunks(body, step), 'jsonLines');
        assert.equal(deltas.join(''), 'Grüße, wörld 👋', `step ${step}`);
        assert.deepEqual(skipped, [], `step ${step}`);
        assert.equal(error, undefined, `step ${step}`);
      }
      // The spec's own payloads as lines, CRLF, blank keep-alive lines, an RFC 7464 record separator, no end event
      // and no line end after the last: the clean end of the body is the reply's end, not a cut.
      const spec = '{"content":"a"}\r\n\r\n\u001e{"content":"b"}\n  \n{"content":"c"}';
      const { deltas, error } = await lines(chunks(spec, 2), 'jsonLines');
      assert.equal(deltas.join(''), 'abc');
      assert.equal(error, undefined);
    });

    it('skips and reports a line that is not JSON, and stops at an error payload keeping what came before', async () => {
      const { deltas, skipped, error } = await lines(
        chunks(`${ollama('kept')}not json\n{"error":"model not found"}\n${ollama('never')}`, 5),
        'jsonLines',
      );
      assert.equal(deltas.join(''), 'kept');
      assert.deepEqual(skipped, ['a line was not valid JSON']);
      assert.equal(error?.kind, 'streamError');
      assert.match(error?.message ?? '', /model not found/);
    });

    it('reads only data: lines of an event stream, as the spec says, and data: lines of JSON lines too', async () => {
      // A bare JSON line in an event stream is one of the "other lines", ignored, even as its first line.
      const sse = await lines(
        chunks(`${ollama('not this')}${ev('events ')}${ollama('nor this')}data: [DONE]\n`, 4),
        'sse',
      );
      assert.equal(sse.deltas.join(''), 'events ');
      assert.equal(sse.error, undefined);
      const mixed = await lines(chunks(`${ollama('lines ')}${ev('and events')}`, 4), 'jsonLines');
      assert.equal(mixed.deltas.join(''), 'lines and events');
      assert.equal(mixed.error, undefined);
    });

    it('stops with a clear message when a line grows past the limit', async () => {
      const { deltas, error } = await lines(
        chunks(`${ollama('kept')}${ollama('x'.repeat(5000))}`, 100),
        'jsonLines',
        1000,
      );
      assert.equal(deltas.join(''), 'kept');
      assert.match(error?.message ?? '', /larger than 1 KB/);
    });
  });
});
