import * as l10n from '@vscode/l10n';
import type { MessageView, SpeedView, UsageView } from '../../../protocol/chatProtocol';
import { h } from '../../shared/dom';
import './usage.css';
import { medianSpeedText, speedText } from './speed';
import { totalText, usageText } from './usageText';

/** The running total beside the conversation's title; its tooltip says what it counts. */
export class ConversationTotal {
  readonly element = h('p', { class: 'conversation-total' });
  private others: readonly UsageView[] | undefined;
  private summaries: readonly UsageView[] | undefined;

  /**
   * Shows the total of a state: `messages` (the path shown), `others` (the usage of the other versions) and
   * `summaries` (the usage of the compactions' summaries).
   */
  show(
    messages: readonly MessageView[],
    others: readonly UsageView[] | undefined,
    summaries?: readonly UsageView[],
  ): void {
    this.others = others;
    this.summaries = summaries;
    this.update(messages);
  }

  /** A state whose older messages have not come yet: its line stays empty until `update` is given them all. */
  hold(others: readonly UsageView[] | undefined, summaries?: readonly UsageView[]): void {
    this.others = others;
    this.summaries = summaries;
    this.element.textContent = '';
    this.element.title = '';
  }

  /** Shows the total again after a reply ended: the other versions stay as the last state gave them. */
  update(messages: readonly MessageView[]): void {
    const text = [totalText(messages, this.others, this.summaries), medianSpeedText(messages)]
      .filter(Boolean)
      .join(' · ');
    this.element.textContent = text;
    this.element.title = text ? l10n.t('This conversation so far: {0}', text) : '';
  }
}

/**
 * Shows (or replaces) a reply's footer line under it: its tokens, requests and cost, then its speed ("first token
 * 0.8 s · 42 tokens/s") in the same line, so a screen reader reads them together; nothing for a reply with neither.
 * Drawn when the reply ends, never per delta.
 */
export function showUsage(
  article: HTMLElement,
  usage: UsageView | undefined,
  speed?: SpeedView,
  requests?: number,
): void {
  article.querySelector(':scope > .usage-line')?.remove();
  if (usage || speed) {
    const speedPart = speed && h('span', { class: 'speed' }, `${usage ? ' · ' : ''}${speedText(speed)}`);
    article.append(h('p', { class: 'usage-line' }, usage ? usageText(usage, requests) : undefined, speedPart));
  }
}
