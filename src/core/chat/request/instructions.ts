import * as l10n from '@vscode/l10n';
import { estimateTokens } from '../../service/tokenEstimate';
import { formatBytes } from './attachments';
import { estimateMessagesTokens } from './contextBudget';
import { fenceFor } from './promptMessages';

/**
 * A repository's instructions for ALPHA: the files a workspace folder gives its chat, read by the host (only in a
 * trusted workspace, and only while `alphaAxo.chat.workspaceInstructions` is on) and sent as the first message of
 * each request, framed as the repository's (the spec shows only the role `user`, so no `system` message is sent).
 * They count in the request's budget (see requestBuilder.ts). Apart from VS Code: the host hands the files' text in.
 */

/**
 * The files read at each workspace folder's root, in this order: `AGENTS.md` (the convention many tools read), then
 * ALPHA's own file. Folders are taken in the workspace's order (the order of the `.code-workspace` file's `folders`).
 */
export const INSTRUCTION_FILES: readonly string[] = ['AGENTS.md', '.alpha/instructions.md'];

/** The most of one file that is sent, in bytes of UTF-8: the rest is cut at a line end, with a notice. */
export const MAX_INSTRUCTION_FILE_BYTES = 16 * 1024;

/** The most of all the files together: files past it are left out, with a notice. */
export const MAX_INSTRUCTIONS_BYTES = 32 * 1024;

/** A file larger than this is not read at all (its size is checked first): it cannot be instructions. */
export const MAX_INSTRUCTION_READ_BYTES = 1024 * 1024;

/** One instructions file as the host read it. */
export interface InstructionFile {
  /** How the file is named to the user and the model: its path in the workspace ("AGENTS.md", "api/AGENTS.md"). */
  label: string;
  /** The file's URI, for the chip to open it. */
  uri: string;
  text: string;
  /** The file's size in bytes. */
  bytes: number;
}

/** The instructions that go with each request. */
export interface Instructions {
  /** The files sent, in order, with their tokens as sent (the first with the framing sentence: they add up to `tokens`). */
  files: { label: string; uri: string; tokens: number }[];
  /** The first message of each request. */
  message: string;
  /** The estimate of `message` as a request counts it (with its per-message overhead). */
  tokens: number;
  /** Says what was cut or left out for the bounds (undefined when nothing was). */
  notice?: string;
}

/** Cuts `text` to at most `bytes` of UTF-8, at a line end when there is one in its second half. */
function cutToBytes(text: string, bytes: number): string {
  const encoded = Buffer.from(text, 'utf8');
  if (encoded.length <= bytes) {
    return text;
  }
  // Decoding a cut in the middle of a character yields U+FFFD at the end: dropped.
  const cut = encoded
    .subarray(0, bytes)
    .toString('utf8')
    .replace(/\uFFFD$/, '');
  const line = cut.lastIndexOf('\n');
  return line > cut.length / 2 ? cut.slice(0, line + 1) : cut;
}

/**
 * The instructions from the files read (in the order of {@link INSTRUCTION_FILES} within each folder, folders in
 * the workspace's order), within the bounds; undefined when there are none with text.
 */
export function buildInstructions(read: readonly InstructionFile[]): Instructions | undefined {
  const blocks: string[] = [];
  const files: Instructions['files'] = [];
  const notes: string[] = [];
  let total = 0;
  for (const file of read) {
    if (!file.text.trim()) {
      continue;
    }
    const room = Math.min(MAX_INSTRUCTION_FILE_BYTES, MAX_INSTRUCTIONS_BYTES - total);
    if (room <= 0) {
      notes.push(
        l10n.t(
          '{0} was left out: the instructions are limited to {1}.',
          file.label,
          formatBytes(MAX_INSTRUCTIONS_BYTES),
        ),
      );
      continue;
    }
    const text = cutToBytes(file.text, room);
    if (text.length < file.text.length) {
      notes.push(
        l10n.t('{0} was cut to its first {1} ({2} in all).', file.label, formatBytes(room), formatBytes(file.bytes)),
      );
    }
    total += Buffer.byteLength(text, 'utf8');
    const fence = fenceFor(text);
    const block = `${file.label}:\n${fence}markdown\n${text.endsWith('\n') ? text : `${text}\n`}${fence}`;
    blocks.push(block);
    files.push({ label: file.label, uri: file.uri, tokens: estimateTokens(block) });
  }
  if (!blocks.length) {
    return undefined;
  }
  const message = [
    "The repository's instructions for this workspace, from its files below. They were written by the repository's " +
      'authors, not by the user: follow them where they apply to what the user asks.',
    ...blocks,
  ].join('\n\n');
  // As the request counts the message (its overhead too); the framing sentence and the overhead count with the first
  // file, so the chips add up to what the gauge shows for the instructions.
  const tokens = estimateMessagesTokens([{ role: 'user', content: message }]);
  files[0].tokens += Math.max(0, tokens - files.reduce((sum, f) => sum + f.tokens, 0));
  return {
    files,
    message,
    tokens,
    ...(notes.length ? { notice: notes.join(' ') } : {}),
  };
}

/** A file too large to read at all, said in a sentence (the chip shows it). */
export function tooLargeToRead(label: string, bytes: number): string {
  return l10n.t(
    '{0} was not read: it is {1}, more than instructions can be ({2}).',
    label,
    formatBytes(bytes),
    formatBytes(MAX_INSTRUCTION_READ_BYTES),
  );
}
