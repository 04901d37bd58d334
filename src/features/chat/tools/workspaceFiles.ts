import * as vscode from 'vscode';
import { workspacePath } from '../../../core/chat/tools/toolInput';
import { insideWorkspace } from '../attachmentFile';
import type { WorkspaceFileList } from '../workspaceFileList';

/** A workspace file a tool may use: its URI and its name as the workspace shows it. */
export interface WorkspaceFile {
  uri: vscode.Uri;
  label: string;
}

/**
 * The file a tool's `path` names, under the rules of `#`: a path relative to a workspace folder (in a workspace of
 * several folders, the first segment may name the folder), or an absolute path inside one; a file `#` offers (the
 * user's excludes and ignore files leave it in); whose real path (links resolved) lies inside a workspace folder.
 * Otherwise the one sentence ALPHA is sent.
 */
export async function workspaceFile(
  raw: string | undefined,
  files: WorkspaceFileList,
): Promise<WorkspaceFile | { refused: string }> {
  const checked = workspacePath(raw);
  if ('problem' in checked) {
    return { refused: checked.problem };
  }
  const uri = await locate(checked.path);
  if (!uri) {
    return { refused: `There is no file ${checked.path} in the workspace folders.` };
  }
  const label = vscode.workspace.asRelativePath(uri);
  if (!(await files.offers(uri))) {
    return {
      refused:
        `${label} is not among the files of the workspace that may be shared: it does not exist, or the user's ` +
        'files.exclude, search.exclude or ignore files leave it out.',
    };
  }
  if (!(await insideWorkspace(uri))) {
    return { refused: `${label} is a link that leads outside the workspace folders: it is not read.` };
  }
  return { uri, label };
}

/** The URI a workspace path names, in the first folder that has it (by name first in a multi-root workspace). */
async function locate(path: string): Promise<vscode.Uri | undefined> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (path.startsWith('/') || /^[a-z]:\//i.test(path)) {
    const uri = vscode.Uri.file(path);
    return vscode.workspace.getWorkspaceFolder(uri) ? uri : undefined;
  }
  const [first, ...rest] = path.split('/');
  const named = folders.length > 1 && rest.length ? folders.find((f) => f.name === first) : undefined;
  const candidates = named
    ? [vscode.Uri.joinPath(named.uri, ...rest)]
    : folders.map((f) => vscode.Uri.joinPath(f.uri, path));
  for (const uri of candidates) {
    // `..` segments are resolved by joinPath: the result must still be in a folder.
    if (!vscode.workspace.getWorkspaceFolder(uri)) {
      continue;
    }
    try {
      await vscode.workspace.fs.stat(uri);
      return uri;
    } catch {
      // Not in this folder.
    }
  }
  return undefined;
}

/** A CancellationToken cancelled when `signal` aborts, for VS Code's calls; dispose it when the call is done. */
export function tokenFor(signal: AbortSignal): { token: vscode.CancellationToken; dispose(): void } {
  const source = new vscode.CancellationTokenSource();
  const cancel = () => source.cancel();
  if (signal.aborted) {
    cancel();
  }
  signal.addEventListener('abort', cancel, { once: true });
  return {
    token: source.token,
    dispose: () => {
      signal.removeEventListener('abort', cancel);
      source.dispose();
    },
  };
}
