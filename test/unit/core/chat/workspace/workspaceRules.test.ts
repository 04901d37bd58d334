import * as assert from 'node:assert/strict';
import { MAX_ATTACHMENT_BYTES, statRefusal } from '../../../../../src/core/chat/request/attachments';
import { looksSecret } from '../../../../../src/core/chat/workspace/secretNames';
import { excludeGlob, expandBraces, IgnoreRules } from '../../../../../src/core/chat/workspace/workspaceIgnore';
import { userOnlySettingsIn, withoutComments } from '../../../../../src/core/service/workspaceSettings';

describe('what a repository may not do: the rules', () => {
  it('refuses by stat alone a folder, anything but a regular file, and a file past the bound', () => {
    const file = { isFile: true, isDirectory: false };
    assert.equal(statRefusal('a.ts', { ...file, size: MAX_ATTACHMENT_BYTES }), undefined);
    assert.match(
      statRefusal('big.log', { ...file, size: 4 * 1024 ** 3 }) ?? '',
      /big\.log is too large to attach \(4096 MB/,
    );
    assert.match(statRefusal('src', { isFile: false, isDirectory: true, size: 0 }) ?? '', /is a folder/);
    assert.match(
      statRefusal('fifo', { isFile: false, isDirectory: false, size: 0 }) ?? '',
      /fifo is not a regular file \(a device, a pipe or a socket\)/,
    );
  });

  it('builds one exclude glob from files.exclude and search.exclude, expanding brace groups', () => {
    const glob = excludeGlob(
      { '**/.DS_Store': true, '**/*.{js,map}': true, 'shown/**': false, '**/*.ts': { when: '$(basename).js' } },
      { '**/dist': true, '**/*.code-search': true },
      undefined,
    );
    assert.equal(glob, '{**/node_modules,**/.git,**/.DS_Store,**/*.js,**/*.map,**/dist,**/*.code-search}');
    assert.deepEqual(expandBraces('a/{b,c}/*.{x,y}'), ['a/b/*.x', 'a/b/*.y', 'a/c/*.x', 'a/c/*.y']);
    assert.deepEqual(expandBraces('odd{a'), ['odda']);
    assert.equal(expandBraces('{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}').length, 64, 'bounded');
  });

  it('applies ignore files as git does: nested files, negation, a folder ignored with everything in it', () => {
    const rules = new IgnoreRules([
      { dir: 'pkg', text: '!keep.log\nlocal.json\n' },
      { dir: '', text: '# comment\n*.log\nsecrets/\n/build\n' },
    ]);
    assert.equal(rules.ignores('debug.log'), true);
    assert.equal(rules.ignores('pkg/debug.log'), true);
    assert.equal(rules.ignores('pkg/keep.log'), false, 'a deeper file may bring one back');
    assert.equal(rules.ignores('pkg/local.json'), true);
    assert.equal(rules.ignores('local.json'), false, "a deeper file's rules stay in its folder");
    assert.equal(rules.ignores('secrets/prod/id.txt'), true);
    assert.equal(rules.ignores('build/out.js'), true);
    assert.equal(rules.ignores('src/build/out.js'), false, 'a rule with a leading / is anchored');
    assert.equal(rules.ignores('src/index.ts'), false);
  });

  it('names secret-looking files and leaves others alone', () => {
    for (const name of [
      'id_rsa',
      '.ssh/id_ed25519',
      'id_rsa_work',
      'server.pem',
      'tls/private.KEY',
      'credentials.json',
      '.aws/credentials',
      '.env',
      '.env.production',
      'cert.p12',
      'service-account-prod.json',
      '.npmrc',
      'C:\\Users\\me\\.netrc',
    ]) {
      assert.equal(looksSecret(name), true, name);
    }
    for (const name of ['id_rsa.pub', 'README.md', 'src/keyboard.ts', 'environment.ts', 'pem.ts', 'credentials.md']) {
      assert.equal(looksSecret(name), false, name);
    }
  });

  it('finds the user-only settings a workspace settings file sets, not those in comments or strings', () => {
    const text = `{
      // "alphaAxo.baseUrl": "http://in.a.comment",
      /* "alphaAxo.chat.groundWithAxo": true */
      "alphaAxo.chat.model" : "skyflash",
      "note": "\\"alphaAxo.encyclopedia.model\\": is only text",
      "alphaAxo.chat.inrPerMillionOutputTokens":0,
      "alphaAxo.chat.stream": false,
    }`;
    assert.deepEqual(userOnlySettingsIn(text), ['alphaAxo.chat.model', 'alphaAxo.chat.inrPerMillionOutputTokens']);
    assert.equal(withoutComments('{"a": "// kept" /* gone */} // gone'), '{"a": "// kept" } ');
    assert.deepEqual(userOnlySettingsIn('{"settings": {"alphaAxo.baseUrl": "http://x"}}'), ['alphaAxo.baseUrl']);
  });
});
