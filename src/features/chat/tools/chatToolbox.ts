import * as vscode from 'vscode';
import { allows, type ChatTool, type ChatToolbox, type ToolAccess } from '../../../core/chat/tools/chatTool';
import type { ToolLookups } from '../../../core/mcp/axoToolRunner';
import type { Logger } from '../../../core/logger';
import type { ProposalReviewer } from '../../../host/proposalReviewer';
import type { ChatToolsHost } from '../chatTools';
import { WorkspaceFileList } from '../workspaceFileList';
import { axoChatTools } from './axoTools';
import { FindFilesTool } from './findFilesTool';
import { ProblemsTool } from './problemsTool';
import { openReview, ProposeEditTool } from './proposeEditTool';
import { ReadFileTool } from './readFileTool';
import { SearchTextTool } from './searchTextTool';

/** What the toolbox is built from. */
export interface ChatToolboxDeps {
  /** The AXO tools' lookups: the encyclopedia's cache and key (`toolLookups` of the language-model tools). */
  lookups: ToolLookups;
  /** The code-assistance review the edit tool opens its proposals in. */
  review: ProposalReviewer;
  log: Logger;
  /** Whether the workspace is trusted (default: `vscode.workspace.isTrusted`, read at each call). */
  isTrusted?: () => boolean;
}

/**
 * The one table of the tools our chat offers ALPHA: the three AXO tools; reading (`read_file`, `find_files`,
 * `search_text`, `get_problems`); and proposing edits (`propose_edit`), each level including the ones before. An
 * untrusted workspace, or a window with no folder open, offers only the AXO tools: the workspace tools read files
 * the user has not said may be trusted. The workspace tools see what `#` may offer (one listing, shared by them).
 */
export class ChatToolboxImpl implements ChatToolbox, vscode.Disposable {
  private readonly files: WorkspaceFileList;
  private readonly axo: readonly ChatTool[];
  private readonly workspace: readonly ChatTool[];
  private readonly isTrusted: () => boolean;

  constructor(private readonly deps: ChatToolboxDeps) {
    this.files = new WorkspaceFileList(deps.log);
    this.axo = axoChatTools(deps.lookups);
    this.workspace = [
      new ReadFileTool(this.files, deps.log),
      new FindFilesTool(this.files),
      new SearchTextTool(this.files),
      new ProblemsTool(this.files),
      new ProposeEditTool(this.files, deps.review, deps.log),
    ];
    this.isTrusted = deps.isTrusted ?? (() => vscode.workspace.isTrusted);
  }

  tools(access: ToolAccess): readonly ChatTool[] {
    const local = this.isTrusted() && (vscode.workspace.workspaceFolders?.length ?? 0) > 0;
    return [...this.axo, ...(local ? this.workspace : [])].filter((tool) => allows(access, tool.kind));
  }

  /**
   * Shows a proposed edit's review again by its id (a step's Review): true when shown; false when it was applied or
   * discarded, or the window has been reloaded since.
   */
  openReview(id: string): Promise<boolean> {
    return openReview(this.deps.review, id);
  }

  dispose(): void {
    this.files.dispose();
  }
}

/** The chat's side of the toolbox: its tools, and a step's Review, which says so when the proposal is gone. */
export function chatToolsHost(toolbox: ChatToolboxImpl): ChatToolsHost {
  return {
    toolbox,
    openReview: async (review) => {
      if (!(await toolbox.openReview(review.id))) {
        void vscode.window.showInformationMessage(
          vscode.l10n.t(
            'The proposed change to {0} is no longer open: it was applied or discarded, or the window was reloaded. Ask ALPHA to propose it again.',
            review.file,
          ),
        );
      }
    },
  };
}
