import * as l10n from '@vscode/l10n';
import type { MessageView, UsageView } from '../../protocol/chatProtocol';
import { locale } from '../shared/l10n';
import { h } from '../shared/dom';

/** Whole numbers as the page's language writes them ("12,345"). */
function tokens(n: number): string {
  return new Intl.NumberFormat(locale()).format(n);
}

/** An amount in INR: four decimals under one rupee (a reply often costs paise), two above. */
export function rupees(amount: number): string {
  const digits = amount < 1 ? 4 : 2;
  return new Intl.NumberFormat(locale(), {
    style: 'currency',
    currency: 'INR',
    minimumFractionDigits: 2,
    maximumFractionDigits: digits,
  }).format(amount);
}

/** "≈ 1,234 tokens in, 56 out · ≈ ₹0.0123", or without "≈" and with "(reported by the service)" when reported. */
export function usageText(usage: UsageView): string {
  const counts = usage.reported
    ? l10n.t('{0} tokens in, {1} out (reported by the service)', tokens(usage.input), tokens(usage.output))
    : l10n.t('≈ {0} tokens in, {1} out (estimated)', tokens(usage.input), tokens(usage.output));
  if (usage.costInr === undefined) {
    return counts;
  }
  const cost = usage.reported ? rupees(usage.costInr) : `≈ ${rupees(usage.costInr)}`;
  return `${counts} · ${cost}`;
}

/**
 * The conversation's running total ("≈ 1,009 tokens · ≈ ₹0.479"): every reply's tokens (the request of each turn counts again, as it is sent
 * again) and, when every reply has a cost, their sum. Empty when no reply has usage yet.
 */
export function totalText(messages: readonly MessageView[]): string {
  let input = 0;
  let output = 0;
  let cost = 0;
  let costed = true;
  let counted = 0;
  let estimated = false;
  for (const m of messages) {
    if (!m.usage) {
      continue;
    }
    counted++;
    input += m.usage.input;
    output += m.usage.output;
    estimated ||= !m.usage.reported;
    if (m.usage.costInr === undefined) {
      costed = false;
    } else {
      cost += m.usage.costInr;
    }
  }
  if (counted === 0) {
    return '';
  }
  const sum = tokens(input + output);
  const total = estimated ? l10n.t('≈ {0} tokens', sum) : l10n.t('{0} tokens', sum);
  return costed ? `${total} · ${estimated ? '≈ ' : ''}${rupees(cost)}` : total;
}

/** Shows (or replaces) a reply's usage line under it; nothing for a reply without usage. */
export function showUsage(article: HTMLElement, usage: UsageView | undefined): void {
  article.querySelector(':scope > .usage-line')?.remove();
  if (usage) {
    article.append(h('p', { class: 'usage-line' }, usageText(usage)));
  }
}
