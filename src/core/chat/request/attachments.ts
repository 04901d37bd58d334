import * as l10n from '@vscode/l10n';
import { estimateTokens } from '../../service/tokenEstimate';

/**
 * Attachments: files, symbols, the selection and terminal output attached to the next prompt with `#` or a drop.
 * They go to the service as text (the spec's `content` is a string), each with its path and language, as context
 * items. What is refused is decided here, apart from VS Code; how a request trims them, in requestBuilder.ts.
 */

/** The largest file attached: more is refused with the reason (a prompt that size would not be useful). */
export const MAX_ATTACHMENT_BYTES = 512 * 1024;

/** How much of a file is looked at to tell text from binary. */
const SNIFF_BYTES = 8 * 1024;

/** What `stat` says of a file about to be read. */
export interface FileKind {
  isFile: boolean;
  isDirectory: boolean;
  size: number;
}

/**
 * Why a file cannot be attached, from its `stat` alone, before a byte of it is read: a folder, anything that is not
 * a regular file (a device, a pipe, a socket: reading one may never end), or one larger than the bound.
 */
export function statRefusal(name: string, kind: FileKind): string | undefined {
  if (kind.isDirectory) {
    return l10n.t('{0} is a folder: attach the files in it.', name);
  }
  if (!kind.isFile) {
    return l10n.t('{0} is not a regular file (a device, a pipe or a socket): only files can be attached.', name);
  }
  return kind.size > MAX_ATTACHMENT_BYTES ? tooLarge(name, kind.size) : undefined;
}

function tooLarge(name: string, size: number): string {
  return l10n.t(
    '{0} is too large to attach ({1}; at most {2}).',
    name,
    formatBytes(size),
    formatBytes(MAX_ATTACHMENT_BYTES),
  );
}

/** Why a file cannot be attached, in a sentence; undefined when it can. */
export function refusal(name: string, bytes: Uint8Array): string | undefined {
  if (bytes.length > MAX_ATTACHMENT_BYTES) {
    return tooLarge(name, bytes.length);
  }
  if (looksBinary(bytes)) {
    return l10n.t('{0} is a binary file: only text can be attached.', name);
  }
  return undefined;
}

/** Whether the start of a file looks binary: a NUL byte, or mostly control bytes that text does not have. */
export function looksBinary(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, SNIFF_BYTES);
  let control = 0;
  for (let i = 0; i < end; i++) {
    const b = bytes[i];
    if (b === 0) {
      return true;
    }
    if (b < 32 && b !== 9 && b !== 10 && b !== 13 && b !== 12 && b !== 27) {
      control++;
    }
  }
  return end > 0 && control / end > 0.1;
}

/** 2048 → "2 KB", 1.5 MB → "1.5 MB". */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) {
    return `${(bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, '')} MB`;
  }
  if (bytes >= 1024) {
    return `${Math.round(bytes / 1024)} KB`;
  }
  return `${bytes} B`;
}

/** The longest start of `text` within `tokens` (by the one estimator), cut at a line end when there is one. */
export function cutToTokens(text: string, tokens: number): string {
  if (tokens <= 0) {
    return '';
  }
  let low = 0;
  let high = text.length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (estimateTokens(text.slice(0, mid)) <= tokens) {
      low = mid;
    } else {
      high = mid - 1;
    }
  }
  const cut = text.slice(0, low);
  const line = cut.lastIndexOf('\n');
  return line > low / 2 ? cut.slice(0, line) : cut;
}

/**
 * How well `query` matches `path` as a fuzzy file search does: every query character in order (case ignored), with
 * more for characters in the file name, at word starts and in a row. Undefined when it does not match.
 */
export function fuzzyScore(query: string, path: string): number | undefined {
  const q = query.toLowerCase();
  if (!q) {
    return 0;
  }
  const p = path.toLowerCase();
  const nameStart = Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\')) + 1;
  let score = 0;
  let at = 0;
  let last = -2;
  for (const char of q) {
    const found = p.indexOf(char, at);
    if (found < 0) {
      return undefined;
    }
    score += 1;
    if (found >= nameStart) {
      score += 2;
    }
    if (found === last + 1) {
      score += 3;
    }
    if (found === 0 || '/\\._- '.includes(p[found - 1])) {
      score += 2;
    }
    last = found;
    at = found + 1;
  }
  // Shorter paths first among equals.
  return score - path.length / 1000;
}

/** The paths matching `query` best first, at most `limit`. */
export function rankPaths(query: string, paths: readonly string[], limit: number): string[] {
  const scored: { path: string; score: number }[] = [];
  for (const path of paths) {
    const score = fuzzyScore(query, path);
    if (score !== undefined) {
      scored.push({ path, score });
    }
  }
  return scored
    .sort((a, b) => b.score - a.score)
    .slice(0, limit)
    .map((s) => s.path);
}

/** Terminal output as text: colours, cursor moves and other escape sequences taken out, line ends made plain. */
export function plainTerminalText(raw: string): string {
  return (
    raw
      // OSC sequences (titles, shell integration marks), ended by BEL or ST.
      .replace(/\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g, '')
      // CSI sequences (colours, cursor).
      .replace(/\x1b\[[0-?]*[ -/]*[@-~]/g, '')
      // Other two-character escapes.
      .replace(/\x1b[@-Z\\-_]/g, '')
      .replace(/\r\n/g, '\n')
      .replace(/\r/g, '\n')
  );
}
