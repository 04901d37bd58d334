import * as assert from 'node:assert/strict';
import {
  errorFromResponse,
  errorFromTransport,
  messageFromBody,
  parseRetryAfter,
} from '../../../../src/core/service/httpErrors';

describe('error mapping', () => {
  it('names the chat key on 401 and offers Set Chat API Key', () => {
    const e = errorFromResponse(401, {}, '{"error":{"message":"Invalid API key","code":"invalid_api_key"}}', 'chat');
    assert.equal(e.kind, 'badKey');
    assert.equal(e.action, 'setChatKey');
    assert.match(e.message, /chat API key/);
    assert.match(e.message, /401 Unauthorized/);
    assert.match(e.message, /Invalid API key \(invalid_api_key\)/);
    assert.doesNotMatch(e.message, /encyclopedia/);
  });

  it('names the encyclopedia key on 403 and offers Set Encyclopedia API Key', () => {
    const e = errorFromResponse(403, {}, '', 'encyclopedia');
    assert.equal(e.action, 'setEncyclopediaKey');
    assert.match(e.message, /encyclopedia API key/);
    assert.doesNotMatch(e.message, /chat/);
  });

  it('reads Retry-After on 429, as seconds or a date', () => {
    const e = errorFromResponse(429, { 'retry-after': '7' }, '', 'chat');
    assert.equal(e.kind, 'rateLimited');
    assert.equal(e.retryAfterSeconds, 7);
    assert.match(e.message, /Try again in 7 s/);
    assert.equal(parseRetryAfter(new Date(Date.now() + 30_000).toUTCString()), 30);
    assert.equal(parseRetryAfter('garbage'), undefined);
    assert.equal(parseRetryAfter('999999'), 3600);
    const noHeader = errorFromResponse(429, {}, '', 'chat');
    assert.equal(noHeader.retryAfterSeconds, undefined);
    assert.match(noHeader.message, /Try again in a moment/);
  });

  it('maps 404, 413 and 5xx', () => {
    assert.equal(errorFromResponse(404, {}, '', 'chat').kind, 'notFound');
    assert.equal(errorFromResponse(413, {}, '', 'chat').kind, 'tooLarge');
    for (const status of [500, 502, 503, 504]) {
      const e = errorFromResponse(status, {}, '', 'chat');
      assert.equal(e.kind, 'server');
      assert.equal(e.action, 'retry');
      assert.match(e.message, new RegExp(String(status)));
    }
    assert.equal(errorFromResponse(418, {}, '', 'chat').kind, 'badRequest');
  });

  it('pulls a readable message from every error body shape, never [object Object]', () => {
    const cases: [string, string | undefined, string?][] = [
      ['{"error":"quota exceeded"}', 'quota exceeded'],
      ['{"error":{"message":"bad model","code":"model_not_found"}}', 'bad model (model_not_found)'],
      ['{"message":"slow down"}', 'slow down'],
      ['{"detail":"Not authenticated"}', 'Not authenticated'],
      ['{"detail":[{"msg":"field required","loc":["body","model"]}]}', 'field required'],
      [
        '{"errors":[{"message":"model is required"},{"message":"messages is empty"}]}',
        'model is required; messages is empty',
      ],
      ['{"error":"invalid_grant","error_description":"key expired"}', 'key expired (invalid_grant)'],
      ['{"data":null,"errors":[{"code":42}]}', '{"code":42}'],
      ['{"weird":{"nested":true}}', '{"weird":{"nested":true}}'],
      [
        '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>',
        '502 Bad Gateway',
        'text/html',
      ],
      ['<html><body><h1>Service &amp; Co. down</h1></body></html>', 'Service & Co. down', 'text/html'],
      ['upstream timed out', 'upstream timed out', 'text/plain'],
      ['', undefined],
      ['   ', undefined],
    ];
    for (const [body, expected, type] of cases) {
      const got = messageFromBody(body, type);
      assert.equal(got, expected, body);
      assert.doesNotMatch(got ?? '', /\[object Object\]/);
    }
    assert.ok((messageFromBody('x'.repeat(5000)) ?? '').length <= 300);
  });

  it('maps transport failures to sentences', () => {
    const url = new URL('http://api.example.test:9/v1/alpha');
    const t = (code: string) => errorFromTransport(Object.assign(new Error('boom'), { code }), url, 30_000, 'chat');
    assert.match(t('ENOTFOUND').message, /Cannot find the server api\.example\.test/);
    assert.match(t('ECONNREFUSED').message, /refused the connection/);
    assert.equal(t('UND_ERR_CONNECT_TIMEOUT').kind, 'timeout');
    assert.match(t('UND_ERR_HEADERS_TIMEOUT').message, /did not answer within 30 s/);
    assert.match(t('UND_ERR_BODY_TIMEOUT').message, /stopped sending for 30 s/);
    assert.equal(t('DEPTH_ZERO_SELF_SIGNED_CERT').kind, 'tls');
    assert.equal(t('ERR_TLS_CERT_ALTNAME_INVALID').kind, 'tls');
    const nested = errorFromTransport({ cause: { errors: [{ code: 'ECONNREFUSED' }] } }, url, 1000, 'encyclopedia');
    assert.match(nested.message, /refused/);
    assert.equal(nested.action, 'retry');
  });
});
