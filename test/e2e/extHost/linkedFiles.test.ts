import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ContextItem } from '../../../src/core/chat/conversation/conversation';
import { silentLogger } from '../../../src/core/logger';
import { AttachmentSource } from '../../../src/features/chat/attachmentSource';
import type { HostLogger } from '../../../src/host/logger';
import type { Settings } from '../../../src/host/settings';
import { WorkspaceInstructions } from '../../../src/host/workspaceInstructions';
import { until } from '../../support/until';

/** Replaces the warning dialog: records each message and answers with the first of `buttons` it offers. */
function stubDialog(buttons: string[]): { asked: string[]; restore(): void } {
  const window = vscode.window as { showWarningMessage: unknown };
  const original = window.showWarningMessage;
  const asked: string[] = [];
  window.showWarningMessage = async (message: string, _options?: unknown, ...items: string[]) => {
    asked.push(message);
    return items.find((b) => buttons.includes(b));
  };
  return { asked, restore: () => (window.showWarningMessage = original) };
}

describe('files behind links: instructions and # attachments follow a link to where it leads', () => {
  const ws = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath as string;
  let outside: string;
  const made: string[] = [];
  const link = (target: string, at: string) => {
    fs.mkdirSync(path.dirname(at), { recursive: true });
    fs.symlinkSync(target, at);
    made.push(at);
  };

  before(() => {
    outside = fs.mkdtempSync(path.join(os.tmpdir(), 'aa-links-'));
    fs.mkdirSync(path.join(outside, '.ssh'));
    fs.writeFileSync(path.join(outside, '.ssh', 'id_rsa'), 'PRIVATE KEY TEXT');
    fs.mkdirSync(path.join(outside, '.aws'));
    fs.writeFileSync(path.join(outside, '.aws', 'credentials'), 'aws_secret_access_key = abc');
  });

  after(() => {
    for (const file of made) {
      fs.rmSync(file, { force: true });
    }
    fs.rmSync(path.join(ws, '.alpha'), { recursive: true, force: true });
    fs.rmSync(outside, { recursive: true, force: true });
  });

  it('sends no instructions from a link out of the workspace folder or to /proc/self/environ', async function () {
    this.timeout(20_000);
    link(path.join(outside, '.ssh', 'id_rsa'), path.join(ws, 'AGENTS.md'));
    const settings = { workspaceInstructions: true } as Settings;
    const instructions = new WorkspaceInstructions(settings, silentLogger as unknown as HostLogger);
    try {
      await instructions.whenRead();
      assert.doesNotMatch(JSON.stringify(instructions.current ?? {}), /PRIVATE KEY TEXT/);
      link('/proc/self/environ', path.join(ws, '.alpha', 'instructions.md'));
      instructions.refresh();
      await instructions.whenRead();
      assert.doesNotMatch(JSON.stringify(instructions.current ?? {}), /PATH=|HOME=/);
      // A regular file inside the folder is still read.
      fs.rmSync(path.join(ws, 'AGENTS.md'));
      fs.writeFileSync(path.join(ws, 'AGENTS.md'), 'Use tabs.');
      instructions.refresh();
      await instructions.whenRead();
      assert.match(JSON.stringify(instructions.current ?? {}), /Use tabs\./);
    } finally {
      instructions.dispose();
    }
  });

  it('# on a link out of the workspace asks with the real path, and the secret rule looks at the real path', async function () {
    this.timeout(30_000);
    const source = new AttachmentSource(silentLogger);
    const real = fs.realpathSync(path.join(outside, '.aws', 'credentials'));
    link(real, path.join(ws, 'linked-notes.md'));
    let dialog = stubDialog([]);
    try {
      // The file list follows the workspace's file events: wait until it offers the link.
      const offered = () =>
        until(
          async () => (await source.options('linked-notes')).find((o) => o.label === 'linked-notes.md')?.id,
          'the link is offered',
          10_000,
        );
      assert.equal(await source.read(await offered()), null, 'declined: nothing is read');
      assert.equal(dialog.asked.length, 1);
      assert.ok(dialog.asked[0].includes(real), `the dialog names ${real}: ${dialog.asked[0]}`);
      dialog.restore();

      dialog = stubDialog(['Attach']);
      assert.equal(await source.read(await offered()), null, 'the secret rule asks next, and is declined');
      assert.equal(dialog.asked.length, 2);
      assert.match(dialog.asked[1], /looks like it holds a secret/);
      dialog.restore();

      dialog = stubDialog(['Attach', 'Attach Anyway']);
      const item = (await source.read(await offered())) as ContextItem;
      assert.match(item.content, /aws_secret_access_key/);
    } finally {
      dialog.restore();
      source.dispose();
    }
  });
});
