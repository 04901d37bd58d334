import type {
  ConversationMatchView,
  ConversationSummaryView,
  HistoryScope,
  WebviewToHost,
} from '../../../protocol/chatProtocol';
import * as l10n from '@vscode/l10n';
import { locale } from '../../shared/l10n';
import { h, icon, iconButton, relativeTime } from '../../shared/dom';
import './historyPanel.css';

/** How long typing pauses before the host is asked to search. */
const SEARCH_DELAY_MS = 150;

/**
 * The conversation list: title and time of each; open, pin, rename (in place), duplicate or delete one; "This
 * workspace" or "All" (remembered by the host per window); and a search box that filters by title and message text. Message text lives on the host, so the host searches and answers with the matches and a snippet of
 * where each matched. Relative times are computed when the list is drawn (opening it, or a change), never on a timer.
 */
export class HistoryPanel {
  readonly element: HTMLElement;
  readonly toggle: HTMLButtonElement;
  private readonly list = h('ul', { class: 'history-list', id: 'history-list', 'aria-label': l10n.t('Conversations') });
  private readonly search = h('input', {
    type: 'search',
    id: 'history-search',
    class: 'history-search',
    placeholder: l10n.t('Search titles and messages'),
    autocomplete: 'off',
    spellcheck: 'false',
    'aria-controls': 'history-list',
  });
  /** Says how many conversations match, for screen readers. */
  private readonly status = h('p', { class: 'sr-only', role: 'status', 'aria-live': 'polite' });
  private conversations: ConversationSummaryView[] = [];
  private currentId = '';
  /** The host's answer for the query in the box (absent while none is in the box or the answer is on its way). */
  private matches: { query: string; byId: Map<string, ConversationMatchView> } | undefined;
  private searchTimer: ReturnType<typeof setTimeout> | undefined;
  /** The filter; undefined in a window without a workspace (then there is none to choose). */
  private scope: HistoryScope | undefined;
  private readonly scopeGroup: HTMLElement;
  private readonly scopeButtons: Record<HistoryScope, HTMLButtonElement>;
  /** The conversation being renamed in place, and its title field (kept across redraws of the list). */
  private renaming: { id: string; input: HTMLInputElement } | undefined;

