import { MAX_QUERY_LENGTH } from '../../core/chat/conversation/conversationSearch';
import { isConversationId } from '../../core/chat/store/conversationSummary';
import { isSelectableModel } from '../../core/chat/request/modelLineup';
import type { ErrorAction } from '../../core/service/errors';
import * as l10n from '@vscode/l10n';
import { CHAT_LINK_SCHEMES, isUrlInTexts, openableLink } from '../../core/service/links';
import type { Logger } from '../../core/logger';
import type { HostToWebview, ToolAccessView, WebviewToHost } from '../../protocol/chatProtocol';
import type { ContextItem } from '../../core/chat/conversation/conversation';
import type { AttachmentSource } from './attachmentSource';
import type { ChatController } from './chatController';
import type { SurfaceHost } from './chatSurface';
import type { CodeActions } from './codeActions';
import type { ConnectedPages, Page } from './connectedPages';
import { olderParts } from './olderMessages';

/** What the router asks of the chat's commands (the ChatController). */
export type RouterChat = Pick<
  ChatController,
  | 'drawPage'
  | 'olderMessages'
  | 'send'
  | 'stop'
  | 'regenerate'
  | 'edit'
  | 'switchBranch'
  | 'newConversation'
  | 'switchTo'
  | 'delete'
  | 'rename'
  | 'setPinned'
  | 'duplicate'
  | 'setHistoryScope'
  | 'search'
  | 'removeContext'
  | 'addContext'
  | 'setGround'
  | 'openSource'
  | 'prompts'
  | 'openInstructions'
  | 'compact'
  | 'undoCompaction'
>;

/** What the router asks of the world outside the page (the CodeActions). */
export type RouterActions = Pick<CodeActions, 'copy' | 'openInEditor' | 'applyToEditor' | 'openLink' | 'loadImage'>;

/** The router's other collaborators, passed in so it can be tested without VS Code. */
export interface RouterDeps {
  log: Logger;
  /** Runs an error's action other than Retry (sets a key, opens the settings). */
  runErrorAction(action: ErrorAction): Promise<void>;
  /** Stores the chosen model in `alphaAxo.chat.model`. */
  setChatModel(id: string): Promise<void>;
  exportConversation(): Promise<void>;
  /** The Markdown of every message the pages show now: the only place an image URL to load may come from. */
  shownTexts(): Iterable<string>;
  /** The page says which reply has the focus ("Open Reply as Text" opens it); undefined when none has. */
  onReplyFocus?(messageId: string | undefined): void;
  /** Runs "Open Reply as Text" (Alt+F2 pressed in the page, which the workbench does not see there). */
  openReplyAsText?(): Promise<void>;
  /** What `#` and a drop can attach (absent: nothing is offered). */
  attachments?: Pick<AttachmentSource, 'options' | 'read' | 'readDropped'>;
  /** Says why something could not be attached (a warning the user sees). */
  refuse?(reason: string): void;
  /** ALPHA's tools in this chat (absent: tool calling is off, and the page shows no control). */
  tools?: {
    /** Sets what ALPHA may use in the conversation shown. */
    setAccess(access: ToolAccessView): Promise<void>;
    /** Opens the review of a step's proposed edit again. */
    openReview(messageId: string, stepId: string): Promise<void>;
  };
}

/**
 * The chat page's protocol on the host's side. A page that connects is drawn and joins the pages every host message
 * goes to ({@link ConnectedPages}); what a page sends is routed to the controller and the code actions, and the
 * answers meant for that page only (matches, attachment options, announcements) are posted back to it.
 * Every message has been checked field by field against `CHAT_VALIDATORS` by the webview channel; here it is checked
 * against the host's state (a conversation id, a selectable model, a link's scheme, an image URL the page was sent);
 * whatever fails is dropped with a log warning and does nothing.
 */
export class ChatRouter implements SurfaceHost {
  constructor(
    private readonly controller: RouterChat,
    private readonly pages: Pick<ConnectedPages, 'connect' | 'disconnect'>,
    private readonly actions: RouterActions,
    private readonly deps: RouterDeps,
  ) {}

  /** A page said it is ready: it is drawn from the current state, then gets every host message. */
  connectPage(page: Page): void {
    void this.pages.connect(page, () => this.controller.drawPage());
  }

  /** A page is gone. */
  disconnectPage(page: Page): void {
    this.pages.disconnect(page);
  }

