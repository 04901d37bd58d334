import type {
  AttachOptionView,
  BudgetView,
  ContextChipView,
  ModelView,
  QueueView,
  ToolAccessView,
  WebviewToHost,
} from '../../../protocol/chatProtocol';
import { AttachMenu, hashQuery } from './attachMenu';
import * as l10n from '@vscode/l10n';
import { h, icon } from '../../shared/dom';
import { chip } from '../messages/messageView';
import { QueueList } from './queueView';
import { ContextGauge } from './contextGauge';
import { ToolAccessControl } from './toolAccess';
import './composer.css';

interface VsCodeState {
  draft?: string;
}

/** Where the composer keeps its draft across a page reload (the webview's own state; never a key). */
export interface DraftStore {
  getState(): unknown;
  setState(state: VsCodeState): void;
}

/**
 * The message box and its bar: context chips, the "Message ALPHA" textbox (Enter sends, Shift+Enter is a new line),
 * the model picker, the context estimate, Send and "Stop generating". While a reply streams, Send stays beside Stop
 * and queues the prompt (the queue is listed above the box); with queueing off, Send gives way to Stop.
 */
export class Composer {
  readonly element: HTMLElement;
  readonly input: HTMLTextAreaElement;
  private readonly chips = h('div', { class: 'chips pending', 'aria-label': l10n.t('Context for the next message') });
  private readonly models = h('select', { class: 'model-picker', 'aria-label': l10n.t('Model') });
  /** The context gauge and the instructions chips. */
  private readonly gauge: ContextGauge;
  private readonly sendButton: HTMLButtonElement;
  private readonly stopButton: HTMLButtonElement;
  /** "Ground with AXO": a toggle button; its state is the conversation's, sent by the host. */
  private readonly groundButton: HTMLButtonElement;
  /** What ALPHA may use in this conversation (hidden where tool calling is off). */
  private readonly tools: ToolAccessControl;
  private streaming = false;
  private hasChips = false;
  /** `alphaAxo.chat.queuePrompts`: Send stays while a reply streams. */
  private queueEnabled = true;
  /** The prompts waiting their turn. */
  private readonly queue: QueueList;
  /** What `#` offers to attach. */
  private readonly attach: AttachMenu;

  constructor(
    private readonly post: (message: WebviewToHost) => void,
    private readonly drafts: DraftStore,
    private readonly onStop: () => void,
    private readonly lastPrompt: () => string | undefined = () => undefined,
    announce: (text: string) => void = () => undefined,
  ) {
    this.gauge = new ContextGauge(post, announce);
    this.input = h('textarea', {
      class: 'input',
      rows: 1,
      'aria-label': l10n.t('Message ALPHA'),
      placeholder: l10n.t('Ask ALPHA… (Enter to send, Shift+Enter for a new line)'),
    });
    this.input.value = (drafts.getState() as VsCodeState | undefined)?.draft ?? '';
    this.attach = new AttachMenu(this.input, (option) => this.attachOption(option));
    this.input.addEventListener('keydown', (e) => this.onKey(e));
    this.input.addEventListener('input', () => this.onInput());
    this.input.addEventListener('blur', () => this.attach.close());
    this.sendButton = h(
      'button',
      {
        type: 'button',
        class: 'send',
        'aria-label': l10n.t('Send'),
        title: l10n.t('Send (Enter)'),
        onClick: () => this.send(),
      },
      icon('send'),
    );
    this.stopButton = h(
      'button',
      {
        type: 'button',
        class: 'stop',
        'aria-label': l10n.t('Stop generating'),
        title: l10n.t('Stop generating (Esc)'),
        hidden: true,
        onClick: () => this.onStop(),
      },
      icon('debug-stop'),
    );
    this.groundButton = h(
      'button',
      {
        type: 'button',
        class: 'ground-toggle',
        'aria-pressed': 'false',
        title: l10n.t('Answer with facts and sources from the AXO encyclopedia'),
        onClick: () => this.toggleGround(),
      },
      icon('book'),
      h('span', {}, l10n.t('Ground with AXO')),
    );
    this.tools = new ToolAccessControl(post);
    this.models.addEventListener('change', () => this.post({ type: 'model/select', id: this.models.value }));
    this.queue = new QueueList(post, () => this.input.focus());
    this.element = h(
      'div',
      { class: 'composer' },
      this.queue.element,
      this.gauge.instructionsElement,
      this.chips,
      this.attach.element,
      h('div', { class: 'input-row' }, this.input, this.sendButton, this.stopButton),
      h(
        'div',
        { class: 'composer-bar' },
        h('label', { class: 'model-label' }, icon('sparkle'), this.models),
        this.groundButton,
        this.tools.element,
        this.gauge.compactButton,
        this.gauge.element,
      ),
    );
    this.resize();
    this.updateSend();
  }

  /** Shows the conversation's "Ground with AXO" state. */
  setGround(on: boolean): void {
    this.groundButton.setAttribute('aria-pressed', String(on));
  }

  /** Shows what ALPHA may use in this conversation; absent: the control is hidden. */
  setToolAccess(access: ToolAccessView | undefined): void {
    this.tools.set(access);
  }

