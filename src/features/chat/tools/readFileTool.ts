import * as vscode from 'vscode';
import type { ChatTool, ToolResult, ToolRunContext } from '../../../core/chat/tools/chatTool';
import { readResult, sliceLines } from '../../../core/chat/tools/fileRange';
import { lineArg, stringArg } from '../../../core/chat/tools/toolInput';
import { readTitle } from '../../../core/chat/tools/toolTitles';
import { WORKSPACE_TOOL_SPECS } from '../../../core/chat/tools/workspaceToolSpecs';
import type { Logger } from '../../../core/logger';
import { readAttachmentFile } from '../attachmentFile';
import type { WorkspaceFileList } from '../workspaceFileList';
import { workspaceFile } from './workspaceFiles';

/**
 * `read_file`: a range of lines of a workspace file, under the rules of `#` (see `workspaceFile`), read as `#`
 * reads it (an open editor's text, unsaved edits included; `stat` before the disk; 512 KB; no binary), a
 * secret-looking file only after the user agrees. At most 400 lines and 24,000 characters per call.
 */
export class ReadFileTool implements ChatTool {
  readonly spec = WORKSPACE_TOOL_SPECS.read_file;
  readonly kind = 'read' as const;

  constructor(
    private readonly files: WorkspaceFileList,
    private readonly log: Logger,
  ) {}

  title(input: Record<string, unknown>): string {
    const start = lineArg(input, 'start_line');
    const end = lineArg(input, 'end_line');
    return readTitle(
      stringArg(input, 'path') ?? '',
      start ?? (end === undefined ? undefined : 1),
      end !== undefined && start !== undefined ? Math.max(start, end) : end,
    );
  }

  async run(input: Record<string, unknown>, context: ToolRunContext): Promise<ToolResult> {
    const file = await workspaceFile(stringArg(input, 'path'), this.files);
    if ('refused' in file) {
      return { status: 'refused', text: file.refused };
    }
    const read = await readAttachmentFile(file.uri, file.label, this.log, (label) => askSecret(label, context));
    if (read === null) {
      return { status: 'refused', text: `The user declined to share ${file.label}.` };
    }
    if (typeof read === 'string') {
      return { status: 'refused', text: read };
    }
    const end = lineArg(input, 'end_line');
    const slice = sliceLines(read.content, lineArg(input, 'start_line'), end);
    if ('problem' in slice) {
      return { status: 'refused', text: `${file.label}: ${slice.problem}` };
    }
    return {
      status: 'done',
      text: readResult(file.label, slice, read.language, end),
      title: readTitle(file.label, slice.first, slice.last),
    };
  }
}

/** Asks the user before a secret-looking file's text goes to ALPHA; the question names the file. */
export function askSecret(label: string, context: ToolRunContext): Promise<boolean> {
  return context.confirm(
    vscode.l10n.t(
      'ALPHA asks to read {0}, which looks like it holds a secret (a key, a certificate or credentials). Its text would be sent to the service and stored in the conversation.',
      label,
    ),
    vscode.l10n.t('Share {0}', label),
  );
}
