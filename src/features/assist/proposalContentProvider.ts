import * as vscode from 'vscode';

/** The URI scheme of the read-only documents the diff review shows. */
export const PROPOSAL_SCHEME = 'alpha-proposal';

/** How many reviews' texts are kept; older ones are dropped (their tabs then say so). */
const MAX_KEPT = 20;

/**
 * Serves the two sides of a proposal's diff (the original as it was, and the proposal) as read-only virtual
 * documents. Texts live in memory only, the most recent {@link MAX_KEPT} reviews' worth.
 */
export class ProposalContentProvider implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private readonly emitter = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.emitter.event;

  /** Stores the text of `uri` (shown the next time VS Code asks). */
  set(uri: vscode.Uri, text: string): void {
    const key = uri.toString();
    this.texts.delete(key);
    this.texts.set(key, text);
    while (this.texts.size > MAX_KEPT * 2) {
      const oldest = this.texts.keys().next().value as string;
      this.texts.delete(oldest);
    }
    this.emitter.fire(uri);
  }

  /** Forgets the texts of these URIs. */
  delete(...uris: vscode.Uri[]): void {
    for (const uri of uris) {
      this.texts.delete(uri.toString());
    }
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return (
      this.texts.get(uri.toString()) ?? vscode.l10n.t('(This proposal is no longer available: run the command again.)')
    );
  }

  dispose(): void {
    this.texts.clear();
    this.emitter.dispose();
  }
}