  private toggleGround(): void {
    const on = this.groundButton.getAttribute('aria-pressed') !== 'true';
    this.setGround(on);
    this.post({ type: 'chat/ground', on });
  }

  /** Shows whether a reply streams: Stop generating, with Send beside it when prompts can be queued. */
  setStreaming(streaming: boolean): void {
    const hadFocus = document.activeElement === this.sendButton || document.activeElement === this.stopButton;
    const sendHadFocus = document.activeElement === this.sendButton;
    this.streaming = streaming;
    this.sendButton.hidden = streaming && !this.queueEnabled;
    this.sendButton.title = streaming ? l10n.t('Send (Enter): queued until the reply ends') : l10n.t('Send (Enter)');
    this.stopButton.hidden = !streaming;
    if (hadFocus && !(sendHadFocus && !this.sendButton.hidden)) {
      (streaming ? this.stopButton : this.input).focus();
    }
    this.updateSend();
  }

  /** The prompt queue and whether prompts can be queued while a reply streams. */
  setQueue(queue: QueueView | undefined): void {
    this.queueEnabled = queue?.enabled ?? true;
    this.queue.update(queue);
    this.setStreaming(this.streaming);
  }

  /** The pending context chips. */
  setChips(chips: ContextChipView[]): void {
    this.hasChips = chips.length > 0;
    this.chips.replaceChildren(...chips.map((c) => chip(c, () => this.post({ type: 'context/remove', id: c.id }))));
    this.chips.hidden = chips.length === 0;
    this.updateSend();
  }

  /** The lineup: only selectable models can be chosen; the others show "Coming soon". */
  setModels(models: ModelView[], current: string): void {
    this.models.replaceChildren(
      ...models.map((m) => {
        const facts = `${m.context === 'n/a' ? l10n.t('no text context') : l10n.t('{0} context', m.context)} · ${m.latency}`;
        const text = m.selectable ? `${m.label} · ${facts}` : `${m.label} · ${facts} — ${l10n.t('Coming soon')}`;
        return h('option', { value: m.id, disabled: !m.selectable, title: m.capability }, text);
      }),
    );
    this.models.value = current;
  }

  /** The model chosen in the settings. */
  setModel(current: string): void {
    this.models.value = current;
  }

  /** The estimate of the next request against the model's context (the gauge), and the instructions sent. */
  setBudget(budget: BudgetView): void {
    this.gauge.set(budget);
  }

  /** The host's answer to a `#query`. */
  showAttachOptions(query: string, options: AttachOptionView[]): void {
    this.attach.show(query, options);
  }

  /** Attaches an option: its `#query` leaves the text, the host reads it and sends the chip. */
  private attachOption(option: AttachOptionView): void {
    const caret = this.input.selectionStart ?? this.input.value.length;
    const typed = hashQuery(this.input.value, caret);
    if (typed) {
      this.input.value = this.input.value.slice(0, typed.start) + this.input.value.slice(caret);
      this.input.setSelectionRange(typed.start, typed.start);
      this.onInput();
    }
    this.attach.close();
    this.post({ type: 'attach/add', id: option.id });
  }

  /** After typing: a `#query` before the caret asks the host what it may attach; anything else closes the list. */
  private updateAttach(): void {
    const caret = this.input.selectionStart ?? this.input.value.length;
    const typed =
      this.input.selectionStart === this.input.selectionEnd ? hashQuery(this.input.value, caret) : undefined;
    if (!typed) {
      this.attach.close();
      return;
    }
    if (this.attach.ask(typed.query)) {
      this.post({ type: 'attach/query', query: typed.query });
    }
  }

  /** Focuses the message box, optionally with a draft. */
  focus(draft?: string): void {
    if (draft !== undefined) {
      this.input.value = draft;
      this.onInput();
    }
    this.input.focus();
  }

  private onKey(event: KeyboardEvent): void {
    if (this.attach.onKey(event)) {
      return;
    }
    const plain = !event.shiftKey && !event.ctrlKey && !event.metaKey && !event.altKey && !event.isComposing;
    if (event.key === 'ArrowUp' && plain && this.input.value === '') {
      // Up in an empty box brings the last prompt back for editing, as a shell's history does.
      const last = this.lastPrompt();
      if (last) {
        event.preventDefault();
        this.focus(last);
        this.input.setSelectionRange(last.length, last.length);
      }
      return;
    }
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      this.send();
    }
  }

  private onInput(): void {
    this.drafts.setState({ draft: this.input.value });
    this.resize();
    this.updateSend();
    this.updateAttach();
  }

  private send(): void {
    const text = this.input.value;
    if ((this.streaming && !this.queueEnabled) || (!text.trim() && !this.hasChips)) {
      return;
    }
    this.post({ type: 'chat/send', text });
    this.input.value = '';
    this.onInput();
  }

  private updateSend(): void {
    this.sendButton.disabled = !this.input.value.trim() && !this.hasChips;
  }

  private resize(): void {
    this.input.style.height = 'auto';
    this.input.style.height = `${Math.min(this.input.scrollHeight, 240)}px`;
  }
}
