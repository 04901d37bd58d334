import * as path from 'node:path';
import * as vscode from 'vscode';
import { plainTerminalText, rankPaths } from '../../core/chat/request/attachments';
import { newId, type ContextItem } from '../../core/chat/conversation/conversation';
import { fenceForLanguageId } from '../../core/chat/workspace/languageIds';
import { describeError } from '../../core/service/errors';
import type { Logger } from '../../core/logger';
import type { AttachOptionView } from '../../protocol/chatProtocol';
import { mayReadDropped, readAttachmentFile, type FileRead } from './attachmentFile';
import { selectionContext } from './chatCommands';
import { WorkspaceFileList } from './workspaceFileList';

/** At most this many options are offered for one `#query`. */
const MAX_OPTIONS = 30;
/** The last command's output kept per terminal, at most (its end is kept). */
const MAX_TERMINAL_CHARS = 64 * 1024;

/** An option offered, with how to read it when chosen. */
interface Offered {
  view: AttachOptionView;
  read(): Promise<FileRead>;
}

/**
 * What `#` in the chat's composer can attach, and reading it: the selection, the last command's output in the
 * active terminal (read through shell integration, `TerminalShellExecution.read()`), open files, the active
 * file's symbols, and workspace files by fuzzy match (see {@link WorkspaceFileList}). Files that are binary or too
 * large are refused with the reason, one whose name looks like a secret is read after a confirmation. Also reads
 * dropped files and editor tabs (one outside the workspace after a confirmation).
 */
