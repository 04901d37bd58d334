import type { ChatMessage } from '../../service/alphaClient';
import { ServiceError } from '../../service/errors';
import * as l10n from '@vscode/l10n';
import { estimateTokens } from '../../service/tokenEstimate';
import { contextTokensOf, modelLabel } from './modelLineup';
import { formatTokens } from '../../../shared/tokens';

/** Tokens every message costs beyond its text (role, separators), as chat models commonly count. */
const PER_MESSAGE_TOKENS = 4;

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

/** The outcome of fitting a request to a model's context, with what to tell the user about it. */
export interface ContextFit extends BudgetFit {
  /** Says which messages were left out (undefined when none were). */
  notice: string | undefined;
  /** Says that even the last prompt alone does not fit (undefined when it fits). */
  error: ServiceError | undefined;
}

/**
 * Fits a request to `model`'s context, keeping room for the reply (an eighth of the context, at most 8K tokens):
 * the one rule the webview chat and `@alpha` both follow.
 */
export function fitToContext(messages: readonly ChatMessage[], model: string): ContextFit {
  const limit = contextTokensOf(model);
  const fit = fitToBudget(messages, limit, replyReserve(limit));
  return {
    ...fit,
    notice: droppedNotice(fit.dropped, model),
    error: fit.tooLarge ? tooLargeError(fit.tokens, model) : undefined,
  };
}

/** Says how many of the oldest messages were left out to fit `model`'s context (undefined when none were). */
export function droppedNotice(dropped: number, model: string): string | undefined {
  const label = modelLabel(model);
  const context = formatTokens(contextTokensOf(model));
  return dropped === 0
    ? undefined
    : dropped === 1
      ? l10n.t("The oldest message was left out to fit {0}'s {1}-token context.", label, context)
      : l10n.t("The {0} oldest messages were left out to fit {1}'s {2}-token context.", dropped, label, context);
}

/** The error of a request that does not fit `model`'s context even with every trim made (about `tokens`). */
export function tooLargeError(tokens: number, model: string): ServiceError {
  return new ServiceError(
    'tooLarge',
    l10n.t(
      "This message is too long for {0}'s {1}-token context (about {2} tokens). Shorten it or remove some context.",
      modelLabel(model),
      formatTokens(contextTokensOf(model)),
      formatTokens(tokens),
    ),
  );
}

/** Room kept for the reply in `limit` tokens of context: an eighth of it, at most 8K tokens. */
export function replyReserve(limit: number): number {
  return Math.min(8192, limit / 8);
}
