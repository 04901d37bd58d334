import * as path from 'node:path';
import * as vscode from 'vscode';
import { newId, type ContextItem } from '../../core/chat/conversation/conversation';
import { conversationMarkdown } from '../../core/chat/transfer/conversationMarkdown';
import { fenceForLanguageId } from '../../core/chat/workspace/languageIds';

/** The largest file `alpha.chat.addSelection` adds whole when nothing is selected. */
const MAX_WHOLE_FILE_CHARS = 200_000;

/** "main.ts:10-24" for a selection; the file name alone for a whole file. */
export function selectionLabel(document: vscode.TextDocument, range: vscode.Range | undefined): string {
  const name = document.isUntitled ? document.uri.path : path.basename(document.fileName);
  if (!range) {
    return name;
  }
  const first = range.start.line + 1;
  // A selection ending at the start of a line does not include that line.
  const last = range.end.character === 0 && range.end.line > range.start.line ? range.end.line : range.end.line + 1;
  return first === last ? `${name}:${first}` : `${name}:${first}-${last}`;
}

/** The selection of `editor` as a context chip; with `wholeFile`, the whole document when nothing is selected. */
export function selectionContext(editor: vscode.TextEditor | undefined, wholeFile = false): ContextItem | undefined {
  if (!editor) {
    return undefined;
  }
  const { document, selection } = editor;
  const language = fenceForLanguageId(document.languageId) || undefined;
  if (!selection.isEmpty) {
    const content = document.getText(selection);
    if (content.trim()) {
      return { id: newId(), label: selectionLabel(document, selection), content, language };
    }
  }
  if (wholeFile && document.getText().length <= MAX_WHOLE_FILE_CHARS && document.getText().trim()) {
    return { id: newId(), label: selectionLabel(document, undefined), content: document.getText(), language };
  }
  return undefined;
}

/** Asks for a prompt in an input box. */
export async function promptForQuestion(context: ContextItem[]): Promise<string | undefined> {
  const labels = context.map((c) => c.label).join(', ');
  const text = await vscode.window.showInputBox({
    title: vscode.l10n.t('ALPHA: Ask'),
    prompt: context.length
      ? vscode.l10n.t('Ask ALPHA anything (with {0}).', labels)
      : vscode.l10n.t('Ask ALPHA anything.'),
    placeHolder: vscode.l10n.t('e.g. Explain this code'),
    ignoreFocusOut: true,
  });
  return text?.trim() ? text : undefined;
}

/** Opens a conversation as a Markdown document in a new editor. */
export async function exportMarkdown(markdown: Parameters<typeof conversationMarkdown>[0]): Promise<void> {
  if (markdown.messages.length === 0) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('This conversation is empty: there is nothing to export yet.'),
    );
    return;
  }
  const content = conversationMarkdown(markdown, (ms) => new Date(ms).toLocaleString(vscode.env.language));
  const document = await vscode.workspace.openTextDocument({ language: 'markdown', content });
  await vscode.window.showTextDocument(document, { preview: false });
}
