import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { selectionLabel } from '../../core/assist/assistPrompts';
import { sameCode } from '../../core/assist/proposalText';
import { DisposableOwner } from '../../host/disposables';
import type { AssistTarget } from '../../host/editorTarget';
import type { Proposal, ProposalReviewer, ReviewOutcome } from '../../host/proposalReviewer';
import { PROPOSAL_SCHEME, type ProposalContentProvider } from './proposalContentProvider';

/** What the user decided about a proposal. */
export type Decision = 'apply' | 'discard';

/**
 * Shows a proposal as a diff (the original as it was against the proposal, both read-only virtual documents) and
 * applies it only when the user says so: one WorkspaceEdit, so one Undo reverts it. Apply refuses, saying why, when
 * the document changed after the proposal was made; the review then stays open until it is applied or discarded.
 */
export class ProposalReview extends DisposableOwner implements ProposalReviewer {
  /** The reviews waiting for a decision, by the proposal side's URI. */
  private readonly pending = new Map<string, (decision: Decision) => void>();
  /** The diffs of the reviews waiting for a decision, by id (to show one again). */
  private readonly shown = new Map<string, { original: vscode.Uri; modified: vscode.Uri; title: string }>();

  constructor(private readonly content: ProposalContentProvider) {
    super();
    this._register(vscode.window.tabGroups.onDidChangeTabs((e) => this.forgetClosed(e.closed)));
    this._register({ dispose: () => this.pending.forEach((decide) => decide('discard')) });
  }

  /**
   * Apply or Discard from the diff editor's title bar (`alpha.proposal.apply` / `.discard`): decides the review shown
   * in `uri`'s diff, else the one in the active tab. The notification offers the same; whichever comes first counts.
   */
  decide(decision: Decision, uri?: unknown): void {
    const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    const shown = input instanceof vscode.TabInputTextDiff ? input.modified : undefined;
    const key = (uri instanceof vscode.Uri && uri.scheme === PROPOSAL_SCHEME ? uri : shown)?.toString();
    const decide = key === undefined ? undefined : this.pending.get(key);
    if (decide) {
      decide(decision);
    } else {
      void vscode.window.showInformationMessage(vscode.l10n.t('There is no proposal of ALPHA to decide on here.'));
    }
  }

  /** Opens the diff and waits for Apply or Discard. */
  async review(proposal: Proposal): Promise<ReviewOutcome> {
    return (await this.open(proposal)).outcome;
  }

