import * as vscode from 'vscode';
import type { Logger } from '../core/logger';
import { tightenFolder } from '../core/storage/privateFiles';

/** Set once the files earlier versions wrote with the default modes have been tightened. */
const TIGHTENED_KEY = 'alphaAxo.storageModesTightened';
/** After activation: activation itself does no I/O. */
const DELAY_MS = 3_000;

/**
 * On the first start after the update that made stored files private: the extension's global storage folder, the
 * conversations folder in it, and their files (conversations, the index, leftover temp files, the encyclopedia
 * cache) become 0700/0600. Runs once, a moment after activation; later writes create them private.
 */
export function tightenStorageOnce(context: vscode.ExtensionContext, log: Logger): vscode.Disposable {
  if (context.globalState.get<boolean>(TIGHTENED_KEY) === true) {
    return { dispose: () => undefined };
  }
  const timer = setTimeout(() => void run(context, log), DELAY_MS);
  return { dispose: () => clearTimeout(timer) };
}

async function run(context: vscode.ExtensionContext, log: Logger): Promise<void> {
  const changed = await tightenFolder(context.globalStorageUri.fsPath, 1);
  if (changed) {
    log.info(`Storage: ${changed} files and folders written by an earlier version made private (0600/0700).`);
  }
  await context.globalState.update(TIGHTENED_KEY, true);
}
