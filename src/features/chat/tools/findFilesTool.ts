import * as vscode from 'vscode';
import type { ChatTool, ToolResult, ToolRunContext } from '../../../core/chat/tools/chatTool';
import { globProblem, stringArg } from '../../../core/chat/tools/toolInput';
import { findTitle } from '../../../core/chat/tools/toolTitles';
import { findResult } from '../../../core/chat/tools/workspaceResults';
import { WORKSPACE_TOOL_SPECS } from '../../../core/chat/tools/workspaceToolSpecs';
import { describeError } from '../../../core/service/errors';
import type { WorkspaceFileList } from '../workspaceFileList';
import { excludesNow } from '../workspaceFileList';
import { tokenFor } from './workspaceFiles';

/** Most files asked of VS Code for one pattern (the list of `#` then filters them). */
const MAX_SCANNED = 20_000;

/**
 * `find_files`: the workspace files matching a glob that `#` offers (the user's excludes and ignore files applied),
 * at most 200 listed. The glob is VS Code's (`findFiles`), bounded in length and wildcards.
 */
export class FindFilesTool implements ChatTool {
  readonly spec = WORKSPACE_TOOL_SPECS.find_files;
  readonly kind = 'read' as const;

  constructor(private readonly files: WorkspaceFileList) {}

  title(input: Record<string, unknown>): string {
    return findTitle(stringArg(input, 'pattern') ?? '');
  }

  async run(input: Record<string, unknown>, context: ToolRunContext): Promise<ToolResult> {
    const pattern = stringArg(input, 'pattern');
    const problem = globProblem(pattern);
    if (problem || !pattern) {
      return { status: 'refused', text: problem ?? 'The call needs a "pattern".' };
    }
    const cancel = tokenFor(context.signal);
    try {
      const [found, offered] = await Promise.all([
        vscode.workspace.findFiles(pattern, excludesNow(), MAX_SCANNED, cancel.token),
        this.files.list(),
      ]);
      if (context.signal.aborted) {
        return { status: 'failed', text: 'The search for files was stopped.' };
      }
      const allowed = new Set(offered.map((u) => u.toString()));
      const paths = found
        .filter((u) => allowed.has(u.toString()))
        .map((u) => vscode.workspace.asRelativePath(u))
        .sort();
      return { status: 'done', text: findResult(pattern, paths), title: findTitle(pattern, paths.length) };
    } catch (error) {
      return { status: 'failed', text: `The files could not be listed: ${describeError(error)}` };
    } finally {
      cancel.dispose();
    }
  }
}
