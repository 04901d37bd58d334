import * as assert from 'node:assert/strict';
import { simpleContent } from '../../../../src/core/service/sseContent';
import { seededRandom } from '../../../fakeService/chunking';

/** `simpleContent` over a whole `data:` line's payload (after `data:`). */
const read = (payload: string): string | undefined => simpleContent(payload, 0, payload.length);

/** What JSON.parse makes of a payload's content, or undefined when it is not JSON. */
function parsed(payload: string): unknown {
  try {
    return (JSON.parse(payload) as { content?: unknown }).content;
  } catch {
    return undefined;
  }
}

describe('SSE fast path (content without JSON.parse)', () => {
  it('reads every escape servers write, as JSON.stringify writes them, without falling back to JSON.parse', () => {
    const contents = ['\n', '\n    ', 'say "hi"', 'C:\\Users\\you', '\tindent', 'a\r\nb', '\b\f', 'é🚀', '\u0001', ''];
    for (const content of contents) {
      for (const payload of [JSON.stringify({ content }), ` ${JSON.stringify({ content })}`]) {
        assert.equal(read(payload), content, payload);
      }
    }
    assert.equal(read('{"content":"\\u00e9\\ud83d\\ude80\\/"}'), 'é🚀/');
    assert.equal(read('{"content":"\\u00E9"}'), 'é');
  });

  it('leaves to JSON.parse what is not exactly {"content":"…"} or not a valid string', () => {
    const fallBack = [
      '{"content":"a\\"}', // the closing quote is escaped: not JSON
      '{"content":"a\\x"}',
      '{"content":"\\u12"}',
      '{"content":"\\u12g4"}',
      '{"content":"a"b"}',
      '{"content":"a","b":"c"}',
      '{"content":"tab\there"}',
      '{"content":"\\\\"}x',
      '{ "content":"x"}',
    ];
    for (const payload of fallBack) {
      assert.equal(read(payload), undefined, payload);
    }
  });

  it('agrees with JSON.parse on 20,000 random payloads made of escapes, quotes, backslashes and control characters', () => {
    const random = seededRandom(27);
    const pieces = [
      'a',
      ' ',
      '"',
      '\\',
      '\\\\',
      '\\"',
      '\\n',
      '\\t',
      '\\/',
      '\\u',
      '00e9',
      'D83D',
      '\\uDE80',
      '\n',
      'é',
      '}',
    ];
    let taken = 0;
    for (let n = 0; n < 20_000; n++) {
      let body = '';
      for (let k = Math.floor(random() * 8); k >= 0; k--) {
        body += pieces[Math.floor(random() * pieces.length)];
      }
      const payload = `{"content":"${body}"}`;
      const fast = read(payload);
      if (fast !== undefined) {
        taken++;
        assert.equal(fast, parsed(payload), payload);
      } else {
        // A fall-back is right only where JSON.parse refuses the payload (it has no other shape here).
        assert.throws(() => JSON.parse(payload), payload);
      }
    }
    assert.ok(taken > 2_000, `only ${taken} payloads took the fast path`);
  });
});
