import * as vscode from 'vscode';

/**
 * A new untitled editor of a language that code streams into: opened beside the source on the first write, then
 * extended at the end while the code grows (replaced whole if an earlier part changed).
 */
export class UntitledCodeSink {
  private document: vscode.TextDocument | undefined;
  /** What the editor holds, in the pieces written (joined only when a whole write compares with it). */
  private pieces: string[] = [];

  constructor(private readonly languageId: string) {}

  /** Whether an editor was opened (the first non-empty write happened). */
  get opened(): boolean {
    return this.document !== undefined;
  }

  /** Makes the editor hold `code`. Writes nothing for empty code before the editor exists. */
  async write(code: string): Promise<void> {
    const written = this.pieces.join('');
    this.pieces = written === '' ? [] : [written];
    if (code === written || (!this.document && code === '')) {
      return;
    }
    if (code.startsWith(written)) {
      await this.append(code.slice(written.length));
      return;
    }
    const document = this.document ?? (await this.open());
    const edit = new vscode.WorkspaceEdit();
    edit.replace(document.uri, new vscode.Range(new vscode.Position(0, 0), endOf(document)), code);
    if (await vscode.workspace.applyEdit(edit)) {
      this.pieces = [code];
    }
  }

  /**
   * Adds `text` at the end, in work proportional to `text` (the document is neither read nor compared), as code
   * streams in. Writes nothing for empty text.
   */
  async append(text: string): Promise<void> {
    if (text === '') {
      return;
    }
    const document = this.document ?? (await this.open());
    const edit = new vscode.WorkspaceEdit();
    edit.insert(document.uri, endOf(document), text);
    if (await vscode.workspace.applyEdit(edit)) {
      this.pieces.push(text);
    }
  }

  private async open(): Promise<vscode.TextDocument> {
    const document = await vscode.workspace.openTextDocument({ language: this.languageId, content: '' });
    this.document = document;
    await vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.Beside, preview: false });
    return document;
  }
}

/** The end of a document, from its last line (not from its whole text). */
function endOf(document: vscode.TextDocument): vscode.Position {
  return document.lineAt(document.lineCount - 1).range.end;
}
