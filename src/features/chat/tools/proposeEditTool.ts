import * as vscode from 'vscode';
import type { ChatTool, ToolResult, ToolRunContext } from '../../../core/chat/tools/chatTool';
import { applyPieces, changedSpan, readPieces } from '../../../core/chat/tools/editPieces';
import { stringArg } from '../../../core/chat/tools/toolInput';
import { proposeTitle } from '../../../core/chat/tools/toolTitles';
import { WORKSPACE_TOOL_SPECS } from '../../../core/chat/tools/workspaceToolSpecs';
import type { Logger } from '../../../core/logger';
import { describeError } from '../../../core/service/errors';
import { targetOf } from '../../../host/editorTarget';
import type { ProposalReviewer } from '../../../host/proposalReviewer';
import { readAttachmentFile } from '../attachmentFile';
import type { WorkspaceFileList } from '../workspaceFileList';
import { workspaceFile } from './workspaceFiles';

/**
 * `propose_edit`: a change to an existing workspace file (under the rules of `#`), as search-and-replace pieces or
 * the whole new text. It writes nothing: it opens the reviewed diff of the code-assistance commands (only the lines
 * that change), which applies the change on Apply as one undoable edit, and returns at once.
 */
export class ProposeEditTool implements ChatTool {
  readonly spec = WORKSPACE_TOOL_SPECS.propose_edit;
  readonly kind = 'edit' as const;

  constructor(
    private readonly files: WorkspaceFileList,
    private readonly review: ProposalReviewer,
    private readonly log: Logger,
  ) {}

  title(input: Record<string, unknown>): string {
    return proposeTitle(stringArg(input, 'path') ?? '', false);
  }

  async run(input: Record<string, unknown>, context: ToolRunContext): Promise<ToolResult> {
    const hasEdits = input.edits !== undefined;
    const content = input.content;
    if (hasEdits === (content !== undefined)) {
      return { status: 'refused', text: 'Give either "edits" (search-and-replace pieces) or "content", not both.' };
    }
    if (!hasEdits && typeof content !== 'string') {
      return { status: 'refused', text: '"content" must be the whole new text of the file, as a string.' };
    }
    const pieces = hasEdits ? readPieces(input.edits) : undefined;
    if (pieces && 'problem' in pieces) {
      return { status: 'refused', text: pieces.problem };
    }
    const file = await workspaceFile(stringArg(input, 'path'), this.files);
    if ('refused' in file) {
      return { status: 'refused', text: file.refused };
    }
    try {
      // Read as `#` reads (stat, 512 KB, no binary); nothing of it goes to ALPHA, so a secret-looking name is not asked.
      // An empty file is refused by that read (nothing to attach), yet may be filled.
      const empty = (await vscode.workspace.fs.stat(file.uri)).size === 0;
      const read = empty ? undefined : await readAttachmentFile(file.uri, file.label, this.log, async () => true);
      if (typeof read === 'string' || read === null) {
        return { status: 'refused', text: read ?? `${file.label} cannot be changed.` };
      }
      const document = await vscode.workspace.openTextDocument(file.uri);
      const before = document.getText();
      const after = pieces ? applyPieces(before, pieces.pieces) : { text: content as string };
      if ('problem' in after) {
        return { status: 'refused', text: `${file.label}: ${after.problem}` };
      }
      if (after.text === before) {
        return {
          status: 'refused',
          text: `The proposed text is the same as ${file.label}: there is nothing to review.`,
        };
      }
      if (context.signal.aborted) {
        return { status: 'failed', text: 'The proposal was stopped before it was shown.' };
      }
      const span = changedSpan(before, after.text);
      const opened = await this.review.open({
        // Only the whole lines that change: the review shows them, and Apply replaces them.
        target: targetOf(document, new vscode.Range(document.positionAt(span.start), document.positionAt(span.end))),
        text: span.replacement,
        commandTitle: vscode.l10n.t('Chat'),
        again: vscode.l10n.t('Ask ALPHA in the chat for a new one.'),
      });
      if (!opened.id) {
        return { status: 'refused', text: `The proposed text is the same as ${file.label} but for white space.` };
      }
      void opened.outcome.then((outcome) => this.log.info(`Chat: the proposal for ${file.label} was ${outcome}.`));
      return {
        status: 'done',
        text: `Proposed the change to ${file.label}; the user reviews it and applies it or not.`,
        title: proposeTitle(file.label, true),
        review: { file: file.label, id: opened.id },
      };
    } catch (error) {
      return { status: 'failed', text: `The change to ${file.label} could not be proposed: ${describeError(error)}` };
    }
  }
}

/**
 * Shows a proposal's review again (a step's Review): true when shown, false when it was applied or discarded, or
 * the window was reloaded since (a review lives as long as the window).
 */
export function openReview(review: ProposalReviewer, id: string): Promise<boolean> {
  return review.reopen(id);
}
