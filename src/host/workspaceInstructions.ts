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
        const file = await readFile(uri, label, notes);
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

/** One instructions file (its size checked first), or undefined when there is none or it is too large. */
async function readFile(uri: vscode.Uri, label: string, notes: string[]): Promise<InstructionFile | undefined> {
  let size: number;
  try {
    const stat = await vscode.workspace.fs.stat(uri);
    if ((stat.type & vscode.FileType.File) === 0) {
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
  return { label, uri: uri.toString(), text: new TextDecoder('utf-8').decode(bytes), bytes: bytes.length };
}
