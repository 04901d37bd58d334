import * as l10n from '@vscode/l10n';
import type { StepView } from '../../../../protocol/chatProtocol';
import { h, icon } from '../../../shared/dom';
import { spokenTitle, stepStatus, titleParts } from './stepParts';
import './steps.css';

/** What a step needs from its reply. */
export interface StepContext {
  /** Opens the review of a step's proposed edit again (`step/review`). */
  review(stepId: string): void;
  /** A link to source `n` (1-based) of the reply, numbered as its Sources list; undefined when it has no such source. */
  sourceLink(n: number): HTMLElement | undefined;
}

/** Panels' ids, unique in the page (a step's id comes from the service and may hold anything). */
let panels = 0;

/**
 * One tool call inside a reply: an icon for its status, its title (backticked code as `<code>`), the reply's sources
 * it added and, for a proposed edit, "Review". The title is a disclosure button (`aria-expanded`): opened, it shows
 * what went back to ALPHA, as plain text. A newer view of the same step updates it in place, so the button keeps the
 * focus and the panel stays as the user left it.
 */
export class StepElement {
  readonly element: HTMLElement;
  private readonly toggle: HTMLButtonElement;
  private readonly head: HTMLElement;
  private readonly panel: HTMLElement;
  private view: StepView;
  /** The panel shows the result of `view` (it is filled when opened, so a closed step holds no copy of its result). */
  private panelCurrent = false;

  constructor(
    view: StepView,
    private readonly ctx: StepContext,
  ) {
    this.view = view;
    const panelId = `step-result-${++panels}`;
    this.panel = h('div', { class: 'step-result', id: panelId, hidden: true });
    this.toggle = h('button', {
      type: 'button',
      class: 'step-toggle',
      'aria-expanded': 'false',
      'aria-controls': panelId,
      onClick: () => this.setOpen(!this.isOpen),
    });
    this.head = h('div', { class: 'step-head' }, this.toggle);
    this.element = h('div', { class: 'step', 'data-step-id': view.id }, this.head, this.panel);
    this.draw();
  }

  /** The step changed (its status, title, result): drawn again in place. */
  update(view: StepView): void {
    this.view = view;
    this.panelCurrent = false;
    this.draw();
  }

  private get isOpen(): boolean {
    return this.toggle.getAttribute('aria-expanded') === 'true';
  }

  private setOpen(open: boolean): void {
    this.toggle.setAttribute('aria-expanded', String(open));
    this.panel.hidden = !open;
    if (open) {
      this.fillPanel();
    }
  }

  private draw(): void {
    const view = this.view;
    const status = stepStatus(view.status);
    this.element.className = `step status-${view.status}`;
    this.toggle.replaceChildren(
      h('span', { class: 'codicon codicon-chevron-right step-chevron', 'aria-hidden': 'true' }),
      h('span', {
        class: `codicon codicon-${status.icon}${status.spin ? ' codicon-modifier-spin' : ''} step-icon`,
        'aria-hidden': 'true',
        title: status.label,
      }),
      h(
        'span',
        { class: 'step-title' },
        ...titleParts(view.title).map((part) => (part.code ? h('code', {}, part.text) : part.text)),
      ),
      // The icon is not read: its status is, after the title ("Read src/app.ts, done").
      h('span', { class: 'sr-only' }, `, ${status.label}`),
    );
    const extras: HTMLElement[] = [];
    const links = (view.sources ?? []).flatMap((n) => this.ctx.sourceLink(n) ?? []);
    if (links.length) {
      extras.push(h('span', { class: 'step-sources' }, ...links));
    }
    if (view.review) {
      extras.push(
        h(
          'button',
          {
            type: 'button',
            class: 'text-button step-review',
            // The visible word starts the name, which says what is reviewed.
            'aria-label': l10n.t('Review: {0}', spokenTitle(view.title)),
            onClick: () => this.ctx.review(this.view.id),
          },
          icon('diff'),
          h('span', {}, l10n.t('Review')),
        ),
      );
    }
    this.head.replaceChildren(this.toggle, ...extras);
    if (this.isOpen) {
      this.fillPanel();
    }
  }

  /** What went back to ALPHA, as text (never HTML), or that nothing has (yet). */
  private fillPanel(): void {
    if (this.panelCurrent) {
      return;
    }
    this.panelCurrent = true;
    const result = this.view.result;
    if (result === undefined) {
      const none =
        this.view.status === 'running'
          ? l10n.t('Nothing went back to ALPHA yet.')
          : l10n.t('Nothing went back to ALPHA.');
      this.panel.replaceChildren(h('p', { class: 'step-result-none' }, none));
      return;
    }
    // Focusable: a long result scrolls, and the keyboard must be able to scroll it.
    const text = h('pre', { class: 'step-result-text', tabindex: '0', 'aria-label': l10n.t('What went to ALPHA') });
    text.textContent = result;
    this.panel.replaceChildren(text);
  }
}
