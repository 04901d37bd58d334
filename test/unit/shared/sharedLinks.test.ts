import * as assert from 'node:assert/strict';
import {
  CHAT_LINK_SCHEMES,
  hasCredentials,
  isWebUrl,
  parseLink,
  WEB_LINK_SCHEMES,
  webUrl,
} from '../../../src/shared/links';

describe('src/shared/links: the one link rule of the host and the pages', () => {
  it('takes absolute http(s) URLs only, by default', () => {
    assert.equal(webUrl(' https://x.example/a b '), 'https://x.example/a%20b');
    assert.equal(webUrl('HTTP://X.example'), 'http://x.example/');
    for (const bad of [
      'javascript:alert(1)',
      'command:axo.ask',
      'file:///etc/passwd',
      'vscode:x',
      '/relative',
      '',
      null,
      undefined,
      'not a url',
      'mailto:a@b.example',
    ]) {
      assert.equal(webUrl(bad), undefined, String(bad));
      assert.equal(isWebUrl(bad), false, String(bad));
    }
  });

  it('takes the chat’s schemes when asked: mail links too, never scripts or commands', () => {
    assert.deepEqual(WEB_LINK_SCHEMES, ['http:', 'https:']);
    assert.deepEqual(CHAT_LINK_SCHEMES, ['http:', 'https:', 'mailto:']);
    assert.equal(parseLink('mailto:a@b.example', CHAT_LINK_SCHEMES)?.protocol, 'mailto:');
    assert.equal(parseLink('javascript:alert(1)', CHAT_LINK_SCHEMES), undefined);
    assert.equal(parseLink('command:workbench.action.openSettings', CHAT_LINK_SCHEMES), undefined);
  });

  it('tells a URL that hides its host behind a user name', () => {
    assert.equal(hasCredentials(new URL('https://bank.example@evil.example/')), true);
    assert.equal(hasCredentials(new URL('https://:secret@evil.example/')), true);
    assert.equal(hasCredentials(new URL('https://evil.example/@bank')), false);
  });
});
