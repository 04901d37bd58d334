/**
 * Token usage of one reply: what the service reports, when it does, else this extension's estimate. The spec
 * publishes neither a usage object nor a price; services that report usage use one of two shapes, both read here.
 */

/** Tokens of one reply: the request sent (`input`) and the reply (`output`). */
export interface TokenUsage {
  input: number;
  output: number;
}

/** Usage kept with a reply: `reported` when the service said it, absent when it is the estimate. */
export interface ReplyUsage extends TokenUsage {
  reported?: boolean;
}

/**
 * The usage a service reports in a reply or a stream's event: `usage` with `prompt_tokens` / `completion_tokens`,
 * or with `input_tokens` / `output_tokens`. Undefined when the value has none, or not as whole non-negative numbers.
 */
export function reportedUsage(value: unknown): TokenUsage | undefined {
  const usage = isRecord(value) ? value.usage : undefined;
  if (!isRecord(usage)) {
    return undefined;
  }
  const input = count(usage.prompt_tokens) ?? count(usage.input_tokens);
  const output = count(usage.completion_tokens) ?? count(usage.output_tokens);
  return input === undefined || output === undefined ? undefined : { input, output };
}

/** A reply usage read back from a file: undefined unless it has whole non-negative token counts. */
export function parseUsage(value: unknown): ReplyUsage | undefined {
  if (!isRecord(value)) {
    return undefined;
  }
  const input = count(value.input);
  const output = count(value.output);
  if (input === undefined || output === undefined) {
    return undefined;
  }
  return value.reported === true ? { input, output, reported: true } : { input, output };
}

/** The cost of `usage` in INR at prices per million tokens; undefined unless both prices are set. */
export function costInr(usage: TokenUsage, prices: { input?: number; output?: number }): number | undefined {
  if (prices.input === undefined || prices.output === undefined) {
    return undefined;
  }
  return (usage.input * prices.input + usage.output * prices.output) / 1_000_000;
}

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
