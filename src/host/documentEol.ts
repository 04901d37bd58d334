import * as vscode from 'vscode';

/** The line end a document uses, as text. */
export function eolOf(document: vscode.TextDocument): '\n' | '\r\n' {
  return document.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n';
}
