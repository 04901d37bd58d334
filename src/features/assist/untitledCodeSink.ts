import * as vscode from 'vscode';

/**
 * A new untitled editor of a language that code streams into: opened beside the source on the first write, then
 * extended at the end while the code grows (replaced whole if an earlier part changed).
 */
export class UntitledCodeSink {
  private document: vscode.TextDocument | undefined;
  private written = '';

  constructor(private readonly languageId: string) {}

  /** Whether an editor was opened (the first non-empty write happened). */
  get opened(): boolean {
    return this.document !== undefined;
  }

  /** Makes the editor hold `code`. Writes nothing for empty code before the editor exists. */
  async write(code: string): Promise<void> {
    if (code === this.written || (!this.document && code === '')) {
      return;
    }
    const document = this.document ?? (await this.open());
    const edit = new vscode.WorkspaceEdit();
    if (code.startsWith(this.written)) {
      edit.insert(document.uri, document.positionAt(document.getText().length), code.slice(this.written.length));
    } else {
      const all = new vscode.Range(new vscode.Position(0, 0), document.positionAt(document.getText().length));
      edit.replace(document.uri, all, code);
    }
    if (await vscode.workspace.applyEdit(edit)) {
      this.written = code;
    }
  }

  private async open(): Promise<vscode.TextDocument> {
    const document = await vscode.workspace.openTextDocument({ language: this.languageId, content: '' });
    this.document = document;
    await vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.Beside, preview: false });
    return document;
  }
}
