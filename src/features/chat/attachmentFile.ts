import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { refusal, statRefusal } from '../../core/chat/request/attachments';
import { newId, type ContextItem } from '../../core/chat/conversation/conversation';
import { fenceForLanguageId } from '../../core/chat/workspace/languageIds';
import { looksSecret } from '../../core/chat/workspace/secretNames';
import { describeError } from '../../core/service/errors';
import type { Logger } from '../../core/logger';

/** What reading a file for an attachment gives: the item, why not (shown), or null when the user said no. */
export type FileRead = ContextItem | string | null;

/**
 * Reads a file as a context item: its text from an open editor (unsaved edits included), else from the disk after
 * `stat` says it is a regular file within the bound (nothing is read of a folder, a device, a pipe or a file too
 * large). A file whose name, or whose real path (links resolved), looks like a secret is read only after the user
 * confirms that its text will be sent (`confirm`, given the file's label: by default a modal dialog).
 */
export async function readAttachmentFile(
  uri: vscode.Uri,
  label: string,
  log: Logger,
  confirm: (label: string) => Promise<boolean> = confirmSecret,
): Promise<FileRead> {
  if ((await looksSecretFile(uri)) && !(await confirm(label))) {
    return null;
  }
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  try {
    let text: string;
    if (open) {
      text = open.getText();
      const why = refusal(label, Buffer.from(text, 'utf8'));
      if (why) {
        return why;
      }
    } else {
      // Nothing is read before `stat` says what it is: VS Code's Unknown type is a device, a pipe or a socket.
      const stat = await vscode.workspace.fs.stat(uri);
      const kind = {
        isDirectory: (stat.type & vscode.FileType.Directory) !== 0,
        isFile: (stat.type & vscode.FileType.File) !== 0,
        size: stat.size,
      };
      const refused = statRefusal(label, kind);
      if (refused) {
        return refused;
      }
      const bytes = await vscode.workspace.fs.readFile(uri);
      const why = refusal(label, bytes);
      if (why) {
        return why;
      }
      text = Buffer.from(bytes).toString('utf8');
    }
    if (!text.trim()) {
      return vscode.l10n.t('{0} is empty.', label);
    }
    const language = fenceForLanguageId(open?.languageId ?? languageOfPath(uri.path)) || undefined;
    return { id: newId(), label, content: text, language };
  } catch (error) {
    log.warn(`Chat: could not read ${label} to attach it: ${describeError(error)}`);
    return vscode.l10n.t('{0} could not be read: {1}', label, describeError(error));
  }
}

/** Whether a file's name, or its real path's (links resolved), looks like a secret. */
export async function looksSecretFile(uri: vscode.Uri): Promise<boolean> {
  // A link is judged by where it leads too: `notes.md -> ~/.aws/credentials` is a secret.
  return looksSecret(uri.path) || looksSecret((await realPathOf(uri)).path);
}

/** Asks before a secret-looking file is attached; true when the user agreed. */
async function confirmSecret(label: string): Promise<boolean> {
  return confirmAttach(
    vscode.l10n.t('{0} looks like it holds a secret (a key, a certificate or credentials).', label),
    vscode.l10n.t('Attach Anyway'),
  );
}

/**
 * Whether a file a page dropped may be read: one open in an editor, or one whose real path (symbolic links
 * resolved) lies in a workspace folder, may; any other is read only once the user confirms it in a dialog that names
 * its real path. A page is untrusted: it can name any file.
 */
export async function mayReadDropped(uri: vscode.Uri, openEditors: readonly vscode.Uri[]): Promise<boolean> {
  const key = uri.toString();
  if (
    openEditors.some((u) => u.toString() === key) ||
    vscode.workspace.textDocuments.some((d) => d.uri.toString() === key && d.isUntitled)
  ) {
    return true;
  }
  if (uri.scheme === 'untitled') {
    return false;
  }
  if (await insideWorkspace(uri)) {
    return true;
  }
  const real = await realPathOf(uri);
  const shown = real.scheme === 'file' ? real.fsPath : real.toString(true);
  return confirmAttach(
    vscode.l10n.t('Attach {0}? It is outside the folders of this workspace.', shown),
    vscode.l10n.t('Attach'),
  );
}

/** Whether `uri`'s real path (symbolic links resolved) lies in a workspace folder (whose links are resolved too). */
export async function insideWorkspace(uri: vscode.Uri): Promise<boolean> {
  const real = await realPathOf(uri);
  const folders = await Promise.all((vscode.workspace.workspaceFolders ?? []).map((f) => realPathOf(f.uri)));
  return folders.some(
    (folder) =>
      folder.scheme === real.scheme && folder.authority === real.authority && isWithin(real.path, folder.path),
  );
}

/** A modal question before a file's text is attached, saying where the text goes; true when `attach` was chosen. */
async function confirmAttach(message: string, attach: string): Promise<boolean> {
  const choice = await vscode.window.showWarningMessage(
    message,
    {
      modal: true,
      detail: vscode.l10n.t(
        'Its text will be sent to the service with your next prompt and stored in the conversation.',
      ),
    },
    attach,
  );
  return choice === attach;
}

/** The URI with symbolic links resolved (a file on this machine); as it is when it cannot be resolved. */
async function realPathOf(uri: vscode.Uri): Promise<vscode.Uri> {
  if (uri.scheme !== 'file') {
    return uri;
  }
  try {
    return vscode.Uri.file(await fs.realpath(uri.fsPath));
  } catch {
    return uri;
  }
}

/** Whether `child` (a URI path, `/`-separated) is `folder` or inside it. */
function isWithin(child: string, folder: string): boolean {
  // Windows and macOS name files without regard to case (by default).
  const fold = (p: string) => (process.platform === 'win32' || process.platform === 'darwin' ? p.toLowerCase() : p);
  const [c, f] = [fold(child), fold(folder)];
  return c === f || c.startsWith(f.endsWith('/') ? f : `${f}/`);
}

/** A language id from a file name, for the fence (the extension is the usual one for most languages). */
function languageOfPath(file: string): string {
  const ext = path.extname(file).slice(1).toLowerCase();
  return ext || 'plaintext';
}
