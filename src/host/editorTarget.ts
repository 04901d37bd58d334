import * as vscode from 'vscode';
import type { AssistTask } from '../core/assist/assistPrompts';
import {
  blockAround,
  buildCodeContext,
  displayPath,
  enclosingSymbolSpan,
  type CodeContext,
  type DiagnosticInfo,
  type LineSpan,
  type SymbolNode,
} from '../core/assist/codeContext';

/** The code an assistance command works on, as it was when the request was made. */
export interface AssistTarget {
  document: vscode.TextDocument;
  /** What a proposal replaces: whole lines for edits, the exact selection for Explain. */
  range: vscode.Range;
  /** The document's version and full text when the request was made (Apply refuses when either moved on). */
  version: number;
  snapshot: string;
  /** Offsets of `range` in `snapshot`. */
  startOffset: number;
  endOffset: number;
  context: CodeContext;
}

const SEVERITY: Record<vscode.DiagnosticSeverity, DiagnosticInfo['severity']> = {
  [vscode.DiagnosticSeverity.Error]: 'error',
  [vscode.DiagnosticSeverity.Warning]: 'warning',
  [vscode.DiagnosticSeverity.Information]: 'information',
  [vscode.DiagnosticSeverity.Hint]: 'hint',
};

/**
 * Resolves what a task works on: the selection, else (nothing selected) the enclosing function from the symbol
 * provider, else the block of lines around the cursor; for Fix with nothing selected, the lines of the problems on
 * the cursor's line. Edits take whole lines. `range` overrides the editor's selection (code actions, chat references).
 */
export async function resolveTarget(
  document: vscode.TextDocument,
  task: AssistTask,
  selection: vscode.Range,
  token?: vscode.CancellationToken,
): Promise<AssistTarget> {
  let range: vscode.Range = selection;
  if (selection.isEmpty) {
    const span =
      task === 'fix' ? problemSpan(document, selection.start.line) : await enclosingSpan(document, selection.start);
    range = lineRange(document, span);
  } else if (task !== 'explain') {
    range = lineRange(document, spanOf(selection));
  }
  if (token?.isCancellationRequested) {
    throw new vscode.CancellationError();
  }
  return targetOf(document, range);
}

/**
 * The target of exactly `range` of `document` as it is now: its snapshot, the range's offsets and the context
 * around it. Throws a RangeError with a readable sentence when the range is too large for a prompt.
 */
export function targetOf(document: vscode.TextDocument, range: vscode.Range): AssistTarget {
  const context = buildCodeContext(
    { lineCount: document.lineCount, lineText: (n) => document.lineAt(n).text },
    {
      languageId: document.languageId,
      path: pathOf(document.uri),
      selectionText: document.getText(range),
      span: { start: range.start.line, end: range.end.line },
      diagnostics: diagnosticsOf(document.uri),
    },
  );
  return {
    document,
    range,
    version: document.version,
    snapshot: document.getText(),
    startOffset: document.offsetAt(range.start),
    endOffset: document.offsetAt(range.end),
    context,
  };
}

/** The line span a selection covers; a selection ending at column 0 of a later line does not take that line. */
export function spanOf(selection: vscode.Range): LineSpan {
  const end =
    selection.end.character === 0 && selection.end.line > selection.start.line
      ? selection.end.line - 1
      : selection.end.line;
  return { start: selection.start.line, end };
}

/** From the start of the span's first line to the end of its last line. */
export function lineRange(document: vscode.TextDocument, span: LineSpan): vscode.Range {
  return new vscode.Range(span.start, 0, span.end, document.lineAt(span.end).text.length);
}

/** The document's diagnostics in the prompt's terms. */
export function diagnosticsOf(uri: vscode.Uri): DiagnosticInfo[] {
  return vscode.languages.getDiagnostics(uri).map(toDiagnosticInfo);
}

/** One diagnostic in the prompt's terms. */
export function toDiagnosticInfo(d: vscode.Diagnostic): DiagnosticInfo {
  const code = typeof d.code === 'object' ? d.code.value : d.code;
  return {
    message: d.message,
    severity: SEVERITY[d.severity],
    startLine: d.range.start.line,
    startCharacter: d.range.start.character,
    endLine: d.range.end.line,
    endCharacter: d.range.end.character,
    source: d.source,
    code: code === undefined ? undefined : String(code),
  };
}

/** The workspace-relative path of a document, or its bare name outside the workspace. */
export function pathOf(uri: vscode.Uri): string {
  const folders = (vscode.workspace.workspaceFolders ?? [])
    .filter((f) => f.uri.scheme === uri.scheme && f.uri.authority === uri.authority)
    .map((f) => ({ name: f.name, path: f.uri.path }));
  return displayPath(uri.path, folders);
}

async function enclosingSpan(document: vscode.TextDocument, position: vscode.Position): Promise<LineSpan> {
  const lines = { lineCount: document.lineCount, lineText: (n: number) => document.lineAt(n).text };
  try {
    const symbols = await vscode.commands.executeCommand<(vscode.DocumentSymbol | vscode.SymbolInformation)[]>(
      'vscode.executeDocumentSymbolProvider',
      document.uri,
    );
    const span = enclosingSymbolSpan((symbols ?? []).map(toSymbolNode), position.line);
    if (span) {
      return span;
    }
  } catch {
    // No symbol provider for this language: fall back to the block around the cursor.
  }
  return blockAround(lines, position.line);
}

function toSymbolNode(symbol: vscode.DocumentSymbol | vscode.SymbolInformation): SymbolNode {
  const range = 'range' in symbol ? symbol.range : symbol.location.range;
  const children = 'children' in symbol ? symbol.children.map(toSymbolNode) : [];
  return {
    kind: vscode.SymbolKind[symbol.kind].toLowerCase(),
    startLine: range.start.line,
    endLine: range.end.line,
    children,
  };
}

function problemSpan(document: vscode.TextDocument, line: number): LineSpan {
  const touching = vscode.languages
    .getDiagnostics(document.uri)
    .filter((d) => d.range.start.line <= line && d.range.end.line >= line);
  const start = Math.min(line, ...touching.map((d) => d.range.start.line));
  const end = Math.max(line, ...touching.map((d) => d.range.end.line));
  return { start, end };
}