  /** Handles one message from a page, its fields checked by the channel (`CHAT_VALIDATORS`); its state not yet. */
  async onMessage(page: Page, message: WebviewToHost): Promise<void> {
    const c = this.controller;
    switch (message.type) {
      case 'webview/ready':
        return; // the channel answers it: connectPage
      case 'chat/send':
        return c.send(message.text);
      case 'chat/cancel':
        return c.stop(message.requestId);
      case 'queue/edit':
        return void (await c.prompts.edit(message.id, message.text));
      case 'queue/remove':
        return void (await c.prompts.remove(message.id));
      case 'queue/sendNow':
        return c.prompts.sendNow(message.id);
      case 'queue/resume':
        return c.prompts.resume();
      case 'chat/regenerate':
        return c.regenerate(message.messageId);
      case 'chat/branch':
        return void (await c.switchBranch(message.messageId, message.step));
      case 'chat/edit':
        return c.edit(message.messageId, message.text);
      case 'chat/action':
        return message.action === 'retry' ? c.regenerate() : this.deps.runErrorAction(message.action);
      case 'conversation/new':
        return c.newConversation();
      case 'reply/focus':
        return this.deps.onReplyFocus?.(message.messageId);
      case 'reply/openAsText':
        this.deps.onReplyFocus?.(message.messageId);
        return this.deps.openReplyAsText?.();
      case 'conversation/switch':
      case 'conversation/delete':
      case 'conversation/rename':
      case 'conversation/pin':
      case 'conversation/duplicate':
        if (!isConversationId(message.id)) {
          return this.drop(`${message.type} of an id that is not a conversation's`);
        }
        return this.onConversation(message);
      case 'history/scope':
        return c.setHistoryScope(message.scope);
      case 'conversation/search':
        return this.search(page, message.query);
      case 'chat/older':
        return this.sendOlder(page, message.key);
      case 'conversation/export':
        return this.deps.exportConversation();
      case 'context/remove':
        return c.removeContext(message.id);
      case 'chat/compact':
        return c.compact();
      case 'chat/uncompact':
        return c.undoCompaction(message.id);
      case 'instructions/open':
        return c.openInstructions(message.index);
      case 'chat/ground':
        return c.setGround(message.on);
      case 'source/open':
        return c.openSource(message.messageId, message.index);
      case 'chat/tools':
        return this.deps.tools ? this.deps.tools.setAccess(message.access) : this.drop('chat/tools with tools off');
      case 'step/review':
        return this.deps.tools
          ? this.deps.tools.openReview(message.messageId, message.stepId)
          : this.drop('step/review with tools off');
      case 'model/select':
        return isSelectableModel(message.id) ? this.deps.setChatModel(message.id) : this.drop('an unknown model');
      case 'attach/query': {
        const options = (await this.deps.attachments?.options(message.query)) ?? [];
        return page.post({ type: 'attach/options', query: message.query, options });
      }
      case 'attach/add': {
        const read = await this.deps.attachments?.read(message.id);
        if (read === undefined) {
          return this.drop('attach/add of an option not offered');
        }
        // null: the user declined (a secret-looking file); nothing to say.
        return read === null ? undefined : this.addAttachments([read]);
      }
      case 'attach/drop':
        return this.addAttachments((await this.deps.attachments?.readDropped(message.uris)) ?? []);
      default:
        return this.onOutside(page, message);
    }
  }

  /** What a page asks of one conversation of the list, its id checked. */
  private onConversation(
    message: Extract<
      WebviewToHost,
      {
        type:
          | 'conversation/switch'
          | 'conversation/delete'
          | 'conversation/rename'
          | 'conversation/pin'
          | 'conversation/duplicate';
      }
    >,
  ): Promise<void> {
    const c = this.controller;
    switch (message.type) {
      case 'conversation/switch':
        return c.switchTo(message.id);
      case 'conversation/delete':
        return c.delete(message.id);
      case 'conversation/rename':
        return c.rename(message.id, message.title);
      case 'conversation/pin':
        return c.setPinned(message.id, message.pinned);
      case 'conversation/duplicate':
        return c.duplicate(message.id);
    }
  }

  /** Messages that act outside the conversation: clipboard, editors, links, images. */
  private async onOutside(
    page: Page,
    message: Extract<WebviewToHost, { type: 'clipboard/copy' | 'code/apply' | 'link/open' | 'image/load' }>,
  ): Promise<void> {
    const a = this.actions;
    switch (message.type) {
      case 'clipboard/copy':
        await a.copy(message.text);
        page.post({
          type: 'ui/announce',
          text: message.what === 'code' ? l10n.t('Code copied') : l10n.t('Message copied'),
        });
        return;
      case 'code/apply':
        if (message.action === 'open') {
          return a.openInEditor(message.code, message.language);
        }
        return a.applyToEditor(message.action, message.code);
      case 'link/open': {
        const url = openableLink(message.url, CHAT_LINK_SCHEMES);
        return url ? a.openLink(url) : this.drop('link/open of a link that is not http, https or mailto');
      }
      case 'image/load':
        if (!isUrlInTexts(message.url, this.deps.shownTexts())) {
          return this.drop('image/load of a URL that is in no message shown');
        }
        return a.loadImage(message.url, (m: HostToWebview) => page.post(m));
    }
  }

  /** Adds what was read as context chips; says why for each that could not be attached. */
  private addAttachments(read: readonly (ContextItem | string)[]): void {
    const items = read.filter((r): r is ContextItem => typeof r !== 'string');
    if (items.length) {
      this.controller.addContext(items);
    }
    for (const reason of read.filter((r): r is string => typeof r === 'string')) {
      this.deps.refuse?.(reason);
    }
  }

  /** A page has drawn a state's newest messages: the older ones, or, when they are no longer held, the page again. */
  private sendOlder(page: Page, key: number): void {
    const messages = this.controller.olderMessages(key);
    if (messages) {
      for (const part of olderParts(messages)) {
        page.post({ type: 'chat/older', key, ...part });
      }
    } else {
      this.connectPage(page);
    }
  }

  /** Answers a page's search with the matches, to that page only (the query is its own). */
  private async search(page: Page, query: string): Promise<void> {
    const matches = await this.controller.search(query.slice(0, MAX_QUERY_LENGTH));
    page.post({ type: 'conversations/matches', query, matches });
  }

  private drop(reason: string): void {
    this.deps.log.warn(`Chat view: dropped ${reason}.`);
  }
}
