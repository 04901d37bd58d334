import * as vscode from 'vscode';
import { MAX_ATTACHMENT_BYTES, refusal } from '../../../core/chat/request/attachments';
import type { ChatTool, ToolResult, ToolRunContext } from '../../../core/chat/tools/chatTool';
import {
  findInText,
  literalPattern,
  queryProblem,
  SEARCH_MAX_BYTES,
  SEARCH_MAX_MATCHES,
} from '../../../core/chat/tools/textSearch';
import { globProblem, stringArg } from '../../../core/chat/tools/toolInput';
import { searchTitle } from '../../../core/chat/tools/toolTitles';
import { searchResult, type FileMatches, type SearchTally } from '../../../core/chat/tools/workspaceResults';
import { WORKSPACE_TOOL_SPECS } from '../../../core/chat/tools/workspaceToolSpecs';
import { describeError } from '../../../core/service/errors';
import { insideWorkspace, looksSecretFile } from '../attachmentFile';
import { excludesNow, type WorkspaceFileList } from '../workspaceFileList';
import { tokenFor } from './workspaceFiles';

/** Most files asked of VS Code for an `include` pattern (the list of `#` then filters them). */
const MAX_SCANNED = 20_000;

/**
 * `search_text`: a literal text, case ignored, in the files `#` offers (at most its 5,000), in path order. Files are
 * read as `#` reads them (an open editor's text, else the disk after `stat`; 512 KB; no binary); secret-looking
 * files and links leading out of the workspace are not searched. At most 50 matching lines, each cut to 200
 * characters, and 32 MB read in all. Nothing ALPHA writes runs as a pattern: the query is matched literally.
 */
export class SearchTextTool implements ChatTool {
  readonly spec = WORKSPACE_TOOL_SPECS.search_text;
  readonly kind = 'read' as const;

  constructor(private readonly files: WorkspaceFileList) {}

  title(input: Record<string, unknown>): string {
    return searchTitle(stringArg(input, 'query') ?? '');
  }

  async run(input: Record<string, unknown>, context: ToolRunContext): Promise<ToolResult> {
    const query = stringArg(input, 'query');
    const include = stringArg(input, 'include');
    const problem = queryProblem(query) ?? (include === undefined ? undefined : globProblem(include));
    if (problem || !query) {
      return { status: 'refused', text: problem ?? 'The call needs a "query".' };
    }
    try {
      const candidates = await this.candidates(include, context.signal);
      const { found, tally } = await searchFiles(candidates, query, context.signal);
      if (context.signal.aborted) {
        return { status: 'failed', text: 'The search was stopped.' };
      }
      const count = found.reduce((sum, f) => sum + f.matches.length, 0);
      return { status: 'done', text: searchResult(query, found, tally), title: searchTitle(query, count) };
    } catch (error) {
      return { status: 'failed', text: `The search failed: ${describeError(error)}` };
    }
  }

  /** The files `#` offers (matching `include`), in path order. */
  private async candidates(include: string | undefined, signal: AbortSignal): Promise<vscode.Uri[]> {
    let files = await this.files.list();
    if (include) {
      const cancel = tokenFor(signal);
      try {
        const matching = await vscode.workspace.findFiles(include, excludesNow(), MAX_SCANNED, cancel.token);
        const wanted = new Set(matching.map((u) => u.toString()));
        files = files.filter((u) => wanted.has(u.toString()));
      } finally {
        cancel.dispose();
      }
    }
    return files
      .map((uri) => ({ uri, label: vscode.workspace.asRelativePath(uri) }))
      .sort((a, b) => (a.label < b.label ? -1 : a.label > b.label ? 1 : 0))
      .map((f) => f.uri);
  }
}

/** Searches the files in order until the cap of matches or the budget of bytes. */
async function searchFiles(
  uris: readonly vscode.Uri[],
  query: string,
  signal: AbortSignal,
): Promise<{ found: FileMatches[]; tally: SearchTally }> {
  const pattern = literalPattern(query);
  const open = new Map(vscode.workspace.textDocuments.map((d) => [d.uri.toString(), d]));
  const found: FileMatches[] = [];
  const tally: SearchTally = { searched: 0, skipped: 0, capped: false };
  let bytes = 0;
  let count = 0;
  for (const uri of uris) {
    if (signal.aborted) {
      break;
    }
    if (bytes >= SEARCH_MAX_BYTES) {
      tally.capped = true;
      tally.outOfBudget = true;
      break;
    }
    const text = await searchable(uri, open.get(uri.toString()));
    if (text === undefined) {
      tally.skipped++;
      continue;
    }
    bytes += text.length;
    tally.searched++;
    const { matches, more } = findInText(text, pattern, SEARCH_MAX_MATCHES - count);
    if (matches.length) {
      found.push({ file: vscode.workspace.asRelativePath(uri), matches });
      count += matches.length;
    }
    if (more || count >= SEARCH_MAX_MATCHES) {
      tally.capped = more || uri !== uris[uris.length - 1];
      break;
    }
  }
  return { found, tally };
}

/** A file's text when it may be searched: not secret-looking, inside the workspace, a text file within 512 KB. */
async function searchable(uri: vscode.Uri, open: vscode.TextDocument | undefined): Promise<string | undefined> {
  try {
    if ((await looksSecretFile(uri)) || !(await insideWorkspace(uri))) {
      return undefined;
    }
    if (open) {
      const text = open.getText();
      return text.length > MAX_ATTACHMENT_BYTES ? undefined : text;
    }
    const stat = await vscode.workspace.fs.stat(uri);
    if ((stat.type & vscode.FileType.File) === 0 || stat.size > MAX_ATTACHMENT_BYTES) {
      return undefined;
    }
    const data = await vscode.workspace.fs.readFile(uri);
    return refusal('', data) ? undefined : Buffer.from(data).toString('utf8');
  } catch {
    return undefined;
  }
}
