import * as vscode from 'vscode';
import type { ChatTool, ToolResult, ToolRunContext } from '../../../core/chat/tools/chatTool';
import { stringArg } from '../../../core/chat/tools/toolInput';
import { problemsTitle } from '../../../core/chat/tools/toolTitles';
import { problemsResult, type ProblemLine } from '../../../core/chat/tools/workspaceResults';
import { WORKSPACE_TOOL_SPECS } from '../../../core/chat/tools/workspaceToolSpecs';
import { toDiagnosticInfo } from '../../../host/editorTarget';
import type { WorkspaceFileList } from '../workspaceFileList';
import { workspaceFile } from './workspaceFiles';

/**
 * `get_problems`: the problems VS Code reports (its diagnostics) for one file under the rules of `#`, or for every
 * file `#` offers; at most 100, errors first.
 */
export class ProblemsTool implements ChatTool {
  readonly spec = WORKSPACE_TOOL_SPECS.get_problems;
  readonly kind = 'read' as const;

  constructor(private readonly files: WorkspaceFileList) {}

  title(input: Record<string, unknown>): string {
    return problemsTitle(stringArg(input, 'path'));
  }

  async run(input: Record<string, unknown>, context: ToolRunContext): Promise<ToolResult> {
    const path = stringArg(input, 'path');
    if (path !== undefined) {
      const file = await workspaceFile(path, this.files);
      if ('refused' in file) {
        return { status: 'refused', text: file.refused };
      }
      const lines = vscode.languages.getDiagnostics(file.uri).map((d) => problemLine(file.label, d));
      return { status: 'done', text: problemsResult(file.label, lines), title: problemsTitle(file.label) };
    }
    const offered = new Set((await this.files.list()).map((u) => u.toString()));
    if (context.signal.aborted) {
      return { status: 'failed', text: 'Listing the problems was stopped.' };
    }
    const lines: ProblemLine[] = [];
    for (const [uri, diagnostics] of vscode.languages.getDiagnostics()) {
      if (offered.has(uri.toString())) {
        const label = vscode.workspace.asRelativePath(uri);
        lines.push(...diagnostics.map((d) => problemLine(label, d)));
      }
    }
    return { status: 'done', text: problemsResult('the workspace', lines) };
  }
}

function problemLine(file: string, diagnostic: vscode.Diagnostic): ProblemLine {
  const info = toDiagnosticInfo(diagnostic);
  return {
    file,
    line: info.startLine + 1,
    column: info.startCharacter + 1,
    severity: info.severity,
    message: info.message,
    source: info.source,
    code: info.code,
  };
}
