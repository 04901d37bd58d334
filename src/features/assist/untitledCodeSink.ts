import * as vscode from 'vscode';
import { CodeSink, type CodeEditorPort } from './codeSink';

/**
 * A new untitled editor of a language that code streams into: opened beside the source on the first write, then
 * extended at the end while the code grows (replaced whole if an earlier part changed). See codeSink.ts.
 */
export class UntitledCodeSink extends CodeSink {
  constructor(languageId: string) {
    super(untitledEditor(languageId));
  }
}

/** An untitled editor of `languageId`, opened beside the active one. */
function untitledEditor(languageId: string): CodeEditorPort {
  let opened: vscode.TextDocument | undefined;
  const apply = async (change: (edit: vscode.WorkspaceEdit, document: vscode.TextDocument) => void) => {
    if (!opened) {
      return false;
    }
    const edit = new vscode.WorkspaceEdit();
    change(edit, opened);
    return vscode.workspace.applyEdit(edit);
  };
  return {
    open: async () => {
      const document = await vscode.workspace.openTextDocument({ language: languageId, content: '' });
      opened = document;
      await vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.Beside, preview: false });
    },
    append: (text) => apply((edit, document) => edit.insert(document.uri, endOf(document), text)),
    replace: (code) =>
      apply((edit, document) =>
        edit.replace(document.uri, new vscode.Range(new vscode.Position(0, 0), endOf(document)), code),
      ),
  };
}

/** The end of a document, from its last line (not from its whole text). */
function endOf(document: vscode.TextDocument): vscode.Position {
  return document.lineAt(document.lineCount - 1).range.end;
}
