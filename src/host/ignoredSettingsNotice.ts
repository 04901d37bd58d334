import * as vscode from 'vscode';
import type { Logger } from '../core/logger';
import { describeError } from '../core/service/errors';
import { USER_ONLY_SETTINGS, userOnlySettingsIn } from '../core/service/workspaceSettings';

/** The names already named to the user in this workspace. */
const SHOWN_KEY = 'alphaAxo.ignoredWorkspaceSettingsShown';
/** After activation: activation itself does no I/O. */
const DELAY_MS = 2_000;
/** A settings file larger than this is not looked at. */
const MAX_SETTINGS_BYTES = 1024 * 1024;

/**
 * The extension's user-only settings (application-scoped, see {@link USER_ONLY_SETTINGS}) that this workspace's
 * settings files still set: each folder's `.vscode/settings.json` and the `.code-workspace` file. VS Code ignores
 * them there; the names come in the order of the settings list.
 */
export async function ignoredWorkspaceSettings(): Promise<string[]> {
  const files = (vscode.workspace.workspaceFolders ?? []).map((f) =>
    vscode.Uri.joinPath(f.uri, '.vscode', 'settings.json'),
  );
  const workspaceFile = vscode.workspace.workspaceFile;
  if (workspaceFile && workspaceFile.scheme !== 'untitled') {
    files.push(workspaceFile);
  }
  const found = new Set<string>();
  for (const file of files) {
    try {
      const bytes = await vscode.workspace.fs.readFile(file);
      if (bytes.length <= MAX_SETTINGS_BYTES) {
        userOnlySettingsIn(Buffer.from(bytes).toString('utf8')).forEach((key) => found.add(key));
      }
    } catch {
      // No settings file there.
    }
  }
  return USER_ONLY_SETTINGS.filter((key) => found.has(key));
}

/**
 * Tells the user once per workspace (again only when it sets more of them) which of the extension's settings its
 * settings files set that are now ignored there, and that they belong in the User settings, with an action that
 * opens those settings in the User settings.
 */
export async function noticeIgnoredSettings(state: vscode.Memento): Promise<string[]> {
  const names = await ignoredWorkspaceSettings();
  const shown = new Set(state.get<string[]>(SHOWN_KEY, []));
  if (!names.some((name) => !shown.has(name))) {
    return [];
  }
  await state.update(SHOWN_KEY, [...new Set([...shown, ...names])]);
  const open = vscode.l10n.t('Open User Settings');
  const choice = await vscode.window.showWarningMessage(
    vscode.l10n.t(
      "This workspace's settings set {0}. A repository may not choose the service, the model, what it costs or what is sent, so these values are ignored: set them in your User settings.",
      names.join(', '),
    ),
    open,
  );
  if (choice === open) {
    await vscode.commands.executeCommand('workbench.action.openSettings', `@id:${names.join(',')}`);
  }
  return names;
}

/** Looks for ignored workspace settings a moment after activation and when folders are added. */
export function watchIgnoredSettings(context: vscode.ExtensionContext, log: Logger): vscode.Disposable {
  const check = () =>
    void noticeIgnoredSettings(context.workspaceState).catch((error) =>
      log.warn(`Settings: the workspace's settings could not be checked: ${describeError(error)}`),
    );
  const timer = setTimeout(check, DELAY_MS);
  const folders = vscode.workspace.onDidChangeWorkspaceFolders(check);
  return { dispose: () => (clearTimeout(timer), folders.dispose()) };
}
