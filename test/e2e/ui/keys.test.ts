import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { type RecordedRequest } from '../../fakeService/fakeService';
import { useFakeService } from '../harness/fakeServiceHooks';
import { vsixPath } from '../harness/paths';
import { countFiles, scanForSecrets } from '../harness/secretScan';
import { useWorkbench } from '../harness/session';
import { clearNotifications, fillInputBox, inputBox, runCommand, waitForToast } from '../harness/workbench';

const randomKey = (prefix: string): string => `${prefix}${randomBytes(12).toString('hex')}`;

describe('API keys in the packaged extension', function () {
  this.timeout(90_000);
  const chatKey = randomKey('fkc_');
  const axoKey = randomKey('fke_');
  const wrongChatKey = randomKey('fkc_wrong_');
  const service = useFakeService({ chatKey, axoKey });
  const session = useWorkbench('keys', () => ({ vsix: vsixPath, baseUrl: service().url }));

  async function setKey(commandTitle: string, key: string): Promise<void> {
    await runCommand(session.page, commandTitle);
    const input = await inputBox(session.page);
    assert.equal(await input.getAttribute('type'), 'password', 'the key input box must be a password box');
    await fillInputBox(session.page, key);
  }

  /** Runs Test Connection and returns the toast's text and the requests the service saw meanwhile. */
  async function testConnection(expected: RegExp): Promise<{ toast: string; requests: RecordedRequest[] }> {
    await clearNotifications(session.page);
    const start = service().requests.length;
    await runCommand(session.page, 'ALPHA & AXO: Test Connection');
    const toast = await waitForToast(session.page, expected);
    return { toast, requests: service().requests.slice(start) };
  }

  it('stores the chat key through a password input box', async () => {
    await setKey('ALPHA: Set Chat API Key', chatKey);
    await waitForToast(session.page, /\bchat API key\b.*\bsaved\b/i);
  });

  it('stores the encyclopedia key through a password input box', async () => {
    await setKey('AXO: Set Encyclopedia API Key', axoKey);
    await waitForToast(session.page, /\bencyclopedia API key\b.*\bsaved\b/i);
  });

  it('Test Connection reports both OK, each endpoint called once with its own key', async () => {
    const { toast, requests } = await testConnection(/Chat: (OK|failed)[\s\S]*Encyclopedia: (OK|failed)/);
    assert.match(toast, /Chat: OK/);
    assert.match(toast, /Encyclopedia: OK/);
    const seen = requests.map((r) => `${r.method} ${r.path} ${r.keyKind}`);
    assert.equal(requests.filter((r) => r.path === '/v1/alpha' && r.keyKind === 'chat').length, 1, seen.join('\n'));
    assert.equal(
      requests.filter((r) => r.path.startsWith('/v1/axo/') && r.keyKind === 'axo').length,
      1,
      seen.join('\n'),
    );
    assert.deepEqual(
      requests.filter((r) => r.keyKind !== 'chat' && r.keyKind !== 'axo'),
      [],
      `requests without the right key:\n${seen.join('\n')}`,
    );
  });

  it('Test Connection names the chat key when the chat key is wrong', async () => {
    await setKey('ALPHA: Set Chat API Key', wrongChatKey);
    const { toast, requests } = await testConnection(/Chat: (OK|failed)[\s\S]*Encyclopedia: (OK|failed)/);
    assert.match(toast, /Chat: failed\b.*\bchat\b[^·]*\bkey\b/i);
    assert.match(toast, /Encyclopedia: OK/);
    assert.ok(
      requests.some((r) => r.path === '/v1/alpha' && r.keyKind === 'wrong'),
      requests.map((r) => `${r.method} ${r.path} ${r.keyKind}`).join('\n'),
    );
  });

  it('leaves no key in any file of the run (user data, extensions, workspace, logs)', async () => {
    const runDir = session.server.runDir;
    await session.close(); // the server flushes its logs and state as it stops
    const hits = scanForSecrets(runDir, [chatKey, axoKey, wrongChatKey]);
    assert.deepEqual(hits, [], `keys found in ${runDir}`);
    assert.ok(countFiles(runDir) > 10, `the scan found almost nothing to read in ${runDir}`);
  });
});
