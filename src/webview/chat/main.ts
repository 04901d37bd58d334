import '../shared/base.css';
import './chat.css';
import '../shared/pageL10n';
import type { ChatStateView, HostToWebview, MessageView, WebviewToHost } from '../../protocol/chatProtocol';
import * as l10n from '@vscode/l10n';
import { applyTextSize } from '../shared/textSize';
import { Announcer } from './announcer';
import { placeCompactionMarker } from './messages/compactionMarker';
import { decorateCodeBlocks } from './messages/codeBlocks';
import { installPageEvents, showImage } from './pageEvents';
import { editPrompt } from './composer/promptEdit';
import { welcome } from './panels/welcome';
import { Composer, type DraftStore } from './composer/composer';
import { h, iconButton, setTextAndTooltip } from '../shared/dom';
import { FindBar } from './panels/findBar';
import { markdownMayHold } from './panels/markdownMatch';
import { HistoryPanel } from './panels/historyPanel';
import { messageElement, showNotice, type MessageContext, type MessageElement } from './messages/messageView';
import { discardMessages, drawRecent, OlderMessages } from './render';
import { Scroller } from './scroller';
import { focusSwitched } from './messages/branchFocus';
import { isAnnounceMode } from './spokenReply';
import { ConversationTotal } from './messages/usage';
import { drawStep, endReply, offerRegenerate, type Streaming } from './messages/streamedReply';
import { OlderPart } from './olderPart';

interface VsCodeApi extends DraftStore {
  postMessage(message: WebviewToHost): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

/**
 * The chat page. It keeps nothing of its own: the host sends the whole state after `webview/ready` and then
 * what changes; the page draws it. The only thing it remembers across a reload is the unsent draft.
 */
class ChatApp {
  // Focusable (tabindex 0) so the keyboard can scroll it as any scrolling region.
  private readonly log = h('main', {
    class: 'log',
    role: 'log',
    'aria-label': l10n.t('Conversation'),
    'aria-live': 'off',
    tabindex: '0',
  });
  private readonly announcer = new Announcer();
  private readonly title = h('h1', { class: 'title' }, 'ALPHA');
  /** The conversation's running total of tokens (and cost, with prices set), every version counted. */
  private readonly total = new ConversationTotal();
  private readonly scroller = new Scroller(this.log);
  private readonly composer: Composer;
  private readonly history: HistoryPanel;
  private readonly find: FindBar;
  private messages: MessageView[] = [];
  private readonly elements = new Map<string, MessageElement>();
  private streaming: Streaming | undefined;
  private olderMessages: OlderMessages<MessageView> | undefined;
  private readonly older: OlderPart;
  private conversationId = '';
  private readonly ctx: MessageContext;
  /** A branch switch asked for: after the redraw, its button gets the focus back (the place's message changed). */
  private branchFocus: { index: number; step: -1 | 1 } | undefined;

  constructor(
    private readonly root: HTMLElement,
    private readonly post: (message: WebviewToHost) => void,
    drafts: DraftStore,
  ) {
    this.composer = new Composer(
      post,
      drafts,
      () => this.stop(),
      () => this.lastPrompt(),
      (text) => this.announcer.status(text),
    );
    this.history = new HistoryPanel(post);
    this.older = new OlderPart(post);
    this.find = new FindBar({
      log: this.log,
      reveal: (query) => this.reveal(query),
      announce: (text) => this.announcer.status(text),
    });
    this.ctx = {
      post,
      decorate: decorateCodeBlocks,
      onRendered: () => this.scroller.contentChanged(),
      edit: (message, article) => editPrompt(message, article, post),
      switchBranch: (message, step) => {
        // The page is drawn again; the focus comes back to the same button of the message in that place.
        // Counted from the conversation's first message, which may not have come yet (see OlderPart).
        this.branchFocus = { index: this.older.pending + this.messages.findIndex((m) => m.id === message.id), step };
        post({ type: 'chat/branch', messageId: message.id, step });
      },
    };
    const header = h(
      'header',
      { class: 'chat-header' },
      this.history.toggle,
      this.title,
      h('span', { class: 'spacer' }),
      iconButton(l10n.t('Export conversation as Markdown'), 'export', () => post({ type: 'conversation/export' })),
      iconButton(l10n.t('New conversation'), 'add', () => post({ type: 'conversation/new' })),
    );
    root.replaceChildren(
      header,
      this.total.element,
      this.find.element,
      this.history.element,
      this.log,
      this.scroller.jumpButton,
      this.composer.element,
      this.announcer.polite,
      this.announcer.assertive,
    );
    installPageEvents({
      root,
      log: this.log,
      composerInput: this.composer.input,
      find: this.find,
      post,
      closeHistory: () => this.history.closeIfOpen(),
      stop: () => this.stop(),
      wakeBeside: (article, step) => this.olderMessages?.asleep.wakeBeside(article, step),
    });
  }

