import * as assert from 'node:assert/strict';
import { errorFromResponse } from '../../../../src/core/service/httpErrors';
import { SecretScrubber } from '../../../../src/core/service/secretScrubber';
import { SkipLog } from '../../../../src/core/service/skipLog';
import { readContentDeltas } from '../../../../src/core/service/sse';
import type { Logger } from '../../../../src/core/logger';
import { assertGrowth } from '../../../support/growth';

const KEY = 'sk-live-4fG7hJ2kL9mN3pQ8';

function recordingLogger(lines: string[]): Logger {
  const write = (message: string) => void lines.push(message);
  return { trace: write, debug: write, info: write, warn: write, error: write };
}

/** The log lines of a reply whose SSE body is `body`, read through the skip log the chat client uses. */
async function skipLogOf(body: string): Promise<string> {
  const lines: string[] = [];
  const scrubber = new SecretScrubber().add(KEY);
  const skips = new SkipLog(recordingLogger(lines), (text) => scrubber.scrub(text));
  const bytes = (async function* () {
    yield new TextEncoder().encode(body);
  })();
  for await (const _ of readContentDeltas(bytes, { onSkipped: skips.skipped })) {
    // The deltas do not matter here.
  }
  skips.end();
  return lines.join('\n');
}

/** Whether `text` shows any 6 characters in a row of the key (beyond its `sk-` prefix). */
function showsKey(text: string): boolean {
  for (let i = 3; i + 6 <= KEY.length; i++) {
    if (text.includes(KEY.slice(i, i + 6))) {
      return true;
    }
  }
  return false;
}

describe('keys written with escapes or near a cut stay out of error text and logs', () => {
  const scrubber = new SecretScrubber().add(KEY);
  const scrub = (text: string) => scrubber.scrub(text);

  for (const [name, written] of [
    ['a decimal reference', `&#115;${KEY.slice(1)}`],
    ['a hexadecimal reference', `&#x73;${KEY.slice(1)}`],
    ['references throughout', [...KEY].map((c) => `&#${c.charCodeAt(0)};`).join('')],
  ]) {
    it(`a 401 HTML page whose title holds the key as ${name}`, () => {
      const error = errorFromResponse(
        401,
        { 'content-type': 'text/html' },
        `<html><head><title>Invalid key ${written}</title></head></html>`,
        'encyclopedia',
        scrub,
      );
      assert.ok(!showsKey(error.message), error.message);
      assert.ok(!showsKey(error.detail ?? ''), error.detail);
      assert.match(error.message, /Invalid key \*\*\*/);
    });
  }

  it('the skip log scrubs a key written with JSON escapes', async () => {
    const escaped = [...KEY].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
    const log = await skipLogOf(`data: {"note":"${escaped}"}\n\ndata: [DONE]\n`);
    assert.match(log, /skipped an event had no content/);
    // Read as its reader would: the escapes decoded.
    const read = log.replace(/\\u([\da-f]{4})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    assert.ok(!showsKey(read), read);
  });

  it('the skip log scrubs a key that begins just before the cut at 120 characters', async () => {
    const log = await skipLogOf(`data: {"note":"${'a'.repeat(100)}${KEY}"}\n\ndata: [DONE]\n`);
    assert.ok(!showsKey(log), log);
    assert.ok(!log.includes('sk-live'), log);
  });

  it('the skip log is linear in the payload of the event it writes', function () {
    this.timeout(20_000);
    const lines: string[] = [];
    const skips = () => new SkipLog(recordingLogger(lines), scrub);
    assertGrowth(
      'SkipLog',
      (n) => '\\u0066&#115;\\/'.repeat(n),
      (payload) => skips().skipped('x', payload),
      {
        n: 5_000,
      },
    );
  });
});
