/**
 * What a reply and a conversation cost, as text: tokens, requests and rupees in the page's language. Free of the DOM,
 * so the unit tests run it in Node; usage.ts draws it.
 */
import * as l10n from '@vscode/l10n';
import type { MessageView, UsageView } from '../../../protocol/chatProtocol';
import { locale } from '../../shared/l10n';

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

/**
 * "≈ 1,234 tokens in, 56 out · ≈ ₹0.0123", or without "≈" and with "(reported by the service)" when reported. A reply
 * that took more than one request (each tool call's round trip is another, billed) says how many beside its tokens:
 * "… 56 out (estimated) · 3 requests · ≈ ₹0.0123".
 */
export function usageText(usage: UsageView, requests?: number): string {
  const reported = usage.reported
    ? l10n.t('{0} tokens in, {1} out (reported by the service)', tokens(usage.input), tokens(usage.output))
    : l10n.t('≈ {0} tokens in, {1} out (estimated)', tokens(usage.input), tokens(usage.output));
  const counts =
    requests !== undefined && Number.isSafeInteger(requests) && requests > 1
      ? `${reported} · ${l10n.t('{0} requests', tokens(requests))}`
      : reported;
  if (usage.costInr === undefined) {
    return counts;
  }
  const cost = usage.reported ? rupees(usage.costInr) : `≈ ${rupees(usage.costInr)}`;
  return `${counts} · ${cost}`;
}

/**
 * The conversation's running total ("≈ 1,009 tokens · ≈ ₹0.479"): every reply's tokens (the request of each turn
 * counts again, as it is sent again) and, when every reply has a cost, their sum. `others` is the usage of the replies
 * off the path shown (other versions): they were asked for and billed too, so they count, and the total then says
 * "all versions". `summaries` is the usage of the summaries compactions asked for, counted alike ("summaries
 * included"). Empty when no reply has usage yet.
 */
export function totalText(
  messages: readonly MessageView[],
  others?: readonly UsageView[],
  summaries?: readonly UsageView[],
): string {
  let input = 0;
  let output = 0;
  let cost = 0;
  let costed = true;
  let counted = 0;
  let estimated = false;
  const usages = messages.flatMap((m) => (m.usage ? [m.usage] : []));
  for (const usage of [...usages, ...(others ?? []), ...(summaries ?? [])]) {
    counted++;
    input += usage.input;
    output += usage.output;
    estimated ||= !usage.reported;
    if (usage.costInr === undefined) {
      costed = false;
    } else {
      cost += usage.costInr;
    }
  }
  if (counted === 0) {
    return '';
  }
  const sum = tokens(input + output);
  const counts = estimated ? l10n.t('≈ {0} tokens', sum) : l10n.t('{0} tokens', sum);
  const total = costed ? `${counts} · ${estimated ? '≈ ' : ''}${rupees(cost)}` : counts;
  if (others && summaries?.length) {
    return l10n.t('{0} (all versions and summaries)', total);
  }
  if (summaries?.length) {
    return l10n.t('{0} (summaries included)', total);
  }
  return others ? l10n.t('{0} (all versions)', total) : total;
}