  /** Draws what the host sends. */
  handle(message: HostToWebview): void {
    switch (message.type) {
      case 'chat/state':
        return this.drawState(message.state);
      case 'chat/older':
        return this.drawOlder(message);
      case 'chat/started':
        this.history.update(message.conversations, this.conversationId);
        this.setTitle(message.conversations.find((c) => c.id === this.conversationId)?.title);
        this.composer.setBudget(message.budget);
        this.log.querySelector('.welcome')?.remove();
        this.composer.setChips([]);
        this.append(message.user, false);
        this.startStreaming(message.requestId, message.reply);
        this.scroller.jumpToLatest();
        this.announcer.replyStarted();
        return;
      case 'chat/delta':
        if (this.streaming?.requestId === message.requestId) {
          this.streaming.element.renderer?.append(message.text);
        }
        return;
      case 'chat/step':
        return this.showStep(message);
      case 'chat/notice':
        if (this.streaming?.requestId === message.requestId) {
          showNotice(this.streaming.element, message.notice);
        }
        return;
      case 'chat/done':
      case 'chat/error':
        return this.endStreaming(message);
      case 'conversations/list':
        this.history.update(message.conversations, this.conversationId);
        this.setTitle(message.conversations.find((c) => c.id === this.conversationId)?.title);
        return;
      case 'conversations/matches':
        return this.history.showMatches(message.query, message.matches);
      case 'context/chips':
        this.composer.setChips(message.chips);
        this.composer.setBudget(message.budget);
        return;
      case 'budget/changed':
        return this.composer.setBudget(message.budget);
      case 'model/changed':
        this.composer.setModel(message.model);
        this.composer.setBudget(message.budget);
        return;
      case 'editor/selection':
        document.body.classList.toggle('has-selection', message.hasSelection);
        return;
      case 'composer/focus':
        return this.composer.focus(message.draft);
      case 'image/loaded':
      case 'image/failed':
        return showImage(this.root, message);
      case 'ui/announce':
        return this.announcer.status(message.text);
      case 'history/scope':
        return this.history.setScope(message.scope);
      case 'attach/options':
        return this.composer.showAttachOptions(message.query, message.options);
      case 'queue/changed':
        return this.composer.setQueue(message.queue);
      case 'ui/display':
        this.announcer.setMode(
          isAnnounceMode(message.display.announceReplies) ? message.display.announceReplies : 'firstSentence',
        );
        applyTextSize(document.documentElement, message.display.fontSize);
        return;
      default: {
        // Every HostToWebview type has a case: a type added to the protocol without one fails to compile here.
        const unhandled: never = message;
        return unhandled;
      }
    }
  }

  private drawState(state: ChatStateView): void {
    this.olderMessages?.cancel();
    this.conversationId = state.conversationId;
    // Renderers still drawing (a reply streaming, or a long one from history) stop with their conversation.
    this.elements.forEach((element) => element.renderer?.dispose());
    this.elements.clear();
    this.streaming = undefined;
    discardMessages(Array.from(this.log.children));
    this.setTitle(state.title);
    this.older.expect(state.older);
    // A total of part of the conversation would be wrong: the line waits for the older messages.
    if (this.older.pending) {
      this.total.hold(state.otherVersions, state.summaries);
    } else {
      this.total.show(state.messages, state.otherVersions, state.summaries);
    }
    // The streaming reply (always the last message) and the newest others now; the older ones when the page is idle.
    const all = state.messages;
    const last = all.at(-1);
    const streamingLast = last !== undefined && state.streaming?.messageId === last.id;
    const shown = streamingLast ? all.slice(0, -1) : all;
    this.messages = [...shown];
    const streamed =
      streamingLast && state.streaming ? this.startStreaming(state.streaming.requestId, last) : undefined;
    const draw = (m: MessageView): HTMLElement => {
      const element = messageElement(m, this.ctx, false);
      this.elements.set(m.id, element);
      return element.article;
    };
    const forget = (m: MessageView) => (this.elements.get(m.id)?.renderer?.dispose(), this.elements.delete(m.id));
    // After any message still on its way out (discard.ts), before the streaming reply.
    const cut = drawRecent(this.log, shown, draw, streamed?.article ?? null);
    this.olderMessages = new OlderMessages(this.log, shown.slice(0, cut), { draw, forget }, this.older.pending > 0);
    placeCompactionMarker(this.log, state.compaction, this.post);
    if (state.messages.length === 0) {
      this.log.append(welcome());
    }
    this.composer.setStreaming(this.streaming !== undefined);
    this.composer.setChips(state.pendingContext);
    this.composer.setModels(state.models, state.model);
    this.composer.setBudget(state.budget);
    this.composer.setGround(state.groundWithAxo);
    this.composer.setToolAccess(state.toolAccess);
    this.composer.setQueue(state.queue);
    this.history.setScope(state.historyScope);
    this.history.update(state.conversations, state.conversationId);
    document.body.classList.toggle('has-selection', state.hasSelection);
    this.refreshRegenerate();
    this.find.refresh();
    const focus = this.branchFocus;
    this.branchFocus = undefined;
    if (focus && state.conversationId === this.conversationId && focus.index >= 0) {
      this.focusBranch(focus.index, focus.step);
    } else {
      this.scroller.jumpToLatest();
    }
  }

