import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  INSTRUCTION_FILES,
  MAX_INSTRUCTION_READ_BYTES,
  buildInstructions,
  tooLargeToRead,
  type InstructionFile,
  type Instructions,
} from '../core/chat/request/instructions';
import { describeError } from '../core/service/errors';
import { DisposableOwner } from './disposables';
import type { HostLogger } from './logger';
import type { Settings } from './settings';

/**
 * The repository's instructions for ALPHA (src/core/chat/request/instructions.ts), read from the workspace folders and kept
 * current: read again when a file changes, a folder comes or goes, the workspace is trusted, or the setting changes.
 * None in an untrusted workspace (a cloned repository's text steering the model is prompt injection) and none while
 * `alphaAxo.chat.workspaceInstructions` is off. `current` is what the next request sends (the chat, `@alpha` and
 * the assistance commands alike).
 */
export class WorkspaceInstructions extends DisposableOwner {
  private value: Instructions | undefined;
  private generation = 0;
  private reading: Promise<void> = Promise.resolve();
  private readonly changed = this._register(new vscode.EventEmitter<void>());
  /** Fires after `current` changed. */
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly settings: Settings,
    private readonly log: HostLogger,
  ) {
    super();
    const watcher = this._register(vscode.workspace.createFileSystemWatcher(`**/{${INSTRUCTION_FILES.join(',')}}`));
    const again = () => this.refresh();
    this._register(watcher.onDidCreate(again));
    this._register(watcher.onDidChange(again));
    this._register(watcher.onDidDelete(again));
    this._register(vscode.workspace.onDidChangeWorkspaceFolders(again));
    this._register(vscode.workspace.onDidGrantWorkspaceTrust(again));
    this._register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('alphaAxo.chat.workspaceInstructions')) {
          again();
        }
      }),
    );
    this.refresh();
  }

  /** The instructions the next request sends (undefined: none, or not read yet). */
  get current(): Instructions | undefined {
    return this.value;
  }

  /** Settles once the reading asked for last has ended. */
  whenRead(): Promise<void> {
    return this.reading;
  }

  /** Reads the files again; the newest reading wins. */
  refresh(): void {
    const generation = ++this.generation;
    this.reading = this.read()
      .catch((error: unknown) => {
        this.log.warn(`Instructions: could not be read: ${describeError(error)}`);
        return undefined;
      })
      .then((value) => {
        if (generation !== this.generation || this.isDisposed) {
          return;
        }
        const before = JSON.stringify(this.value ?? null);
        this.value = value;
        if (JSON.stringify(value ?? null) !== before) {
          this.changed.fire();
        }
      });
  }

  private async read(): Promise<Instructions | undefined> {
    if (!vscode.workspace.isTrusted || !this.settings.workspaceInstructions) {
      return undefined;
    }
    const folders = vscode.workspace.workspaceFolders ?? [];
    const files: InstructionFile[] = [];
    const notes: string[] = [];
    for (const folder of folders) {
      for (const name of INSTRUCTION_FILES) {
        const uri = vscode.Uri.joinPath(folder.uri, name);
        const label = folders.length > 1 ? `${folder.name}/${name}` : name;
        const file = await readFile(folder.uri, uri, label, notes);
        if (file) {
          files.push(file);
        }
      }
    }
    const built = buildInstructions(files);
    if (!notes.length) {
      return built;
    }
    // A file too large to read is said on the chip even when no other file is sent (nothing is then sent).
    const notice = [...notes, built?.notice].filter(Boolean).join(' ');
    return built ? { ...built, notice } : { files: [], message: '', tokens: 0, notice };
  }
}

/**
 * One instructions file, or undefined when there is none, it is not a regular file inside its workspace folder, or it
 * is too large. A link is followed to where it leads and judged there (`AGENTS.md -> ~/.ssh/id_rsa` is outside the
 * folder; `/proc/self/environ` says its size is 0): on this machine by its real path, and what is read is capped
 * whatever `stat` said. On another file system (a remote window) a link is not read at all.
 */
async function readFile(
  folder: vscode.Uri,
  uri: vscode.Uri,
  label: string,
  notes: string[],
): Promise<InstructionFile | undefined> {
  if (uri.scheme === 'file' && folder.scheme === 'file') {
    return readLocalFile(folder.fsPath, uri, label, notes);
  }
  let size: number;
  try {
    const stat = await vscode.workspace.fs.stat(uri);
    // `File | SymbolicLink` is a link to a file: its target cannot be judged from here.
    if (stat.type !== vscode.FileType.File) {
      return undefined;
    }
    size = stat.size;
  } catch {
    return undefined;
  }
  if (size > MAX_INSTRUCTION_READ_BYTES) {
    notes.push(tooLargeToRead(label, size));
    return undefined;
  }
  const bytes = await vscode.workspace.fs.readFile(uri);
  if (bytes.length > MAX_INSTRUCTION_READ_BYTES) {
    notes.push(tooLargeToRead(label, bytes.length));
    return undefined;
  }
  return { label, uri: uri.toString(), text: new TextDecoder('utf-8').decode(bytes), bytes: bytes.length };
}

/** `readFile` on this machine: the real path inside the folder's real path, a regular file, at most the bound read. */
async function readLocalFile(
  folderPath: string,
  uri: vscode.Uri,
  label: string,
  notes: string[],
): Promise<InstructionFile | undefined> {
  let real: string;
  try {
    const [file, folder] = await Promise.all([fs.realpath(uri.fsPath), fs.realpath(folderPath)]);
    if (!isWithin(file, folder)) {
      return undefined;
    }
    real = file;
  } catch {
    return undefined;
  }
  let handle: import('node:fs/promises').FileHandle;
  try {
    handle = await fs.open(real, 'r');
  } catch {
    return undefined;
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) {
      return undefined;
    }
    if (stat.size > MAX_INSTRUCTION_READ_BYTES) {
      notes.push(tooLargeToRead(label, stat.size));
      return undefined;
    }
    // One byte more than the bound tells a file that grew, or whose size `stat` does not know, from one that fits.
    const buffer = Buffer.alloc(MAX_INSTRUCTION_READ_BYTES + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0 || (length += bytesRead) >= buffer.length) {
        break;
      }
    }
    if (length > MAX_INSTRUCTION_READ_BYTES) {
      notes.push(tooLargeToRead(label, Math.max(length, stat.size)));
      return undefined;
    }
    const bytes = buffer.subarray(0, length);
    return { label, uri: uri.toString(), text: new TextDecoder('utf-8').decode(bytes), bytes: length };
  } finally {
    await handle.close();
  }
}

/** Whether the path `child` is `folder` or inside it (case folded where the file system folds it). */
function isWithin(child: string, folder: string): boolean {
  const fold = (p: string) => (process.platform === 'win32' || process.platform === 'darwin' ? p.toLowerCase() : p);
  const relative = path.relative(fold(folder), fold(child));
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}