export class AttachmentSource implements vscode.Disposable {
  private offered = new Map<string, Offered>();
  private readonly files: WorkspaceFileList;
  /** The last command's output per terminal, as it arrived. */
  private readonly output = new WeakMap<vscode.Terminal, { command: string; text: string }>();
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly log: Logger) {
    this.files = new WorkspaceFileList(log);
    // VS Code before 1.93 has no shell integration events (and this engine's typings do not name them): then no
    // terminal output is offered.
    const onStart = (vscode.window as unknown as ShellIntegrationWindow).onDidStartTerminalShellExecution;
    if (typeof onStart === 'function') {
      this.disposables.push(onStart((event) => void this.capture(event)));
    }
    this.disposables.push(this.files);
  }

  /** What `#query` may attach, best first. */
  async options(query: string): Promise<AttachOptionView[]> {
    const q = query.trim().toLowerCase();
    const offered: Offered[] = [];
    const editor = vscode.window.activeTextEditor;
    const selected = selectionContext(editor);
    if (selected && matches(q, 'selection')) {
      offered.push({
        view: { id: newId(), kind: 'selection', label: vscode.l10n.t('Selection: {0}', selected.label) },
        read: async () => selected,
      });
    }
    const terminal = vscode.window.activeTerminal;
    const last = terminal && this.output.get(terminal);
    if (terminal && last && matches(q, `terminal ${last.command}`)) {
      offered.push({
        view: {
          id: newId(),
          kind: 'terminal',
          label: vscode.l10n.t('Terminal: {0}', last.command || terminal.name),
          detail: terminal.name,
        },
        read: async () => ({
          id: newId(),
          label: vscode.l10n.t('Output of {0}', last.command || terminal.name),
          content: last.text,
        }),
      });
    }
    const open = openFileUris();
    for (const uri of open) {
      const name = labelOf(uri);
      if (!q || rankPaths(q, [vscode.workspace.asRelativePath(uri)], 1).length) {
        offered.push({
          view: { id: newId(), kind: 'openFile', label: path.basename(uri.path), detail: folderOf(uri) },
          read: () => readAttachmentFile(uri, name, this.log),
        });
      }
    }
    if (editor) {
      offered.push(...(await this.symbols(editor.document, q)));
    }
    const known = new Set(open.map((u) => u.toString()));
    const files = (await this.files.list()).filter((u) => !known.has(u.toString()));
    const byPath = new Map(files.map((u) => [vscode.workspace.asRelativePath(u), u]));
    for (const relative of rankPaths(q, [...byPath.keys()], MAX_OPTIONS)) {
      const uri = byPath.get(relative) as vscode.Uri;
      offered.push({
        view: { id: newId(), kind: 'file', label: path.basename(uri.path), detail: folderOf(uri) },
        // A workspace file may be a link out of the workspace: the drop's rule (its real path inside, or the dialog).
        read: async () => ((await mayReadDropped(uri, [])) ? readAttachmentFile(uri, relative, this.log) : null),
      });
    }
    const shown = offered.slice(0, MAX_OPTIONS);
    this.offered = new Map(shown.map((o) => [o.view.id, o]));
    return shown.map((o) => o.view);
  }

  /**
   * Reads an option offered by the last `options`: its context item, why it cannot be attached, null when the user
   * declined to attach it, undefined when it was not offered.
   */
  async read(id: string): Promise<FileRead | undefined> {
    const offered = this.offered.get(id);
    return offered?.read();
  }

  /**
   * Reads dropped files and editor tabs (their URIs as text); each gives an item or why it cannot be attached. A file
   * outside the workspace folders that is not an open editor is read only if the user confirms it; one declined is
   * left out.
   */
  async readDropped(uris: readonly string[]): Promise<(ContextItem | string)[]> {
    const out: (ContextItem | string)[] = [];
    for (const text of uris) {
      let uri: vscode.Uri;
      try {
        uri = vscode.Uri.parse(text, true);
      } catch {
        out.push(vscode.l10n.t('{0} is not a file that can be attached.', text));
        continue;
      }
      if (uri.scheme !== 'file' && uri.scheme !== 'vscode-remote' && uri.scheme !== 'untitled') {
        out.push(vscode.l10n.t('{0} is not a file that can be attached.', text));
        continue;
      }
      if (!(await mayReadDropped(uri, openFileUris()))) {
        this.log.info(`Chat: a dropped file outside the workspace was not attached: ${uri.toString(true)}`);
        continue;
      }
      const read = await readAttachmentFile(uri, labelOf(uri), this.log);
      if (read !== null) {
        out.push(read);
      }
    }
    return out;
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) {
      d.dispose();
    }
  }

  /** The active file's symbols matching `q`, flattened (a method under its class). */
  private async symbols(document: vscode.TextDocument, q: string): Promise<Offered[]> {
    let found: (vscode.DocumentSymbol | vscode.SymbolInformation)[] | undefined;
    try {
      found = await vscode.commands.executeCommand<(vscode.DocumentSymbol | vscode.SymbolInformation)[]>(
        'vscode.executeDocumentSymbolProvider',
        document.uri,
      );
    } catch {
      return [];
    }
    const flat: { name: string; kind: vscode.SymbolKind; range: vscode.Range }[] = [];
    const walk = (items: readonly (vscode.DocumentSymbol | vscode.SymbolInformation)[]) => {
      for (const item of items) {
        const range = 'range' in item ? item.range : item.location.range;
        flat.push({ name: item.name, kind: item.kind, range });
        if ('children' in item && item.children?.length) {
          walk(item.children);
        }
      }
    };
    walk(found ?? []);
    const file = path.basename(document.uri.path);
    const language = fenceForLanguageId(document.languageId) || undefined;
    return rankPaths(
      q,
      flat.map((s) => s.name),
      10,
    ).map((name) => {
      const symbol = flat.find((s) => s.name === name) as (typeof flat)[number];
      const lines = `${file}:${symbol.range.start.line + 1}-${symbol.range.end.line + 1}`;
      return {
        view: {
          id: newId(),
          kind: 'symbol' as const,
          label: `${name} (${vscode.SymbolKind[symbol.kind].toLowerCase()})`,
          detail: lines,
        },
        read: async () => ({
          id: newId(),
          label: `${name} · ${lines}`,
          content: document.getText(symbol.range),
          language,
        }),
      };
    });
  }

  /** Keeps what a command writes in a terminal with shell integration, as the last output of that terminal. */
  private async capture(event: ShellExecutionStart): Promise<void> {
    const record = { command: event.execution.commandLine.value.trim(), text: '' };
    this.output.set(event.terminal, record);
    let raw = '';
    try {
      for await (const data of event.execution.read()) {
        raw += data;
        if (raw.length > MAX_TERMINAL_CHARS * 2) {
          raw = raw.slice(-MAX_TERMINAL_CHARS);
        }
        record.text = plainTerminalText(raw).slice(-MAX_TERMINAL_CHARS);
      }
    } catch (error) {
      this.log.debug(`Chat: a terminal's output could not be read: ${describeError(error)}`);
    }
  }
}

/** The part of the shell integration API (stable since VS Code 1.93) this reads. */
interface ShellExecutionStart {
  terminal: vscode.Terminal;
  execution: { commandLine: { value: string }; read(): AsyncIterable<string> };
}

interface ShellIntegrationWindow {
  onDidStartTerminalShellExecution?: vscode.Event<ShellExecutionStart>;
}

/** Whether an option named `name` matches what was typed (everything matches nothing typed). */
function matches(q: string, name: string): boolean {
  return !q || rankPaths(q, [name], 1).length > 0;
}

/** The files open in editor tabs, in tab order. */
function openFileUris(): vscode.Uri[] {
  const seen = new Set<string>();
  const out: vscode.Uri[] = [];
  for (const group of vscode.window.tabGroups.all) {
    for (const tab of group.tabs) {
      const input = tab.input;
      if (input instanceof vscode.TabInputText && !seen.has(input.uri.toString())) {
        seen.add(input.uri.toString());
        out.push(input.uri);
      }
    }
  }
  return out;
}

function labelOf(uri: vscode.Uri): string {
  return uri.scheme === 'untitled' ? uri.path : vscode.workspace.asRelativePath(uri);
}

function folderOf(uri: vscode.Uri): string | undefined {
  const relative = vscode.workspace.asRelativePath(uri);
  const folder = path.posix.dirname(relative.replace(/\\/g, '/'));
  return folder === '.' ? undefined : folder;
}
