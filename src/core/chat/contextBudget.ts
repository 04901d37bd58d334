import type { ChatMessage } from '../alphaClient';

/** Tokens every message costs beyond its text (role, separators), as chat models commonly count. */
const PER_MESSAGE_TOKENS = 4;

/**
 * Estimates the tokens of a text without the model's tokenizer (not published): about four ASCII characters per
 * token, and one token per other character (accents, CJK and emoji tokenise far worse than English). It errs
 * high, so a request that fits by the estimate fits in fact.
 */
export function estimateTokens(text: string): number {
  let ascii = 0;
  let other = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) {
      ascii++;
    } else if (code < 0xdc00 || code > 0xdfff) {
      // A low surrogate completes a character already counted by its high surrogate.
      other++;
    }
  }
  return Math.ceil(ascii / 4 + other);
}

/** The tokens of a whole request. */
export function estimateMessagesTokens(messages: readonly ChatMessage[]): number {
  return messages.reduce((sum, m) => sum + PER_MESSAGE_TOKENS + estimateTokens(m.content), 0);
}

/** The outcome of fitting a conversation into a model's context. */
export interface BudgetFit {
  /** What to send: the newest turns that fit, always ending with the last prompt. */
  messages: ChatMessage[];
  /** How many messages were left out, oldest first. */
  dropped: number;
  /** The estimate of what is sent. */
  tokens: number;
  /** Even the last prompt alone is too large. */
  tooLarge: boolean;
}

/**
 * Drops the oldest turns until the request fits `limitTokens` minus `reserveTokens` (room for the reply).
 * A turn is dropped whole (a prompt with the reply that follows it), so the model never sees a reply without its
 * question. System messages at the start are kept. The last message is never dropped.
 */
export function fitToBudget(messages: readonly ChatMessage[], limitTokens: number, reserveTokens: number): BudgetFit {
  const budget = Math.max(0, limitTokens - reserveTokens);
  const system = messages.filter(
    (m, i) => m.role === 'system' && messages.slice(0, i).every((p) => p.role === 'system'),
  );
  const rest = messages.slice(system.length);
  const costs = rest.map((m) => PER_MESSAGE_TOKENS + estimateTokens(m.content));
  let total = estimateMessagesTokens(system) + costs.reduce((a, b) => a + b, 0);
  let start = 0;
  while (total > budget && start < rest.length - 1) {
    // Drop one whole turn: the message at `start` and every non-user message after it.
    do {
      total -= costs[start];
      start++;
    } while (start < rest.length - 1 && rest[start].role !== 'user');
  }
  return {
    messages: [...system, ...rest.slice(start)],
    dropped: start,
    tokens: total,
    tooLarge: total > budget,
  };
}

/** "200K" → 200000; "32K" → 32000; "1M" → 1000000; anything else → undefined. */
export function parseContextSize(text: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)\s*([KM])?$/i.exec(text.trim());
  if (!match) {
    return undefined;
  }
  const unit = match[2]?.toUpperCase() === 'M' ? 1_000_000 : match[2] ? 1_000 : 1;
  return Math.round(Number(match[1]) * unit);
}

/** 12345 → "12K", 950 → "950", 1500000 → "1.5M". */
export function formatTokens(tokens: number): string {
  if (tokens >= 1_000_000) {
    return `${(tokens / 1_000_000).toFixed(1).replace(/\.0$/, '')}M`;
  }
  if (tokens >= 1_000) {
    return `${Math.round(tokens / 1_000)}K`;
  }
  return String(tokens);
}
