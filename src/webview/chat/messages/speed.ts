import * as l10n from '@vscode/l10n';
import type { MessageView, SpeedView } from '../../../protocol/chatProtocol';
import { median, rateParts, waitParts } from '../../../shared/speed';
import { locale } from '../../shared/l10n';

function number(value: number, decimals: 0 | 1): string {
  return new Intl.NumberFormat(locale(), { minimumFractionDigits: decimals, maximumFractionDigits: decimals }).format(
    value,
  );
}

/** "first token 0.8 s" (or "first token 40 ms"). */
function firstTokenText(ms: number): string {
  const wait = waitParts(ms);
  const value = number(wait.value, wait.decimals);
  return wait.unit === 'ms' ? l10n.t('first token {0} ms', value) : l10n.t('first token {0} s', value);
}

/** "42 tokens/s", "≈ 42 tokens/s" when the tokens counted are the estimate. */
function rateText(tokensPerSecond: number, estimated: boolean): string {
  const rate = rateParts(tokensPerSecond);
  const value = number(rate.value, rate.decimals);
  return estimated ? l10n.t('≈ {0} tokens/s', value) : l10n.t('{0} tokens/s', value);
}

/**
 * A reply's speed as its footer shows it beside its tokens and cost: "first token 0.8 s · 42 tokens/s". The rate is
 * marked "≈" when it counts estimated tokens (the tokens beside it then say "(estimated)").
 */
export function speedText(speed: SpeedView): string {
  const first = firstTokenText(speed.firstTokenMs);
  return speed.tokensPerSecond === undefined ? first : `${first} · ${rateText(speed.tokensPerSecond, speed.estimated)}`;
}

/**
 * The conversation's medians, beside its running total: "median first token 0.8 s · 42 tokens/s", over the replies
 * of the path shown that have a speed (each median over the replies that have that figure). Empty when none has.
 */
export function medianSpeedText(messages: readonly MessageView[]): string {
  const speeds = messages.flatMap((m) => (m.speed ? [m.speed] : []));
  const first = median(speeds.map((s) => s.firstTokenMs));
  if (first === undefined) {
    return '';
  }
  const rated = speeds.filter((s) => s.tokensPerSecond !== undefined);
  const rate = median(rated.map((s) => s.tokensPerSecond as number));
  const head = l10n.t('median {0}', firstTokenText(first));
  return rate === undefined
    ? head
    : `${head} · ${rateText(
        rate,
        rated.some((s) => s.estimated),
      )}`;
}
