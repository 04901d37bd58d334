import * as l10n from '@vscode/l10n';
import { trimEndOf } from '../../shared/trimChars';

/** Read access to a document's lines (a `vscode.TextDocument` fits). */
export interface DocumentLines {
  readonly lineCount: number;
  lineText(line: number): string;
}

/** A problem reported on the code, with its range (0-based, as VS Code counts). */
export interface DiagnosticInfo {
  message: string;
  severity: 'error' | 'warning' | 'information' | 'hint';
  startLine: number;
  startCharacter: number;
  endLine: number;
  endCharacter: number;
  source?: string;
  code?: string;
}

/** A run of whole lines, 0-based, `end` included. */
export interface LineSpan {
  start: number;
  end: number;
}

/** Lines shown next to the selection for context. */
export interface LineWindow {
  /** 0-based number of the first line ('lines' may be empty). */
  startLine: number;
  lines: string[];
  /** True when the window stopped before the start (or end) of the file. */
  clipped: boolean;
}

/** Everything a prompt may say about the code: nothing else from the workspace leaves the machine. */
export interface CodeContext {
  languageId: string;
  /** Workspace-relative path, or a bare file name for files outside the workspace and untitled editors. */
  path: string;
  /** The selected text (whole lines for edits) and where it is. */
  selection: { text: string; startLine: number; endLine: number };
  before: LineWindow;
  after: LineWindow;
  diagnostics: DiagnosticInfo[];
}

/** How much surrounding code a prompt carries. */
export interface WindowLimits {
  /** Lines on each side of the selection. */
  lines: number;
  /** Characters on each side of the selection. */
  chars: number;
}

/** The default window: up to 30 lines and 3,000 characters on each side. */
export const DEFAULT_WINDOW: WindowLimits = { lines: 30, chars: 3000 };

/** The largest selection a prompt carries (ALPHA takes 200K tokens; this keeps a request reasonable). */
export const MAX_SELECTION_CHARS = 120_000;

/** The input of {@link buildCodeContext}. */
export interface CodeContextInput {
  languageId: string;
  path: string;
  selectionText: string;
  span: LineSpan;
  diagnostics?: DiagnosticInfo[];
}

/**
 * Builds the context of a prompt: the selection, a bounded window of lines around it (nearest lines first, cut at
 * the limits) and the diagnostics that touch the selection's lines, sorted by position.
 * Throws a RangeError with a readable sentence when the selection is too large.
 */
export function buildCodeContext(
  doc: DocumentLines,
  input: CodeContextInput,
  limits: WindowLimits = DEFAULT_WINDOW,
): CodeContext {
  if (input.selectionText.length > MAX_SELECTION_CHARS) {
    throw new RangeError(
      l10n.t(
        'The selection is too large ({0} characters); select at most {1}.',
        input.selectionText.length.toLocaleString('en'),
        MAX_SELECTION_CHARS.toLocaleString('en'),
      ),
    );
  }
  const { start, end } = input.span;
  return {
    languageId: input.languageId,
    path: input.path,
    selection: { text: input.selectionText, startLine: start, endLine: end },
    before: windowBefore(doc, start, limits),
    after: windowAfter(doc, end, limits),
    diagnostics: (input.diagnostics ?? [])
      .filter((d) => d.startLine <= end && d.endLine >= start)
      .sort((a, b) => a.startLine - b.startLine || a.startCharacter - b.startCharacter),
  };
}

function windowBefore(doc: DocumentLines, start: number, limits: WindowLimits): LineWindow {
  const lines: string[] = [];
  let chars = 0;
  let line = start - 1;
  for (; line >= 0 && lines.length < limits.lines; line--) {
    const text = doc.lineText(line);
    if (chars + text.length + 1 > limits.chars) {
      break;
    }
    chars += text.length + 1;
    lines.unshift(text);
  }
  return { startLine: line + 1, lines, clipped: line >= 0 };
}

function windowAfter(doc: DocumentLines, end: number, limits: WindowLimits): LineWindow {
  const lines: string[] = [];
  let chars = 0;
  let line = end + 1;
  for (; line < doc.lineCount && lines.length < limits.lines; line++) {
    const text = doc.lineText(line);
    if (chars + text.length + 1 > limits.chars) {
      break;
    }
    chars += text.length + 1;
    lines.push(text);
  }
  return { startLine: end + 1, lines, clipped: line < doc.lineCount };
}

/** A document symbol as the symbol provider reports it, reduced to what matters here. */
export interface SymbolNode {
  /** `vscode.SymbolKind` name in lower case: 'function', 'method', 'class'… */
  kind: string;
  startLine: number;
  endLine: number;
  children: SymbolNode[];
}

const FUNCTION_KINDS = new Set(['function', 'method', 'constructor', 'operator']);
const CONTAINER_KINDS = new Set(['class', 'interface', 'struct', 'enum', 'module', 'namespace']);

/**
 * The lines of the innermost function (method, constructor) around `line`, else the innermost class-like
 * symbol, else undefined.
 */
export function enclosingSymbolSpan(symbols: readonly SymbolNode[], line: number): LineSpan | undefined {
  let fn: SymbolNode | undefined;
  let container: SymbolNode | undefined;
  const visit = (nodes: readonly SymbolNode[]): void => {
    for (const node of nodes) {
      if (node.startLine <= line && line <= node.endLine) {
        if (FUNCTION_KINDS.has(node.kind)) {
          fn = node;
        } else if (CONTAINER_KINDS.has(node.kind)) {
          container = node;
        }
        visit(node.children);
      }
    }
  };
  visit(symbols);
  const found = fn ?? container;
  return found ? { start: found.startLine, end: found.endLine } : undefined;
}

/**
 * Where no symbol provider answers: the block of non-blank lines around `line` (at most `maxLines`, centred on it),
 * or the line itself when it is blank.
 */
export function blockAround(doc: DocumentLines, line: number, maxLines = 60): LineSpan {
  const blank = (n: number) => doc.lineText(n).trim() === '';
  if (blank(line)) {
    return { start: line, end: line };
  }
  let start = line;
  let end = line;
  while (end - start + 1 < maxLines) {
    const up = start > 0 && !blank(start - 1);
    const down = end < doc.lineCount - 1 && !blank(end + 1);
    if (!up && !down) {
      break;
    }
    if (up) {
      start--;
    }
    if (down && end - start + 1 < maxLines) {
      end++;
    }
  }
  return { start, end };
}

/**
 * The path to show for a file: relative to the workspace folder holding it (prefixed with the folder's name when
 * there are several), else only the file name, so no absolute path of the machine leaves it.
 */
export function displayPath(filePath: string, folders: readonly { name: string; path: string }[]): string {
  const file = filePath.replace(/\\/g, '/');
  for (const folder of folders) {
    const root = trimEndOf(folder.path.replace(/\\/g, '/'), '/');
    if (file.startsWith(`${root}/`)) {
      const rel = file.slice(root.length + 1);
      return folders.length > 1 ? `${folder.name}/${rel}` : rel;
    }
  }
  return file.slice(file.lastIndexOf('/') + 1) || file;
}
