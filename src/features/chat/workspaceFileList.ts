import * as vscode from 'vscode';
import {
  excludeGlob,
  IgnoreRules,
  MAX_WILDCARDS,
  type IgnoreFile,
  type SkippedPattern,
} from '../../core/chat/workspace/workspaceIgnore';
import { describeError } from '../../core/service/errors';
import type { Logger } from '../../core/logger';

/** The workspace files listed for the fuzzy search, at most. */
export const MAX_WORKSPACE_FILES = 5_000;
/**
 * Files asked of VS Code, at most: ignore files are applied before the cap of MAX_WORKSPACE_FILES, so a git-ignored
 * folder of thousands of files (`.venv`, `target`) does not take the place of the files worth offering.
 */
const MAX_SCANNED_FILES = 50_000;
/** The most time the ignore rules may take over one listing (what they had no time for is left out). */
const IGNORE_BUDGET_MS = 1_000;
/** The list is read again when it is older than this (events can be missed: watcher excludes, other tools). */
const MAX_AGE_MS = 5_000;
/** Ignore files larger than this are not read. */
const MAX_IGNORE_BYTES = 256 * 1024;

/**
 * The workspace files `#` offers: every file but those `files.exclude`, `search.exclude` and the workspace's ignore
 * files (`.gitignore` at any depth, `.git/info/exclude`) leave out, `node_modules` and `.git` never, at most
 * {@link MAX_WORKSPACE_FILES}. Kept current: a deleted file leaves the list at once, a created or renamed one (seen
 * by a file-system watcher) makes the next `#` read the list again, and a list older than a few seconds is read again
 * too.
 */
export class WorkspaceFileList implements vscode.Disposable {
  private files: Promise<vscode.Uri[]> | undefined;
  private readAt = 0;
  private readonly disposables: vscode.Disposable[] = [];
  /** The ignore lines already named in the log (each once a session, not at every listing). */
  private readonly named = new Set<string>();

  constructor(private readonly log: Logger) {}

  /** The files, as of at most a few seconds ago (and after every create, rename and delete seen). */
  list(): Promise<vscode.Uri[]> {
    this.watch();
    if (!this.files || Date.now() - this.readAt > MAX_AGE_MS) {
      this.readAt = Date.now();
      const reading = this.read().catch((error) => {
        this.log.warn(`Chat: the workspace's files could not be listed: ${describeError(error)}`);
        return [];
      });
      this.files = reading;
    }
    return this.files;
  }

