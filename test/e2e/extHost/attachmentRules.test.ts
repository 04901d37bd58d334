import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ContextItem } from '../../../src/core/chat/conversation/conversation';
import { silentLogger } from '../../../src/core/logger';
import { AttachmentSource } from '../../../src/features/chat/attachmentSource';
import { until } from '../../support/until';

interface Asked {
  message: string;
  detail?: string;
  modal?: boolean;
}

/** Replaces the warning dialog: records what it asks and answers with the button named `answer` (none: Cancel). */
function stubDialog(answer: () => string | undefined): { asked: Asked[]; restore(): void } {
  const window = vscode.window as { showWarningMessage: unknown };
  const original = window.showWarningMessage;
  const asked: Asked[] = [];
  window.showWarningMessage = async (message: string, options?: vscode.MessageOptions | string, ...items: string[]) => {
    const opts = typeof options === 'object' ? options : {};
    asked.push({ message, detail: opts.detail, modal: opts.modal });
    const buttons = typeof options === 'string' ? [options, ...items] : items;
    return buttons.find((b) => b === answer());
  };
  return { asked, restore: () => (window.showWarningMessage = original) };
}

const items = (read: readonly (ContextItem | string)[]) => read.filter((r): r is ContextItem => typeof r !== 'string');

describe('files a page or a repository names: attachments', () => {
  const ws = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath as string;
  const dir = path.join(ws ?? '', 'attach-rules');
  let outside: string;
  let source: AttachmentSource;
  const uri = (file: string) => vscode.Uri.file(file).toString();

  before(async function () {
    this.timeout(20_000);
    outside = fs.mkdtempSync(path.join(os.tmpdir(), 'aa-outside-'));
    fs.writeFileSync(path.join(outside, 'outside.txt'), 'outside text');
    fs.mkdirSync(path.join(dir, 'private'), { recursive: true });
    fs.mkdirSync(path.join(dir, 'dist'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'inside.txt'), 'inside text');
    fs.symlinkSync(path.join(outside, 'outside.txt'), path.join(dir, 'link.txt'));
    fs.writeFileSync(path.join(dir, '.gitignore'), 'ignored.txt\nprivate/\n');
    fs.writeFileSync(path.join(dir, 'ignored.txt'), 'git-ignored');
    fs.writeFileSync(path.join(dir, 'private', 'notes.txt'), 'private notes');
    fs.writeFileSync(path.join(dir, 'hidden.bak'), 'hidden by files.exclude');
    fs.writeFileSync(path.join(dir, 'dist', 'bundle.txt'), 'hidden by search.exclude');
    fs.writeFileSync(path.join(dir, 'id_rsa'), '-----BEGIN OPENSSH PRIVATE KEY-----\nabc\n');
    execFileSync('mkfifo', [path.join(dir, 'pipe')]);
    fs.writeFileSync(path.join(dir, 'huge.log'), '');
    fs.truncateSync(path.join(dir, 'huge.log'), 3 * 1024 ** 3);
    await vscode.workspace
      .getConfiguration('files')
      .update('exclude', { '**/*.{bak,orig}': true }, vscode.ConfigurationTarget.Global);
    await vscode.workspace
      .getConfiguration('search')
      .update('exclude', { '**/dist': true }, vscode.ConfigurationTarget.Global);
    source = new AttachmentSource(silentLogger);
  });

  after(async function () {
    this.timeout(20_000);
    source.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(outside, { recursive: true, force: true });
    await vscode.workspace.getConfiguration('files').update('exclude', undefined, vscode.ConfigurationTarget.Global);
    await vscode.workspace.getConfiguration('search').update('exclude', undefined, vscode.ConfigurationTarget.Global);
  });

  it('reads a dropped file outside the workspace only after the user confirms the real path it names', async function () {
    this.timeout(20_000);
    let answer: string | undefined;
    const dialog = stubDialog(() => answer);
    try {
      const real = fs.realpathSync(path.join(outside, 'outside.txt'));
      const dropped = [
        uri(path.join(outside, 'outside.txt')),
        uri(path.join(dir, 'link.txt')),
        uri(path.join(dir, 'inside.txt')),
      ];
      const declined = await source.readDropped(dropped);
      assert.deepEqual(
        items(declined).map((i) => i.content),
        ['inside text'],
      );
      assert.equal(dialog.asked.length, 2, 'one dialog for the outside file and one for the link that leads out');
      for (const asked of dialog.asked) {
        assert.equal(asked.modal, true);
        assert.ok(asked.message.includes(real), `the dialog names ${real}: ${asked.message}`);
        assert.match(asked.detail ?? '', /sent to the service/);
      }
      answer = 'Attach';
      const confirmed = await source.readDropped(dropped);
      assert.deepEqual(
        items(confirmed).map((i) => i.content),
        ['outside text', 'outside text', 'inside text'],
      );
    } finally {
      dialog.restore();
    }
  });

  it('refuses a pipe and a 3 GB file by their stat, before reading a byte', async function () {
    this.timeout(20_000);
    const started = Date.now();
    const read = await source.readDropped([uri(path.join(dir, 'pipe')), uri(path.join(dir, 'huge.log'))]);
    assert.equal(read.length, 2);
    assert.match(String(read[0]), /pipe is not a regular file/);
    assert.match(String(read[1]), /huge\.log is too large to attach \(3072 MB/);
    assert.ok(Date.now() - started < 5_000, 'nothing was read');
  });

  it('# offers no file that .gitignore, files.exclude or search.exclude leaves out, and asks before a secret', async function () {
    this.timeout(30_000);
    const labels = async (query: string) => (await source.options(query)).map((o) => `${o.detail ?? ''}/${o.label}`);
    const offered = await labels('attach-rules');
    assert.ok(offered.includes('attach-rules/inside.txt'), offered.join(', '));
    for (const hidden of ['ignored.txt', 'notes.txt', 'hidden.bak', 'bundle.txt']) {
      assert.ok(!offered.some((o) => o.endsWith(`/${hidden}`)), `${hidden} is offered: ${offered.join(', ')}`);
    }
    let answer: string | undefined;
    const dialog = stubDialog(() => answer);
    try {
      const key = (await source.options('id_rsa')).find((o) => o.label === 'id_rsa');
      assert.ok(key, 'a secret-looking file is still offered');
      assert.equal(await source.read(key.id), null, 'declined: nothing is read');
      assert.equal(dialog.asked.length, 1);
      assert.match(dialog.asked[0].message, /id_rsa looks like it holds a secret/);
      assert.match(dialog.asked[0].detail ?? '', /sent to the service .* stored in the conversation/);
      answer = 'Attach Anyway';
      const again = (await source.options('id_rsa')).find((o) => o.label === 'id_rsa');
      const item = (await source.read(again?.id ?? '')) as ContextItem;
      assert.match(item.content, /BEGIN OPENSSH PRIVATE KEY/);
    } finally {
      dialog.restore();
    }
  });

  it('# follows the workspace: a file created, renamed or deleted on disk is offered or not within seconds', async function () {
    this.timeout(40_000);
    const has = async (name: string) => (await source.options(name)).some((o) => o.label === name);
    assert.equal(await has('created-later.txt'), false);
    fs.writeFileSync(path.join(dir, 'created-later.txt'), 'new');
    await until(async () => ((await has('created-later.txt')) ? true : undefined), 'a created file is not offered');
    fs.renameSync(path.join(dir, 'created-later.txt'), path.join(dir, 'renamed-later.txt'));
    await until(
      async () => ((await has('renamed-later.txt')) && !(await has('created-later.txt')) ? true : undefined),
      'a renamed file is not offered under its new name only',
    );
    fs.rmSync(path.join(dir, 'renamed-later.txt'));
    await until(async () => ((await has('renamed-later.txt')) ? undefined : true), 'a deleted file is still offered');
  });
});
