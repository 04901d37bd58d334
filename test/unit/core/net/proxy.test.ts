import * as assert from 'node:assert/strict';
import { parseNoProxy, proxyFor, redactProxyUrl } from '../../../../src/core/net/proxy';

describe('proxy selection', () => {
  const proxy = (noProxy: string[]) => ({ url: 'http://proxy.local:3128', strictSSL: true, noProxy });

  it('uses the proxy unless the host is excluded', () => {
    const target = new URL('https://api.example.com/v1/alpha');
    assert.equal(proxyFor(target, proxy([])), 'http://proxy.local:3128');
    assert.equal(proxyFor(target, proxy(['example.com'])), undefined);
    assert.equal(proxyFor(target, proxy(['.example.com'])), undefined);
    assert.equal(proxyFor(target, proxy(['*.example.com'])), undefined);
    assert.equal(proxyFor(target, proxy(['*'])), undefined);
    assert.equal(proxyFor(target, proxy(['ample.com'])), 'http://proxy.local:3128');
    assert.equal(proxyFor(target, proxy(['api.example.com:8443'])), 'http://proxy.local:3128');
    assert.equal(proxyFor(target, proxy(['api.example.com:443'])), undefined);
  });

  it('matches IPv6 and loopback entries', () => {
    assert.equal(proxyFor(new URL('http://[::1]:8787/'), proxy(['[::1]'])), undefined);
    assert.equal(proxyFor(new URL('http://127.0.0.1:8787/'), proxy(['127.0.0.1'])), undefined);
    assert.equal(proxyFor(new URL('http://127.0.0.1:8787/'), proxy(['localhost'])), 'http://proxy.local:3128');
  });

  it('has no proxy without a URL', () => {
    assert.equal(proxyFor(new URL('http://x/'), { strictSSL: true, noProxy: [] }), undefined);
  });

  it('parses NO_PROXY lists and redacts credentials', () => {
    assert.deepEqual(parseNoProxy(' localhost, .corp.example ,127.0.0.1  *.svc '), [
      'localhost',
      '.corp.example',
      '127.0.0.1',
      '*.svc',
    ]);
    assert.deepEqual(parseNoProxy(undefined), []);
    const redacted = redactProxyUrl('http://alice:s3cret@proxy:3128');
    assert.doesNotMatch(redacted, /s3cret|alice/);
  });
});
