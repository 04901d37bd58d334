import * as vscode from 'vscode';
import type { Conversation } from '../../core/chat/conversation/conversation';
import { exportJson } from '../../core/chat/transfer/conversationExport';
import { IMPORT_BOUNDS, importConversation } from '../../core/chat/transfer/conversationImport';
import { describeError } from '../../core/service/errors';
import type { Logger } from '../../core/logger';
import { trimOf } from '../../shared/trimChars';

/** What the commands ask of the chat. */
export interface TransferChat {
  /** The conversation shown, as it stands. */
  current(): Conversation;
  /** The model chosen now: an imported queue's prompts for a model the lineup cannot send go with it. */
  model(): string;
  /** Adds an imported conversation (under its new id) and shows it. */
  add(conversation: Conversation): Promise<void>;
}

/** A file name for a conversation's title: letters, digits and dashes, at most 60. */
function fileNameFor(title: string): string {
  const slug = trimOf(title.normalize('NFKD').replace(/[^\p{L}\p{N}]+/gu, '-'), '-').slice(0, 60);
  return `${slug || 'conversation'}.json`;
}

/** "ALPHA: Export Conversation as JSON": the conversation shown, whole, to a file the user picks. */
export async function exportConversationJson(chat: TransferChat, log: Logger): Promise<void> {
  const conversation = chat.current();
  if (conversation.messages.length === 0) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('This conversation is empty: there is nothing to export yet.'),
    );
    return;
  }
  const written = exportJson(conversation);
  if ('error' in written) {
    void vscode.window.showErrorMessage(written.error);
    return;
  }
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const name = fileNameFor(conversation.title);
  const target = await vscode.window.showSaveDialog({
    title: vscode.l10n.t('Export Conversation as JSON'),
    defaultUri: folder ? vscode.Uri.joinPath(folder, name) : undefined,
    filters: { [vscode.l10n.t('Conversation (JSON)')]: ['json'] },
    saveLabel: vscode.l10n.t('Export'),
  });
  if (!target) {
    return;
  }
  try {
    await vscode.workspace.fs.writeFile(target, Buffer.from(written.text, 'utf8'));
  } catch (error) {
    log.error(`Chat: could not export to ${target.toString()}: ${describeError(error)}`);
    void vscode.window.showErrorMessage(
      vscode.l10n.t('The conversation could not be written to {0}: {1}', target.fsPath, describeError(error)),
    );
    return;
  }
  void vscode.window.showInformationMessage(vscode.l10n.t('Exported the conversation to {0}.', target.fsPath));
}

/**
 * "ALPHA: Import Conversation…" (`{ uri?: Uri }`; without one it asks): reads a JSON export (or a Markdown export,
 * prompts and replies), checks it, and shows it as a new conversation; a file that fails says each problem.
 */
export async function importConversationFile(chat: TransferChat, log: Logger, args?: unknown): Promise<void> {
  const given = (args as { uri?: unknown } | undefined)?.uri;
  let uri = given instanceof vscode.Uri ? given : undefined;
  if (given !== undefined && !uri) {
    log.warn('alpha.chat.import: ignored a "uri" that is not a Uri; asking for the file instead.');
  }
  if (!uri) {
    const picked = await vscode.window.showOpenDialog({
      title: vscode.l10n.t('Import Conversation'),
      canSelectMany: false,
      filters: { [vscode.l10n.t('Conversation (JSON or Markdown)')]: ['json', 'md', 'markdown'] },
      openLabel: vscode.l10n.t('Import'),
    });
    uri = picked?.[0];
  }
  if (!uri) {
    return;
  }
  const name = uri.path.split('/').pop() ?? uri.toString();
  const read = await readBounded(uri);
  if (typeof read === 'string') {
    void vscode.window.showErrorMessage(vscode.l10n.t('{0} could not be imported: {1}', name, read));
    return;
  }
  const result = importConversation(read.text, read.bytes, chat.model());
  if ('problems' in result) {
    log.warn(`Chat: ${name} could not be imported: ${result.problems.join(' ')}`);
    void vscode.window.showErrorMessage(
      vscode.l10n.t('{0} could not be imported: {1}', name, result.problems.join(' ')),
    );
    return;
  }
  await chat.add(result.conversation);
  const count = result.conversation.messages.length + (result.conversation.branches?.length ?? 0);
  void vscode.window.showInformationMessage(
    result.from === 'markdown'
      ? vscode.l10n.t(
          'Imported “{0}” from Markdown: {1} prompts and replies (times and branches are not in Markdown).',
          result.conversation.title,
          count,
        )
      : vscode.l10n.t('Imported “{0}”: {1} messages.', result.conversation.title, count),
  );
}

/** The file's text, its size checked before it is read; or why it cannot be read. */
async function readBounded(uri: vscode.Uri): Promise<{ text: string; bytes: number } | string> {
  try {
    const stat = await vscode.workspace.fs.stat(uri);
    if (stat.type & vscode.FileType.Directory) {
      return vscode.l10n.t('it is a folder.');
    }
    if (stat.size > IMPORT_BOUNDS.bytes) {
      return vscode.l10n.t(
        'it is {0} MB, more than the {1} MB an import reads.',
        Math.ceil(stat.size / 1024 / 1024),
        IMPORT_BOUNDS.bytes / 1024 / 1024,
      );
    }
    const bytes = await vscode.workspace.fs.readFile(uri);
    return { text: new TextDecoder('utf-8').decode(bytes), bytes: bytes.byteLength };
  } catch (error) {
    return describeError(error);
  }
}
