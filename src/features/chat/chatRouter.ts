import * as vscode from 'vscode';
import { MAX_QUERY_LENGTH } from '../../core/chat/conversationSearch';
import { isConversationId } from '../../core/chat/conversationStore';
import { isSelectableModel } from '../../core/chat/modelLineup';
import { runErrorAction } from '../../host/errorActions';
import type { Services } from '../../host/services';
import type { WebviewToHost } from '../../protocol/chatProtocol';
import type { ChatController } from './chatController';
import type { ChatSurface, SurfaceHost } from './chatSurface';
import type { CodeActions } from './codeActions';

/** The largest text a page may send in one message (a prompt, a code block to copy). */
const MAX_TEXT = 4 * 1024 * 1024;

/** Routes what the pages send to the controller and the code actions; checks every field first. */
export class ChatRouter implements SurfaceHost {
  constructor(
    private readonly controller: ChatController,
    private readonly actions: CodeActions,
    private readonly services: Services,
    private readonly exportConversation: () => Promise<void>,
    /** The page says which reply has the focus ("Open Reply as Text" opens it). */
    private readonly onReplyFocus?: (messageId: string | undefined) => void,
  ) {}

  onReady(surface: ChatSurface): void {
    void this.controller.attach(surface);
  }

  onClosed(surface: ChatSurface): void {
    this.controller.detach(surface);
  }

  async onMessage(surface: ChatSurface, message: Exclude<WebviewToHost, { type: 'webview/ready' }>): Promise<void> {
    const c = this.controller;
    switch (message.type) {
      case 'chat/send':
        return text(message.text) === undefined ? undefined : c.send(message.text);
      case 'chat/cancel':
        return typeof message.requestId === 'number' ? c.stop(message.requestId) : undefined;
      case 'chat/regenerate':
        return c.regenerate();
      case 'chat/edit':
        return typeof message.messageId === 'string' && text(message.text) !== undefined
          ? c.edit(message.messageId, message.text)
          : undefined;
      case 'chat/action':
        return message.action === 'retry' ? c.regenerate() : runErrorAction(message.action);
      case 'conversation/new':
        return c.newConversation();
      case 'reply/focus':
        return this.onReplyFocus?.(typeof message.messageId === 'string' ? message.messageId : undefined);
      case 'reply/openAsText':
        this.onReplyFocus?.(typeof message.messageId === 'string' ? message.messageId : undefined);
        return vscode.commands.executeCommand('alpha.chat.openReplyAsText');
      case 'conversation/switch':
        return isConversationId(message.id) ? c.switchTo(message.id) : undefined;
      case 'conversation/delete':
        return isConversationId(message.id) ? c.delete(message.id) : undefined;
      case 'conversation/search':
        return typeof message.query === 'string' ? this.search(surface, message.query) : undefined;
      case 'conversation/export':
        return this.exportConversation();
      case 'context/remove':
        return typeof message.id === 'string' ? c.removeContext(message.id) : undefined;
      case 'model/select':
        return this.selectModel(message.id);
      default:
        return this.onOutside(surface, message);
    }
  }

  /** Messages that act outside the conversation: clipboard, editors, links, images. */
  private async onOutside(
    surface: ChatSurface,
    message: Extract<WebviewToHost, { type: 'clipboard/copy' | 'code/apply' | 'link/open' | 'image/load' }>,
  ): Promise<void> {
    const a = this.actions;
    switch (message.type) {
      case 'clipboard/copy':
        if (text(message.text) !== undefined) {
          await a.copy(message.text);
          surface.post({
            type: 'ui/announce',
            text: message.what === 'code' ? vscode.l10n.t('Code copied') : vscode.l10n.t('Message copied'),
          });
        }
        return;
      case 'code/apply':
        if (text(message.code) === undefined) {
          return;
        }
        if (message.action === 'open') {
          return a.openInEditor(message.code, typeof message.language === 'string' ? message.language : undefined);
        }
        return a.applyToEditor(message.action === 'replace' ? 'replace' : 'insert', message.code);
      case 'link/open':
        return typeof message.url === 'string' ? a.openLink(message.url) : undefined;
      case 'image/load':
        return typeof message.url === 'string' ? a.loadImage(message.url, (m) => surface.post(m)) : undefined;
    }
  }

  /** Answers a page's search with the matches, to that page only (the query is its own). */
  private async search(surface: ChatSurface, query: string): Promise<void> {
    const matches = await this.controller.search(query.slice(0, MAX_QUERY_LENGTH));
    surface.post({ type: 'conversations/matches', query, matches });
  }

  private async selectModel(id: unknown): Promise<void> {
    if (typeof id === 'string' && isSelectableModel(id)) {
      await this.services.settings.setChatModel(id);
    }
  }
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.length <= MAX_TEXT ? value : undefined;
}