  /**
   * Opens the diff and returns once it is shown: the review's id (none when the proposal changes nothing) and its
   * outcome, settled on Apply or Discard. While it waits, {@link reopen} shows the diff again by the id.
   */
  async open(proposal: Proposal): Promise<{ id?: string; outcome: Promise<ReviewOutcome> }> {
    const { target, text } = proposal;
    if (sameCode(text, target.context.selection.text)) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t('ALPHA proposes no change to {0}.', selectionLabel(target.context)),
      );
      return { outcome: Promise.resolve('unchanged') };
    }
    // Random, so the id a chat step keeps across a reload never names another review.
    const id = randomUUID();
    const { original, modified } = this.uris(id, target);
    this.content.set(original, target.snapshot);
    this.content.set(
      modified,
      target.snapshot.slice(0, target.startOffset) + text + target.snapshot.slice(target.endOffset),
    );
    const title = vscode.l10n.t(
      "{0}: ALPHA's proposal ({1})",
      path.posix.basename(original.path),
      proposal.commandTitle,
    );
    const key = modified.toString();
    const decision = this.nextDecision(key);
    this.shown.set(id, { original, modified, title });
    await this.show(id);
    const apply = vscode.l10n.t('Apply');
    const discard = vscode.l10n.t('Discard');
    const ask = vscode.l10n.t(
      "Review ALPHA's proposal for {0}, then apply or discard it (also from the diff's title bar).",
      selectionLabel(target.context),
    );
    // The notification may be closed unanswered: the title bar's buttons stay, and closing the diff discards. A trim
    // of the request is told here, where the user decides, rather than in the diff's title (a short tab label).
    void vscode.window
      .showInformationMessage(proposal.notice ? `${ask} ${proposal.notice}` : ask, apply, discard)
      .then((choice) => {
        if (choice !== undefined) {
          this.pending.get(key)?.(choice === apply ? 'apply' : 'discard');
        }
      });
    const outcome = this.settle(proposal, { original, modified }, decision).finally(() => this.shown.delete(id));
    return { id, outcome };
  }

  /** Shows the diff of a review still waiting for a decision again; false when it was decided (or is unknown). */
  async reopen(id: string): Promise<boolean> {
    if (!this.shown.has(id)) {
      return false;
    }
    await this.show(id);
    return true;
  }

  private async show(id: string): Promise<void> {
    const shown = this.shown.get(id);
    if (shown) {
      await vscode.commands.executeCommand('vscode.diff', shown.original, shown.modified, shown.title, {
        preview: false,
      });
    }
  }

  /** Waits for Apply or Discard, and applies on Apply (refused: waits again). */
  private async settle(
    proposal: Proposal,
    { original, modified }: { original: vscode.Uri; modified: vscode.Uri },
    first: Promise<Decision>,
  ): Promise<ReviewOutcome> {
    const key = modified.toString();
    let decision = first;
    for (;;) {
      const choice = await decision;
      if (choice !== 'apply') {
        await this.close(original, modified);
        return 'discarded';
      }
      if (await this.apply(proposal)) {
        await this.close(original, modified);
        return 'applied';
      }
      // Refused: the diff stays open and its title bar still decides (Apply again after an Undo, or Discard).
      decision = this.nextDecision(key);
    }
  }

  /** The next decision on the review of `key`, from the title bar, the notification or the diff being closed. */
  private nextDecision(key: string): Promise<Decision> {
    return new Promise<Decision>((resolve) =>
      this.pending.set(key, (decision) => {
        this.pending.delete(key);
        resolve(decision);
      }),
    );
  }

  /** Applies the proposal as one edit, unless the document moved on since the proposal. */
  private async apply(proposal: Proposal): Promise<boolean> {
    const { target, text } = proposal;
    const document = target.document.isClosed
      ? await vscode.workspace.openTextDocument(target.document.uri)
      : target.document;
    if (document.version !== target.version && document.getText() !== target.snapshot) {
      void vscode.window.showWarningMessage(
        proposal.again
          ? vscode.l10n.t(
              "ALPHA's proposal was not applied: {0} changed after the proposal was made, so it may no longer fit. {1}",
              target.context.path,
              proposal.again,
            )
          : vscode.l10n.t(
              'ALPHA\'s proposal was not applied: {0} changed after the proposal was made, so it may no longer fit. Run "{1}" again.',
              target.context.path,
              proposal.commandTitle,
            ),
      );
      return false;
    }
    const edit = new vscode.WorkspaceEdit();
    edit.replace(document.uri, target.range, text);
    if (!(await vscode.workspace.applyEdit(edit))) {
      void vscode.window.showErrorMessage(
        vscode.l10n.t("ALPHA's proposal could not be applied to {0}.", target.context.path),
      );
      return false;
    }
    const start = target.range.start;
    const end = document.positionAt(document.offsetAt(start) + text.length);
    const editor = await vscode.window.showTextDocument(document, { preview: false });
    editor.selection = new vscode.Selection(start, end);
    editor.revealRange(new vscode.Range(start, end), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    return true;
  }

  private uris(id: string, target: AssistTarget): { original: vscode.Uri; modified: vscode.Uri } {
    const name = path.posix.basename(target.document.uri.path) || 'untitled';
    return {
      original: vscode.Uri.from({ scheme: PROPOSAL_SCHEME, path: `/${id}/original/${name}` }),
      modified: vscode.Uri.from({ scheme: PROPOSAL_SCHEME, path: `/${id}/proposal/${name}` }),
    };
  }

  private async close(original: vscode.Uri, modified: vscode.Uri): Promise<void> {
    const tabs = vscode.window.tabGroups.all
      .flatMap((group) => group.tabs)
      .filter(
        (tab) => tab.input instanceof vscode.TabInputTextDiff && tab.input.modified.toString() === modified.toString(),
      );
    if (tabs.length > 0) {
      await vscode.window.tabGroups.close(tabs);
    }
    this.content.delete(original, modified);
  }

  private forgetClosed(closed: readonly vscode.Tab[]): void {
    for (const tab of closed) {
      if (tab.input instanceof vscode.TabInputTextDiff && tab.input.modified.scheme === PROPOSAL_SCHEME) {
        // Closing the diff of a review still waiting is a Discard.
        this.pending.get(tab.input.modified.toString())?.('discard');
        this.content.delete(tab.input.original, tab.input.modified);
      }
    }
  }
}