  /**
   * Draws what find must search that is not on the page: the older messages still waiting for an idle moment, and,
   * of those asleep, the slices of older messages and the sections of long replies that may hold `query` (lower case).
   */
  private async reveal(query: string): Promise<void> {
    await this.olderMessages?.done;
    await this.olderMessages?.wakeWhere((m) => !!m.steps?.length || markdownMayHold(m.content, query));
    for (const element of this.elements.values()) {
      element.renderer?.wakeWhere((markdown) => markdownMayHold(markdown, query));
    }
  }

  /**
   * After a branch switch: the message now in the switched place keeps the view (it is scrolled into view, not the
   * end) and its switch button the focus (the other one when this one is now at an end). An older message drawn in a
   * later idle slice is focused once it is there.
   */
  private focusBranch(index: number, step: -1 | 1): void {
    // `index` counts from the first message, which may still be on its way (OlderPart): looked up once there.
    const message = (): MessageView | undefined => this.messages[index - this.older.pending];
    if (!this.older.pending && !message()) {
      this.scroller.jumpToLatest();
      return;
    }
    const focus = () => {
      const view = message();
      this.olderMessages?.wakeHolding(view);
      return focusSwitched(this.elements.get(view?.id ?? '')?.article, step, this.scroller);
    };
    if (!focus()) {
      void this.olderMessages?.done.then(focus);
    }
  }

  /** The older messages of a long conversation's state: above the rest, and the total now that it has them all. */
  private drawOlder(message: Extract<HostToWebview, { type: 'chat/older' }>): void {
    const older = this.older.take(message);
    if (older) {
      this.messages = [...older, ...this.messages];
      this.olderMessages?.add(older, this.older.pending > 0);
      if (!this.older.pending) {
        this.total.update(this.messages);
      }
    }
  }

  private append(message: MessageView, streaming: boolean): MessageElement {
    const element = messageElement(message, this.ctx, streaming);
    this.messages.push(message);
    this.elements.set(message.id, element);
    this.log.append(element.article);
    return element;
  }

  private startStreaming(requestId: number, reply: MessageView): MessageElement {
    const element = this.append(reply, true);
    this.streaming = { requestId, messageId: reply.id, element };
    this.composer.setStreaming(true);
    this.refreshRegenerate();
    return element;
  }

  /** A streaming reply's step began or changed: drawn in place (an update replaces it), sources listed, told once. */
  private showStep(message: Extract<HostToWebview, { type: 'chat/step' }>): void {
    const streaming = this.streaming;
    if (!streaming || streaming.requestId !== message.requestId) {
      return;
    }
    const view = this.messages.find((m) => m.id === streaming.messageId);
    if (drawStep(streaming.element, view, message, this.ctx)) {
      this.announcer.stepStarted(message.step);
    }
    this.scroller.contentChanged();
  }

  private endStreaming(message: Extract<HostToWebview, { type: 'chat/done' | 'chat/error' }>): void {
    const streaming = this.streaming;
    if (!streaming || streaming.requestId !== message.requestId) {
      return;
    }
    this.streaming = undefined;
    const view = this.messages.find((m) => m.id === streaming.messageId);
    endReply(streaming.element, view, message, this.ctx);
    if (!this.older.pending) {
      this.total.update(this.messages);
    }
    this.composer.setStreaming(false);
    this.refreshRegenerate();
    this.scroller.contentChanged();
    if (message.type === 'chat/error') {
      this.announcer.replyFailed(message.error);
    } else if (message.status === 'stopped') {
      this.announcer.replyStopped();
    } else {
      this.announcer.replyDone(streaming.element.renderer?.source ?? view?.content ?? '');
    }
  }

  private refreshRegenerate(): void {
    const last = this.messages.at(-1);
    const shown = last && { view: last, article: this.elements.get(last.id)?.article };
    offerRegenerate(this.log, shown, this.streaming !== undefined, this.post);
  }

  /** Stops the streaming reply; true when one was streaming. */
  private stop(): boolean {
    if (this.streaming) {
      this.post({ type: 'chat/cancel', requestId: this.streaming.requestId });
      return true;
    }
    return false;
  }

  /** The text of the last prompt, for Up in an empty composer. */
  private lastPrompt(): string | undefined {
    return [...this.messages].reverse().find((m) => m.role === 'user')?.content;
  }

  private setTitle(title: string | undefined): void {
    // Every list the host sends names the conversation shown: the same title again changes nothing on the page.
    setTextAndTooltip(this.title, title || l10n.t('New conversation'));
  }
}

const api = acquireVsCodeApi();
const post = (message: WebviewToHost) => api.postMessage(message);
const root = document.getElementById('root') as HTMLElement;
document.body.dataset.view = 'chat';
const app = new ChatApp(root, post, api);
window.addEventListener('message', (event: MessageEvent<HostToWebview>) => {
  const message = event.data;
  if (message && typeof message === 'object' && typeof message.type === 'string') {
    app.handle(message);
  }
});
post({ type: 'webview/ready' });