  /**
   * Whether `#` would offer `uri`, judged on its own (the list's cap does not count): a file in a workspace folder
   * that `files.exclude`, `search.exclude` and the ignore files that apply to it (`.git/info/exclude`, the
   * `.gitignore` of its folder and of each folder above it) do not leave out. A path with glob characters in it
   * cannot be asked of `findFiles` exactly: it is offered when the list holds it.
   */
  async offers(uri: vscode.Uri): Promise<boolean> {
    const folder = folderOf(uri);
    if (!folder) {
      return false;
    }
    const relative = relativeTo(folder, uri);
    if (/[*?[\]{}]/.test(relative)) {
      return (await this.list()).some((u) => u.toString() === uri.toString());
    }
    const found = await vscode.workspace.findFiles(new vscode.RelativePattern(folder, relative), excludesNow(), 1);
    if (!found.length) {
      return false;
    }
    const dirs = relative.split('/').slice(0, -1);
    const candidates = [
      { dir: '', uri: vscode.Uri.joinPath(folder.uri, '.git', 'info', 'exclude') },
      ...dirs.map((_, i) => {
        const dir = dirs.slice(0, i).join('/');
        return { dir, uri: vscode.Uri.joinPath(folder.uri, dir, '.gitignore') };
      }),
      { dir: dirs.join('/'), uri: vscode.Uri.joinPath(folder.uri, ...dirs, '.gitignore') },
    ];
    const rules = new IgnoreRules(await readIgnoreFiles(candidates));
    return rules.select([relative], 1, IGNORE_BUDGET_MS).kept.length === 1;
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) {
      d.dispose();
    }
  }

  /** Starts listening for changes at the first `#` (activation does no work for it). */
  private watch(): void {
    if (this.disposables.length) {
      return;
    }
    const watcher = vscode.workspace.createFileSystemWatcher('**/*', false, true, false);
    const stale = () => (this.files = undefined);
    this.disposables.push(
      watcher,
      watcher.onDidCreate(stale),
      watcher.onDidDelete((uri) => this.forget(uri)),
      vscode.workspace.onDidCreateFiles(stale),
      vscode.workspace.onDidRenameFiles(stale),
      vscode.workspace.onDidDeleteFiles((e) => e.files.forEach((uri) => this.forget(uri))),
      vscode.workspace.onDidChangeWorkspaceFolders(stale),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('files.exclude') || e.affectsConfiguration('search.exclude')) {
          stale();
        }
      }),
    );
  }

  /** Takes a deleted file (or folder, with what was in it) out of the list at once. */
  private forget(uri: vscode.Uri): void {
    const gone = uri.toString();
    const files = this.files;
    if (files) {
      this.files = files.then((list) =>
        list.filter((u) => u.toString() !== gone && !u.toString().startsWith(`${gone}/`)),
      );
    }
  }

  private async read(): Promise<vscode.Uri[]> {
    const found = await vscode.workspace.findFiles('**/*', excludesNow(), MAX_SCANNED_FILES);
    const out: vscode.Uri[] = [];
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      const mine = found.filter((u) => folderOf(u) === folder);
      const rules = new IgnoreRules(await ignoreFiles(folder, mine));
      this.nameSkipped(folder, rules.skipped);
      const selection = rules.select(
        mine.map((u) => relativeTo(folder, u)),
        MAX_WORKSPACE_FILES - out.length,
        IGNORE_BUDGET_MS,
      );
      out.push(...selection.kept.map((i) => mine[i]));
      if (selection.tooDeep || selection.unjudged) {
        this.log.info(
          `Chat: # leaves out ${selection.tooDeep} files of ${folder.name} nested too deep to match and ` +
            `${selection.unjudged} its ignore rules had no time for.`,
        );
      }
    }
    return out;
  }

  /** Names each ignore line that was skipped, once. */
  private nameSkipped(folder: vscode.WorkspaceFolder, skipped: readonly SkippedPattern[]): void {
    for (const { dir, pattern } of skipped) {
      const key = `${folder.uri.toString()}\n${dir}\n${pattern}`;
      if (!this.named.has(key)) {
        this.named.add(key);
        this.log.warn(
          `Chat: # skips the ignore line "${pattern}" (${folder.name}/${dir}): ` +
            `more than ${MAX_WILDCARDS} wildcards, its matching could take minutes.`,
        );
      }
    }
  }
}

/** The exclude glob of `files.exclude`, `search.exclude` and the folders always left out, as the settings are now. */
export function excludesNow(): string {
  return excludeGlob(
    vscode.workspace.getConfiguration('files').get('exclude'),
    vscode.workspace.getConfiguration('search').get('exclude'),
  );
}

/** The ignore files of a folder: `.git/info/exclude` and every `.gitignore` among its listed files. */
async function ignoreFiles(folder: vscode.WorkspaceFolder, files: readonly vscode.Uri[]): Promise<IgnoreFile[]> {
  const candidates: { dir: string; uri: vscode.Uri }[] = [
    { dir: '', uri: vscode.Uri.joinPath(folder.uri, '.git', 'info', 'exclude') },
    { dir: '', uri: vscode.Uri.joinPath(folder.uri, '.gitignore') },
  ];
  for (const uri of files) {
    const relative = relativeTo(folder, uri);
    if (relative.endsWith('/.gitignore')) {
      candidates.push({ dir: relative.slice(0, -'/.gitignore'.length), uri });
    }
  }
  return readIgnoreFiles(candidates);
}

/** The ignore files among `candidates` that exist and are within their bound. */
async function readIgnoreFiles(candidates: readonly { dir: string; uri: vscode.Uri }[]): Promise<IgnoreFile[]> {
  const out: IgnoreFile[] = [];
  for (const { dir, uri } of candidates) {
    try {
      const bytes = await vscode.workspace.fs.readFile(uri);
      if (bytes.length <= MAX_IGNORE_BYTES) {
        out.push({ dir, text: Buffer.from(bytes).toString('utf8') });
      }
    } catch {
      // No such file.
    }
  }
  return out;
}

function folderOf(uri: vscode.Uri): vscode.WorkspaceFolder | undefined {
  return vscode.workspace.getWorkspaceFolder(uri);
}

/** `uri`'s path relative to `folder`, with `/`. */
function relativeTo(folder: vscode.WorkspaceFolder, uri: vscode.Uri): string {
  const base = folder.uri.path.endsWith('/') ? folder.uri.path : `${folder.uri.path}/`;
  return uri.path.startsWith(base) ? uri.path.slice(base.length) : uri.path;
}
