import type { ConversationSummaryView, WebviewToHost } from '../../protocol/chatProtocol';
import { h, icon, iconButton, relativeTime } from './dom';

/**
 * The conversation list: title and time of each, open one, delete one. Relative times are computed when the
 * list is drawn (opening it, or a change), never on a timer.
 */
export class HistoryPanel {
  readonly element: HTMLElement;
  readonly toggle: HTMLButtonElement;
  private readonly list = h('ul', { class: 'history-list', 'aria-label': 'Conversations' });
  private conversations: ConversationSummaryView[] = [];
  private currentId = '';

  constructor(private readonly post: (message: WebviewToHost) => void) {
    this.element = h(
      'section',
      { class: 'history', 'aria-label': 'Conversations', hidden: true },
      h('h2', {}, 'Conversations'),
      this.list,
    );
    this.toggle = iconButton('Show conversations', 'history', () => this.setOpen(this.element.hidden), {
      'aria-expanded': 'false',
    });
    this.element.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') {
        this.setOpen(false);
        this.toggle.focus();
      }
    });
  }

  /** Replaces the list (drawn now only if it is open). */
  update(conversations: ConversationSummaryView[], currentId: string): void {
    this.conversations = conversations;
    this.currentId = currentId;
    if (!this.element.hidden) {
      this.draw();
    }
  }

  /** Opens or closes the list. */
  setOpen(open: boolean): void {
    this.element.hidden = !open;
    this.toggle.setAttribute('aria-expanded', String(open));
    this.toggle.setAttribute('aria-label', open ? 'Hide conversations' : 'Show conversations');
    this.toggle.title = open ? 'Hide conversations' : 'Show conversations';
    if (open) {
      this.draw();
      this.list.querySelector<HTMLElement>('[aria-current="true"], button')?.focus();
    }
  }

  private draw(): void {
    if (this.conversations.length === 0) {
      this.list.replaceChildren(h('li', { class: 'empty' }, 'No conversations yet.'));
      return;
    }
    const now = Date.now();
    this.list.replaceChildren(
      ...this.conversations.map((c) => {
        const current = c.id === this.currentId;
        const open = h(
          'button',
          {
            type: 'button',
            class: 'history-item',
            'aria-current': current ? 'true' : undefined,
            title: `${c.title} · ${new Date(c.updatedAt).toLocaleString()} · ${c.messageCount} messages`,
            onClick: () => {
              this.setOpen(false);
              this.post({ type: 'conversation/switch', id: c.id });
            },
          },
          icon(current ? 'comment-discussion' : 'comment'),
          h('span', { class: 'history-title' }, c.title),
          h('span', { class: 'history-time' }, relativeTime(c.updatedAt, now)),
        );
        const remove = iconButton(`Delete conversation ${c.title}`, 'trash', () =>
          this.post({ type: 'conversation/delete', id: c.id }),
        );
        return h('li', {}, open, remove);
      }),
    );
  }
}
