import * as l10n from '@vscode/l10n';
import type { BudgetView, InstructionsView, WebviewToHost } from '../../../protocol/chatProtocol';
import { formatTokens } from '../../../shared/tokens';
import { h, icon } from '../../shared/dom';
import './contextGauge.css';

/** The share of the context past which the gauge warns and says so once. */
export const GAUGE_WARN_SHARE = 0.8;

type PartName = keyof BudgetView['parts'];

const PART_ORDER: readonly PartName[] = ['conversation', 'attachments', 'instructions', 'grounding', 'tools'];

function partLabel(part: PartName): string {
  switch (part) {
    case 'conversation':
      return l10n.t('Conversation');
    case 'attachments':
      return l10n.t('Attachments');
    case 'instructions':
      return l10n.t('Instructions');
    case 'grounding':
      return l10n.t('Grounding');
    case 'tools':
      return l10n.t('ALPHA’s tools');
  }
}

/**
 * The composer's context gauge: a bar of the next request's estimate by part (conversation, attachments, the
 * repository's instructions, grounding, the tools message) against the selected model's context, with its numbers
 * in a disclosure below it; said once to a screen reader when it crosses 80 %, when it also offers "Compact". Beside
 * it, the chips of the instructions files that go with each request, each opening its file.
 */
export class ContextGauge {
  /** The gauge (a `<details>`: its summary is the bar and the total, its body the numbers by part). */
  readonly element: HTMLDetailsElement;
  /** The instructions chips ("Instructions: AGENTS.md, ≈312 tokens"), hidden when none are sent. */
  readonly instructionsElement = h('div', { class: 'chips instructions' });
  private readonly meter: HTMLElement;
  private readonly total = h('span', { class: 'budget-total' });
  private readonly list = h('dl', { class: 'budget-parts' });
  private readonly segments: Record<PartName, HTMLElement>;
  /** "Compact", offered past 80 % (it blocks nothing: the message box stays usable). */
  readonly compactButton: HTMLButtonElement;
  private over = false;

  constructor(
    private readonly post: (message: WebviewToHost) => void,
    private readonly announce: (text: string) => void,
  ) {
    this.segments = {
      conversation: h('span', { class: 'segment conversation' }),
      attachments: h('span', { class: 'segment attachments' }),
      instructions: h('span', { class: 'segment instructions' }),
      grounding: h('span', { class: 'segment grounding' }),
      tools: h('span', { class: 'segment tools' }),
    };
    this.meter = h(
      'span',
      { class: 'budget-bar', role: 'meter', 'aria-label': l10n.t('Context used'), 'aria-valuemin': '0' },
      ...PART_ORDER.map((p) => this.segments[p]),
    );
    this.compactButton = h(
      'button',
      {
        type: 'button',
        class: 'compact',
        hidden: true,
        title: l10n.t('Summarise the older turns into one message, sent instead of them (Undo brings them back)'),
        onClick: () => this.post({ type: 'chat/compact' }),
      },
      icon('fold'),
      h('span', {}, l10n.t('Compact')),
    );
    this.element = h('details', { class: 'budget' }, h('summary', {}, this.meter, this.total), this.list);
    this.instructionsElement.hidden = true;
  }

  /** Shows the estimate of the next request. */
  set(budget: BudgetView): void {
    const limit = Math.max(1, budget.limitTokens);
    const share = budget.usedTokens / limit;
    // A part a host of another version does not send counts 0.
    const given: Partial<BudgetView['parts']> = budget.parts ?? { conversation: budget.usedTokens };
    const parts = Object.fromEntries(PART_ORDER.map((p) => [p, given[p] ?? 0])) as BudgetView['parts'];
    this.total.textContent = l10n.t('≈{0} / {1} tokens', formatTokens(budget.usedTokens), formatTokens(limit));
    const percent = Math.round(share * 100);
    this.meter.setAttribute('aria-valuemax', String(limit));
    this.meter.setAttribute('aria-valuenow', String(Math.min(budget.usedTokens, limit)));
    this.meter.setAttribute(
      'aria-valuetext',
      l10n.t(
        '{0} % of the context ({1} of {2} tokens)',
        percent,
        budget.usedTokens.toLocaleString(),
        limit.toLocaleString(),
      ),
    );
    const scale = Math.max(limit, budget.usedTokens);
    for (const part of PART_ORDER) {
      this.segments[part].style.width = `${(100 * parts[part]) / scale}%`;
    }
    this.list.replaceChildren(
      ...PART_ORDER.flatMap((part) => [
        h('dt', {}, partLabel(part)),
        h('dd', { 'data-part': part }, l10n.t('≈{0} tokens', parts[part].toLocaleString())),
      ]),
      h('dt', {}, l10n.t('Context of the model')),
      h('dd', { 'data-part': 'limit' }, l10n.t('{0} tokens', limit.toLocaleString())),
    );
    this.element.title =
      share > 1
        ? l10n.t('The conversation is longer than the model’s context: the oldest turns are left out when you send.')
        : l10n.t('Estimated size of the next request against the model’s context: open for the parts.');
    this.element.classList.toggle('over', share > 1);
    this.element.classList.toggle('warn', share >= GAUGE_WARN_SHARE);
    const over = share >= GAUGE_WARN_SHARE;
    if (over && !this.over) {
      this.announce(
        l10n.t(
          'The context is {0} % full: the oldest turns will be left out of what is sent. Compact the conversation to keep them as a summary.',
          percent,
        ),
      );
    }
    this.over = over;
    this.compactButton.hidden = !over || parts.conversation === 0;
    this.setInstructions(budget.instructions);
  }

  private setInstructions(view: InstructionsView | undefined): void {
    const files = view?.files ?? [];
    this.instructionsElement.hidden = files.length === 0 && !view?.notice;
    this.instructionsElement.replaceChildren(
      ...files.map((file, index) =>
        h(
          'button',
          {
            type: 'button',
            class: 'chip instructions-chip',
            title: view?.notice ?? l10n.t('The repository’s instructions, sent with each request: open the file'),
            onClick: () => this.post({ type: 'instructions/open', index }),
          },
          icon(view?.notice ? 'warning' : 'book'),
          h(
            'span',
            { class: 'chip-label' },
            l10n.t('Instructions: {0}, ≈{1} tokens', file.label, file.tokens.toLocaleString()),
          ),
        ),
      ),
      ...(files.length === 0 && view?.notice
        ? [h('span', { class: 'chip instructions-chip', role: 'note' }, icon('warning'), view.notice)]
        : []),
    );
  }
}
