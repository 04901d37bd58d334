import type { AttachOptionView } from '../../../protocol/chatProtocol';
import * as l10n from '@vscode/l10n';
import { h, icon } from '../../shared/dom';
import './attachMenu.css';

/** The codicon of each kind of option. */
const ICONS: Record<AttachOptionView['kind'], string> = {
  selection: 'selection',
  terminal: 'terminal',
  openFile: 'file',
  symbol: 'symbol-method',
  file: 'file',
};

/** The `#query` being typed before the caret: where its `#` is and what follows it. */
export function hashQuery(text: string, caret: number): { start: number; query: string } | undefined {
  const before = text.slice(0, caret);
  const match = /(^|\s)#([^\s#]*)$/.exec(before);
  if (!match) {
    return undefined;
  }
  return { start: before.length - match[2].length - 1, query: match[2] };
}

/**
 * The list `#` opens in the composer: what can be attached (the selection, terminal output, open files, symbols,
 * workspace files), from the host. A listbox the message box controls (`aria-activedescendant`): the arrows move,
 * Enter or Tab attaches, Escape closes, typing narrows it.
 */
export class AttachMenu {
  readonly element: HTMLElement;
  private options: AttachOptionView[] = [];
  private active = 0;
  /** The query asked last; options for another are stale. */
  private asked: string | undefined;

  constructor(
    private readonly input: HTMLTextAreaElement,
    private readonly choose: (option: AttachOptionView) => void,
  ) {
    this.element = h('ul', {
      class: 'attach-menu',
      role: 'listbox',
      id: 'attach-menu',
      'aria-label': l10n.t('Attach'),
      hidden: true,
    });
    // A multi-line textbox, not a combobox: `aria-expanded` is not one of its attributes (axe: aria-allowed-attr).
    input.setAttribute('aria-autocomplete', 'list');
    input.setAttribute('aria-controls', 'attach-menu');
  }

  get isOpen(): boolean {
    return !this.element.hidden;
  }

  /** The query now typed: asked for once (returns true when the host must be asked). */
  ask(query: string): boolean {
    if (query === this.asked) {
      return false;
    }
    this.asked = query;
    return true;
  }

  /** Shows the host's options for `query` (ignored when another query was typed since). */
  show(query: string, options: AttachOptionView[]): void {
    if (query !== this.asked) {
      return;
    }
    this.options = options;
    this.active = 0;
    this.draw();
  }

  close(): void {
    this.asked = undefined;
    this.options = [];
    this.element.hidden = true;
    this.element.replaceChildren();
    this.input.removeAttribute('aria-activedescendant');
  }

  /** Handles a key in the message box while the list is open; true when it was the list's. */
  onKey(event: KeyboardEvent): boolean {
    if (!this.isOpen || event.isComposing) {
      return false;
    }
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      const n = this.options.length;
      this.active = (this.active + (event.key === 'ArrowDown' ? 1 : -1) + n) % n;
      this.draw();
    } else if ((event.key === 'Enter' || event.key === 'Tab') && !event.shiftKey) {
      const option = this.options[this.active];
      if (!option) {
        return false;
      }
      this.choose(option);
    } else if (event.key === 'Escape') {
      this.close();
    } else {
      return false;
    }
    event.preventDefault();
    event.stopPropagation();
    return true;
  }

  private draw(): void {
    if (!this.options.length) {
      this.element.replaceChildren(
        h('li', { class: 'attach-empty', role: 'presentation' }, l10n.t('Nothing to attach matches')),
      );
      this.element.hidden = false;
      this.input.removeAttribute('aria-activedescendant');
      return;
    }
    this.element.replaceChildren(
      ...this.options.map((option, i) =>
        h(
          'li',
          {
            id: `attach-option-${i}`,
            role: 'option',
            class: i === this.active ? 'attach-option active' : 'attach-option',
            'aria-selected': String(i === this.active),
            // Keeps the focus in the message box while the mouse picks.
            onMousedown: (e) => e.preventDefault(),
            onClick: () => this.choose(option),
          },
          icon(ICONS[option.kind]),
          h('span', { class: 'attach-label' }, option.label),
          option.detail ? h('span', { class: 'attach-detail' }, option.detail) : undefined,
        ),
      ),
    );
    this.element.hidden = false;
    this.input.setAttribute('aria-activedescendant', `attach-option-${this.active}`);
    this.element.querySelector('.active')?.scrollIntoView({ block: 'nearest' });
  }
}
