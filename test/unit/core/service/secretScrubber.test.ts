import * as assert from 'node:assert/strict';
import { ServiceError } from '../../../../src/core/service/errors';
import { errorFromResponse, messageFromBody } from '../../../../src/core/service/httpErrors';
import { SecretScrubber } from '../../../../src/core/service/secretScrubber';

const CHAT = 'sk-chat-0123456789abcdef';
const AXO = 'axo_key_fedcba9876543210';

/** Every way of cutting `text` into two or three pieces. */
function splits(text: string): string[][] {
  const out: string[][] = [];
  for (let i = 0; i <= text.length; i++) {
    for (let j = i; j <= text.length; j += 3) {
      out.push([text.slice(0, i), text.slice(i, j), text.slice(j)]);
    }
  }
  return out;
}

describe('SecretScrubber', () => {
  it('removes every registered key, wherever it stands, and leaves other text alone', () => {
    const s = new SecretScrubber().add(CHAT, AXO);
    assert.equal(s.scrub(`a ${CHAT} b ${AXO}${CHAT}.`), 'a *** b ******.');
    assert.equal(s.scrub('nothing secret here'), 'nothing secret here');
  });

  it('scrubs keys of 8 characters or more, and ignores shorter, blank or missing ones', () => {
    const s = new SecretScrubber().add('1234567', '', '   ', undefined, ' 12345678 ');
    assert.equal(s.size, 1);
    assert.equal(s.scrub('1234567 and 12345678'), '1234567 and ***');
  });

  it('keeps a key it was told before: a replaced or rejected key is still a secret', () => {
    const s = new SecretScrubber().add('sk-typo-0123456789');
    s.add(CHAT);
    assert.equal(s.scrub('Incorrect API key provided: sk-typo-0123456789'), 'Incorrect API key provided: ***');
  });

  it('removes a key that contains another key whole', () => {
    const s = new SecretScrubber().add('abcdefgh', 'abcdefgh-longer-key');
    assert.equal(s.scrub('x abcdefgh-longer-key y'), 'x *** y');
  });

  it('treats characters special in regular expressions literally', () => {
    const key = 'k.+*?^$()[]{}|\\/-1';
    const s = new SecretScrubber().add(key);
    assert.equal(s.scrub(`<${key}>`), '<***>');
    assert.equal(s.scrub('kaaaaaaaaaaaa1'), 'kaaaaaaaaaaaa1');
  });

  it('removes anything shaped like "Bearer <token>" from error text, keeping an already redacted one', () => {
    const s = new SecretScrubber();
    assert.equal(s.scrub('Authorization: Bearer abc.def-ghi_123=='), 'Authorization: Bearer ***');
    assert.equal(s.scrub('"authorization":"bearer xyz123456"'), '"authorization":"bearer ***"');
    assert.equal(s.scrub('(Authorization: Bearer ***)'), '(Authorization: Bearer ***)');
  });

  it('leaves "Bearer" examples in content: only the keys go', () => {
    const s = new SecretScrubber().add(CHAT);
    assert.equal(
      s.scrubKeys(`curl -H "Authorization: Bearer $TOKEN" ${CHAT}`),
      'curl -H "Authorization: Bearer $TOKEN" ***',
    );
  });

  it('scrubs a ServiceError, keeping its kind, status, key kind and retry time', () => {
    const s = new SecretScrubber().add(CHAT);
    const error = new ServiceError('streamError', `Bad key ${CHAT}`, {
      status: 401,
      keyKind: 'chat',
      detail: `key ${CHAT}`,
      retryAfterSeconds: 3,
    });
    const scrubbed = s.scrubError(error) as ServiceError;
    assert.deepEqual(
      [scrubbed.kind, scrubbed.message, scrubbed.detail, scrubbed.status, scrubbed.keyKind, scrubbed.retryAfterSeconds],
      ['streamError', 'Bad key ***', 'key ***', 401, 'chat', 3],
    );
    assert.equal(s.scrubError(new ServiceError('network', 'nothing to remove')).message, 'nothing to remove');
  });
});

describe('StreamScrubber', () => {
  it('removes a key split across pieces at every split point, and shows everything else byte-exact', () => {
    const s = new SecretScrubber().add(CHAT);
    const text = `Your key is ${CHAT}, and s then sk- are not keys. ${CHAT}`;
    for (const pieces of splits(text)) {
      const filter = s.streamFilter();
      const out = pieces.map((p) => filter.push(p)).join('') + filter.end();
      assert.equal(out, 'Your key is ***, and s then sk- are not keys. ***', JSON.stringify(pieces));
    }
  });

  it('never shows the start of a key before it knows whether the key follows', () => {
    const s = new SecretScrubber().add(CHAT);
    const filter = s.streamFilter();
    assert.equal(filter.push('look: sk-chat-0123'), 'look: ');
    assert.equal(filter.push('x'), 'sk-chat-0123x');
    assert.equal(filter.push(' and sk-chat-0123456789abcde'), ' and ');
    assert.equal(filter.push('f!'), '***!');
    assert.equal(filter.end(), '');
  });

  it('passes pieces through untouched when no key is registered', () => {
    const filter = new SecretScrubber().streamFilter();
    assert.equal(filter.push('Bearer abcdefghij'), 'Bearer abcdefghij');
    assert.equal(filter.end(), '');
  });
});

describe('error bodies that echo the key', () => {
  const s = new SecretScrubber().add(CHAT, AXO);
  const scrub = (t: string) => s.scrub(t);

  it('a 401 JSON body quoting the key says so without the key', () => {
    const body = JSON.stringify({ error: { message: `Incorrect API key provided: ${CHAT}`, code: 'invalid_api_key' } });
    const error = errorFromResponse(401, { 'content-type': 'application/json' }, body, 'chat', scrub);
    assert.equal(error.kind, 'badKey');
    assert.match(error.message, /Incorrect API key provided: \*\*\*/);
    assert.ok(!error.message.includes(CHAT) && !error.detail?.includes(CHAT));
  });

  it('a key escaped inside JSON is removed once the JSON is decoded', () => {
    const escaped = AXO.replace(/_/g, '\\u005f');
    const body = `{"message":"bad key ${escaped}"}`;
    assert.ok(!body.includes(AXO));
    const error = errorFromResponse(403, {}, body, 'encyclopedia', scrub);
    assert.equal(error.detail, 'bad key ***');
  });

  it('an HTML page quoting the key and its Authorization header shows neither', () => {
    const body = `<html><body><p>Internal error for ${AXO}</p><pre>Authorization: Bearer ${AXO}\nAuthorization: Bearer other-token-1</pre></body></html>`;
    const error = errorFromResponse(500, { 'content-type': 'text/html' }, body, 'encyclopedia', scrub);
    assert.equal(error.kind, 'server');
    assert.ok(!error.message.includes(AXO), error.message);
    assert.ok(!error.message.includes('other-token-1'), error.message);
  });

  it('a key that the 300-character cut would split is removed before the cut, not half shown', () => {
    const body = `${'x'.repeat(290)} ${CHAT}`;
    const detail = messageFromBody(body, 'text/plain', scrub) ?? '';
    assert.ok(!detail.includes(CHAT.slice(0, 8)), detail);
    assert.ok(detail.endsWith('***'), detail);
  });
});
