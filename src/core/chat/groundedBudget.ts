import type { ChatMessage } from '../alphaClient';
import { l10n } from '../l10n';
import type { Citation } from '../normalize';
import { fitToContext, formatTokens, type ContextFit } from './contextBudget';
import { groundingText, type FactSource } from './grounding';
import { contextTokensOf, modelLabel } from './modelLineup';

/** AXO's answer and sources to put into the last prompt, with the cached facts that go along. */
export interface Grounding {
  answer: string;
  sources: readonly Citation[];
  facts?: readonly FactSource[];
}

/** A fit with grounding: `shortened` says AXO's answer was cut to make room. */
export interface GroundedFit extends ContextFit {
  shortened: boolean;
}

/** The messages with the grounding block put before the text of the last prompt, as context blocks are. */
function withGrounding(
  messages: readonly ChatMessage[],
  grounding: Grounding,
  answer: string,
  facts: readonly FactSource[],
): ChatMessage[] {
  const last = messages.at(-1);
  if (!last || last.role !== 'user') {
    return [...messages];
  }
  const block = groundingText(answer, grounding.sources, facts);
  return [...messages.slice(0, -1), { role: 'user', content: `${block}\n\n${last.content}` }];
}

/**
 * Fits a grounded request to `model`'s context. The grounding counts against the budget like any text; when it
 * does not fit, the oldest turns go first (as `fitToContext` does), and the grounding is shortened last, since it
 * is what the question needs: AXO's answer halving until the request fits, then the cached facts left out. Every
 * trim is in `notice`.
 */
export function fitGroundedToContext(
  messages: readonly ChatMessage[],
  grounding: Grounding,
  model: string,
): GroundedFit {
  let answer = grounding.answer;
  let facts = grounding.facts ?? [];
  let fit = fitToContext(withGrounding(messages, grounding, answer, facts), model);
  let shortened = false;
  while (fit.tooLarge && (answer.length > 0 || facts.length > 0)) {
    if (answer.length > 0) {
      answer = answer.length > 40 ? `${answer.slice(0, Math.floor(answer.length / 2)).trimEnd()}…` : '';
    } else {
      facts = [];
    }
    shortened = true;
    fit = fitToContext(withGrounding(messages, grounding, answer, facts), model);
  }
  if (!shortened) {
    return { ...fit, shortened };
  }
  const note = l10n.t(
    "AXO's answer was shortened to fit {0}'s {1}-token context.",
    modelLabel(model),
    formatTokens(contextTokensOf(model)),
  );
  return { ...fit, shortened, notice: fit.notice ? `${fit.notice} ${note}` : note };
}
