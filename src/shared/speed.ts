/**
 * The numbers of a reply's speed as people read them, for the chat's footers (localized there) and the Markdown
 * export (in English there): "first token 0.8 s · 42 tokens/s".
 */

/** A wait as shown: whole milliseconds under a tenth of a second, else seconds (one decimal under ten). */
export function waitParts(ms: number): { value: number; unit: 'ms' | 's'; decimals: 0 | 1 } {
  if (ms < 100) {
    return { value: Math.round(ms), unit: 'ms', decimals: 0 };
  }
  const seconds = ms / 1000;
  return seconds < 10
    ? { value: round(seconds, 1), unit: 's', decimals: 1 }
    : { value: round(seconds, 0), unit: 's', decimals: 0 };
}

/** A rate as shown: one decimal under ten tokens a second ("4.5"), whole above ("42"). */
export function rateParts(tokensPerSecond: number): { value: number; decimals: 0 | 1 } {
  return tokensPerSecond < 10
    ? { value: round(tokensPerSecond, 1), decimals: 1 }
    : { value: round(tokensPerSecond, 0), decimals: 0 };
}

/** The median of `values` (the mean of the middle two for an even count); undefined for none. */
export function median(values: readonly number[]): number | undefined {
  if (values.length === 0) {
    return undefined;
  }
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The speed of a reply in English: "first token 0.8 s · 42 tokens/s", "≈" before an estimated rate. */
export function speedEnglish(speed: { firstTokenMs: number; tokensPerSecond?: number; estimated: boolean }): string {
  const wait = waitParts(speed.firstTokenMs);
  const first = `first token ${wait.value.toFixed(wait.decimals)} ${wait.unit}`;
  if (speed.tokensPerSecond === undefined) {
    return first;
  }
  const rate = rateParts(speed.tokensPerSecond);
  return `${first} · ${speed.estimated ? '≈ ' : ''}${rate.value.toFixed(rate.decimals)} tokens/s`;
}

function round(value: number, decimals: 0 | 1): number {
  const scale = decimals ? 10 : 1;
  return Math.round(value * scale) / scale;
}