  constructor(private readonly post: (message: WebviewToHost) => void) {
    const scopeButton = (scope: HistoryScope, label: string) =>
      h(
        'button',
        {
          type: 'button',
          role: 'radio',
          class: 'history-scope-option',
          'aria-checked': 'false',
          onClick: () => this.chooseScope(scope),
        },
        label,
      );
    this.scopeButtons = {
      workspace: scopeButton('workspace', l10n.t('This workspace')),
      all: scopeButton('all', l10n.t('All')),
    };
    this.scopeGroup = h(
      'div',
      { class: 'history-scope', role: 'radiogroup', 'aria-label': l10n.t('Show conversations of'), hidden: true },
      this.scopeButtons.workspace,
      this.scopeButtons.all,
    );
    this.scopeGroup.addEventListener('keydown', (e) => {
      if (e.key === 'ArrowLeft' || e.key === 'ArrowRight' || e.key === 'ArrowUp' || e.key === 'ArrowDown') {
        e.preventDefault();
        this.chooseScope(this.scope === 'all' ? 'workspace' : 'all');
        this.scopeButtons[this.scope ?? 'all'].focus();
      }
    });
    this.element = h(
      'section',
      { class: 'history', 'aria-label': l10n.t('Conversations'), hidden: true },
      h('h2', {}, l10n.t('Conversations')),
      this.scopeGroup,
      h(
        'div',
        { class: 'history-search-row', role: 'search' },
        h('label', { for: 'history-search', class: 'sr-only' }, l10n.t('Search conversations')),
        this.search,
      ),
      this.status,
      this.list,
    );
    this.toggle = iconButton(l10n.t('Show conversations'), 'history', () => this.setOpen(this.element.hidden), {
      'aria-expanded': 'false',
    });
    this.element.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') {
        e.preventDefault(); // Closing the list is all this Escape does: a streaming reply goes on.
        this.setOpen(false);
        this.toggle.focus();
      }
    });
    this.search.addEventListener('input', () => this.queryChanged());
    this.search.addEventListener('keydown', (e) => this.onSearchKey(e));
    this.list.addEventListener('keydown', (e) => this.onListKey(e));
  }

  /** Replaces the list (drawn now only if it is open); a search in the box runs again on the new list. */
  update(conversations: ConversationSummaryView[], currentId: string): void {
    this.conversations = conversations;
    this.currentId = currentId;
    if (this.query()) {
      this.requestSearch(0);
    }
    if (!this.element.hidden) {
      this.draw();
    }
  }

  /** The host's matches for `query`; ignored when the box holds another query by now. */
  showMatches(query: string, matches: ConversationMatchView[]): void {
    if (query.trim() !== this.query()) {
      return;
    }
    this.matches = { query: query.trim(), byId: new Map(matches.map((m) => [m.id, m])) };
    this.list.removeAttribute('aria-busy');
    if (!this.element.hidden) {
      this.draw();
    }
  }

  /** The list's filter (from the state, or after another page of this window changed it). */
  setScope(scope: HistoryScope | undefined): void {
    this.scope = scope;
    this.scopeGroup.hidden = scope === undefined;
    for (const [name, button] of Object.entries(this.scopeButtons) as [HistoryScope, HTMLButtonElement][]) {
      button.setAttribute('aria-checked', String(name === scope));
      button.tabIndex = name === (scope ?? 'all') ? 0 : -1;
    }
    if (!this.element.hidden) {
      this.draw();
    }
  }

  private chooseScope(scope: HistoryScope): void {
    if (scope !== this.scope) {
      this.setScope(scope);
      this.post({ type: 'history/scope', scope });
    }
  }

  /** Closes the list when it is open (Escape from anywhere in the page); true when it was. */
  closeIfOpen(): boolean {
    if (this.element.hidden) {
      return false;
    }
    this.setOpen(false);
    this.toggle.focus();
    return true;
  }

  setOpen(open: boolean): void {
    this.element.hidden = !open;
    this.toggle.setAttribute('aria-expanded', String(open));
    this.toggle.setAttribute('aria-label', open ? l10n.t('Hide conversations') : l10n.t('Show conversations'));
    this.toggle.title = open ? l10n.t('Hide conversations') : l10n.t('Show conversations');
    if (open) {
      this.draw();
      this.list.querySelector<HTMLElement>('[aria-current="true"], button')?.focus();
    }
  }

  private query(): string {
    return this.search.value.trim();
  }

  private queryChanged(): void {
    if (!this.query()) {
      clearTimeout(this.searchTimer);
      this.matches = undefined;
      this.list.removeAttribute('aria-busy');
      this.draw();
      return;
    }
    // The list keeps what it shows (marked busy) until the host answers, so it never flashes "No conversations match".
    this.requestSearch(SEARCH_DELAY_MS);
  }

  private requestSearch(delayMs: number): void {
    clearTimeout(this.searchTimer);
    this.list.setAttribute('aria-busy', 'true');
    this.searchTimer = setTimeout(() => {
      const query = this.query();
      if (query) {
        this.post({ type: 'conversation/search', query });
      }
    }, delayMs);
  }

  private onSearchKey(e: KeyboardEvent): void {
    if (e.key === 'Escape' && this.search.value) {
      e.stopPropagation(); // clears the box; a second Escape closes the list
      this.search.value = '';
      this.queryChanged();
    } else if (e.key === 'ArrowDown') {
      e.preventDefault();
      this.items()[0]?.focus();
    } else if (e.key === 'Enter') {
      e.preventDefault();
      this.items()[0]?.click();
    }
  }

  /** Up and down move between the conversations; up from the first goes back to the search box. */
  private onListKey(e: KeyboardEvent): void {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') {
      return;
    }
    const items = this.items();
    const at = items.indexOf(document.activeElement as HTMLButtonElement);
    if (at < 0) {
      return;
    }
    e.preventDefault();
    const next = e.key === 'ArrowDown' ? items[Math.min(at + 1, items.length - 1)] : items[at - 1];
    (next ?? this.search).focus();
  }

  private items(): HTMLButtonElement[] {
    return [...this.list.querySelectorAll<HTMLButtonElement>('button.history-item')];
  }

  /**
   * The conversations to show: those of the filter ("This workspace" keeps the one shown, wherever it was started),
   * and of those the ones the host matched for the query in the box.
   */
  private shown(): { conversation: ConversationSummaryView; match?: ConversationMatchView }[] {
    const inScope = this.conversations.filter((c) => this.scope !== 'workspace' || c.here || c.id === this.currentId);
    const query = this.query();
    if (!query || !this.matches) {
      return inScope.map((conversation) => ({ conversation }));
    }
    const byId = this.matches.byId;
    return inScope
      .filter((c) => byId.has(c.id))
      .map((conversation) => ({ conversation, match: byId.get(conversation.id) }));
  }

  /** Turns a conversation's row into a title field: Enter or leaving it renames, Escape keeps the title. */
  private startRename(c: ConversationSummaryView): void {
    const input = h('input', {
      type: 'text',
      class: 'history-rename',
      value: c.title,
      maxlength: '200',
      'aria-label': l10n.t('New title for {0}', c.title),
    });
    let done = false;
    const finish = (save: boolean) => {
      if (done) {
        return;
      }
      done = true;
      this.renaming = undefined;
      const title = input.value.trim();
      if (save && title && title !== c.title) {
        this.post({ type: 'conversation/rename', id: c.id, title });
      }
      this.draw();
      this.rowOf(c.id)?.querySelector<HTMLElement>('.history-item')?.focus();
    };
    input.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') {
        e.preventDefault();
        finish(true);
      } else if (e.key === 'Escape') {
        e.preventDefault();
        e.stopPropagation(); // Escape leaves the field; the list stays open
        finish(false);
      }
    });
    input.addEventListener('blur', () => finish(true));
    this.renaming = { id: c.id, input };
    this.draw();
    input.focus();
    input.select();
  }

  private rowOf(id: string): HTMLElement | undefined {
    return [...this.list.children].find((li) => (li as HTMLElement).dataset.id === id) as HTMLElement | undefined;
  }

  private draw(): void {
    const searching = this.query() !== '' && this.matches !== undefined;
    if (this.conversations.length === 0) {
      this.status.textContent = '';
      this.list.replaceChildren(h('li', { class: 'empty' }, l10n.t('No conversations yet.')));
      return;
    }
    const shown = this.shown();
    if (searching) {
      this.status.textContent =
        shown.length === 0
          ? l10n.t('No conversations match')
          : shown.length === 1
            ? l10n.t('{0} conversation matches', shown.length)
            : l10n.t('{0} conversations match', shown.length);
    } else {
      this.status.textContent = '';
    }
    if (shown.length === 0) {
      const empty = searching
        ? l10n.t('No conversations match')
        : l10n.t('No conversations in this workspace yet. Choose “All” to see the others.');
      this.list.replaceChildren(h('li', { class: 'empty' }, empty));
      return;
    }
    const now = Date.now();
    // The list is drawn again whenever the host sends it (another window saved, a reply ended): a keyboard user
    // moving through it keeps the focus on the same conversation's same button.
    const active = document.activeElement;
    const focusedItem = active && this.list.contains(active) ? active.closest('li')?.dataset.id : undefined;
    const focusedRow = active?.closest('li');
    const focusedButton = focusedRow
      ? [...focusedRow.querySelectorAll('button')].indexOf(active as HTMLButtonElement)
      : -1;
    const renaming = this.renaming;
    this.list.replaceChildren(
      ...shown.map(({ conversation: c, match }) => {
        if (renaming?.id === c.id) {
          return h('li', { 'data-id': c.id, class: 'renaming' }, renaming.input);
        }
        const current = c.id === this.currentId;
        const snippet = match?.snippet;
        const open = h(
          'button',
          {
            type: 'button',
            class: 'history-item',
            'aria-current': current ? 'true' : undefined,
            title: `${c.title} · ${new Date(c.updatedAt).toLocaleString(locale())} · ${c.messageCount === 1 ? l10n.t('1 message') : l10n.t('{0} messages', c.messageCount)}`,
            onClick: () => {
              this.setOpen(false);
              this.post({ type: 'conversation/switch', id: c.id });
            },
          },
          icon(current ? 'comment-discussion' : 'comment'),
          h('span', { class: 'history-title' }, c.title),
          c.pinned && h('span', { class: 'history-pinned', title: l10n.t('Pinned') }, icon('pinned')),
          h('span', { class: 'history-time' }, relativeTime(c.updatedAt, now)),
          snippet &&
            h('span', { class: 'history-snippet' }, snippet.before, h('mark', {}, snippet.match), snippet.after),
        );
        const pin = iconButton(
          l10n.t('Pin conversation {0}', c.title),
          c.pinned ? 'pinned' : 'pin',
          () => this.post({ type: 'conversation/pin', id: c.id, pinned: !c.pinned }),
          { 'aria-pressed': String(c.pinned) },
        );
        const rename = iconButton(l10n.t('Rename conversation {0}', c.title), 'edit', () => this.startRename(c));
        const duplicate = iconButton(l10n.t('Duplicate conversation {0}', c.title), 'copy', () => {
          this.setOpen(false);
          this.post({ type: 'conversation/duplicate', id: c.id });
        });
        const remove = iconButton(l10n.t('Delete conversation {0}', c.title), 'trash', () =>
          this.post({ type: 'conversation/delete', id: c.id }),
        );
        return h(
          'li',
          { 'data-id': c.id },
          open,
          h('span', { class: 'history-actions' }, pin, rename, duplicate, remove),
        );
      }),
    );
    if (focusedItem !== undefined) {
      const item = [...this.list.children].find((li) => (li as HTMLElement).dataset.id === focusedItem);
      const buttons = item ? [...item.querySelectorAll<HTMLButtonElement>('button')] : [];
      (buttons[focusedButton] ?? buttons[0])?.focus();
    }
  }
}
