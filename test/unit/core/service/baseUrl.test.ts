import * as assert from 'node:assert/strict';
import { endpointUrl, parseBaseUrl } from '../../../../src/core/service/baseUrl';
import { ServiceError } from '../../../../src/core/service/errors';

describe('base URL', () => {
  for (const raw of [
    'http://127.0.0.1:8787',
    'http://127.0.0.1:8787/',
    'http://127.0.0.1:8787/v1',
    'http://127.0.0.1:8787/v1/',
    '  http://127.0.0.1:8787/V1//  ',
  ]) {
    it(`resolves "${raw}" to the same endpoint`, () => {
      assert.equal(endpointUrl(parseBaseUrl(raw), 'v1/alpha').toString(), 'http://127.0.0.1:8787/v1/alpha');
    });
  }

  it('keeps a path prefix', () => {
    assert.equal(
      endpointUrl(parseBaseUrl('https://gw.example.com/ai/v1'), 'v1/axo/ask').toString(),
      'https://gw.example.com/ai/v1/axo/ask',
    );
    assert.equal(
      endpointUrl(parseBaseUrl('https://gw.example.com/ai'), '/v1/axo/ask').toString(),
      'https://gw.example.com/ai/v1/axo/ask',
    );
  });

  it('encodes query values, spaces as +', () => {
    const url = endpointUrl(parseBaseUrl('http://h'), 'v1/axo/article', {
      title: 'AC/DC? Tom & Jerry #1 東京',
      facts: '1',
    });
    assert.equal(url.search, '?title=AC%2FDC%3F+Tom+%26+Jerry+%231+%E6%9D%B1%E4%BA%AC&facts=1');
    assert.equal(new URLSearchParams(url.search).get('title'), 'AC/DC? Tom & Jerry #1 東京');
  });

  it('encodes spaces as %20 when asked, a literal + always as %2B', () => {
    const url = endpointUrl(parseBaseUrl('http://h'), 'v1/axo/search', { q: 'C++ and  C#' }, '%20');
    assert.equal(url.search, '?q=C%2B%2B%20and%20%20C%23');
    assert.equal(new URLSearchParams(url.search).get('q'), 'C++ and  C#');
  });

  for (const [raw, pattern] of [
    ['', /No service URL is set/],
    ['   ', /No service URL is set/],
    ['not a url', /is not a valid URL/],
    ['ftp://example.com', /must start with http:\/\/ or https:\/\//],
    ['file:///etc/passwd', /must start with http/],
    ['https://user:pw@example.com', /user name or password/],
  ] as const) {
    it(`refuses "${raw}" with a clear config error`, () => {
      assert.throws(
        () => parseBaseUrl(raw),
        (e: unknown) =>
          e instanceof ServiceError && e.kind === 'config' && e.action === 'openSettings' && pattern.test(e.message),
      );
    });
  }
});
