import * as vscode from 'vscode';
import type { Conversation, StoredMessage } from '../../core/chat/conversation/conversation';
import { replyAsText } from '../../core/chat/transfer/conversationMarkdown';

/** The scheme of the read-only reply documents (`alpha-reply:/ALPHA reply.md?<conversation>/<message>`). */
export const REPLY_SCHEME = 'alpha-reply';

/**
 * "ALPHA: Open Reply as Text": the focused reply (else the last one) as a read-only Markdown document, where a
 * screen reader, Find and Copy work as in any file. The page says which reply has focus (`reply/focus`); the text
 * is read from the conversation when VS Code asks for the document, so a reply still streaming shows what arrived,
 * and one that ended in an error shows its text and then the error's sentence (`replyAsText`).
 */
export class ReplyTextProvider implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private focused: string | undefined;
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly conversation: () => Conversation) {}

  /** The reply the page says has the focus (undefined when the focus left the replies). */
  setFocused(messageId: string | undefined): void {
    this.focused = messageId;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const [conversationId, messageId] = uri.query.split('/');
    const conversation = this.conversation();
    const reply =
      conversation.id === conversationId ? conversation.messages.find((m) => m.id === messageId) : undefined;
    return reply ? replyAsText(reply) : vscode.l10n.t('This reply is no longer in the conversation shown in the chat.');
  }

  /** Opens the focused reply, else the last one; says so when the conversation has no reply yet. */
  async open(): Promise<void> {
    const conversation = this.conversation();
    const replies = conversation.messages.filter((m): m is StoredMessage => m.role === 'assistant');
    const reply = replies.find((m) => m.id === this.focused) ?? replies.at(-1);
    if (!reply) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t('There is no reply to open yet: ask ALPHA something first.'),
      );
      return;
    }
    const time = new Date(reply.createdAt).toTimeString().slice(0, 5).replace(':', '.');
    const uri = vscode.Uri.from({
      scheme: REPLY_SCHEME,
      path: `/${vscode.l10n.t('ALPHA reply {0}', time)}.md`,
      query: `${conversation.id}/${reply.id}`,
    });
    this.changed.fire(uri); // A document opened before shows the reply as it is now.
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.languages.setTextDocumentLanguage(document, 'markdown');
    await vscode.window.showTextDocument(document, { preview: false });
  }

  dispose(): void {
    this.changed.dispose();
  }
}
