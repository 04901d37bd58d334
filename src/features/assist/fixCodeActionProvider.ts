import * as vscode from 'vscode';

/** The quick fix's title, translated when asked for. */
export function fixActionTitle(): string {
  return vscode.l10n.t('Fix with ALPHA');
}

/**
 * Offers "Fix with ALPHA" on every range that has diagnostics: it runs `alpha.fix` on the document with the lines
 * of the range and its diagnostics, so the proposal covers exactly those problems.
 */
export class FixCodeActionProvider implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];

  provideCodeActions(
    document: vscode.TextDocument,
    range: vscode.Range | vscode.Selection,
    context: vscode.CodeActionContext,
  ): vscode.CodeAction[] {
    if (context.diagnostics.length === 0) {
      return [];
    }
    if (context.only && !context.only.contains(vscode.CodeActionKind.QuickFix)) {
      return [];
    }
    const covered = context.diagnostics.reduce<vscode.Range>((union, d) => union.union(d.range), range);
    const title = fixActionTitle();
    const action = new vscode.CodeAction(title, vscode.CodeActionKind.QuickFix);
    action.diagnostics = [...context.diagnostics];
    action.command = {
      command: 'alpha.fix',
      title,
      arguments: [{ uri: document.uri, range: covered }],
    };
    return [action];
  }
}
