import type { ChatMessage } from '../service/alphaClient';
import * as l10n from '@vscode/l10n';
import type { Citation } from '../service/normalize';
import { fitToContext, type ContextFit } from './contextBudget';
import { formatTokens } from '../../shared/tokens';
import type { ContextItem } from './conversation';
import { groundingText, type FactSource } from './grounding';
import { promptText } from './promptMessages';
import { contextTokensOf, modelLabel } from './modelLineup';

/** AXO's answer and sources to put into the last prompt, with the cached facts that go along. */
export interface Grounding {
  answer: string;
  sources: readonly Citation[];
  facts?: readonly FactSource[];
}

/** The last prompt as stored: its attachments (context items, oldest first) and what the user typed. */
export interface LastPrompt {
  content: string;
  context?: readonly ContextItem[];
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
 * does not fit, the oldest turns go first (as `fitToContext` does), then the last prompt's attachments other than
 * the newest (`lastPrompt`, oldest first), and the grounding is shortened last, since it is what the question
 * needs: AXO's answer halving until the request fits, then the cached facts left out. Every trim is in `notice`.
 */
export function fitGroundedToContext(
  messages: readonly ChatMessage[],
  grounding: Grounding,
  model: string,
  lastPrompt?: LastPrompt,
): GroundedFit {
  let answer = grounding.answer;
  let facts = grounding.facts ?? [];
  let sent = messages;
  const fitNow = () => fitToContext(withGrounding(sent, grounding, answer, facts), model);
  let fit = fitNow();
  // Then the last prompt's attachments other than the newest, oldest first.
  const attached = lastPrompt?.context ?? [];
  let kept = attached.length;
  while (fit.tooLarge && kept > 1 && lastPrompt && sent.at(-1)?.role === 'user') {
    kept--;
    const content = promptText({ content: lastPrompt.content, context: attached.slice(attached.length - kept) });
    sent = [...sent.slice(0, -1), { role: 'user', content }];
    fit = fitNow();
  }
  // The grounding last: AXO's answer halving, then the cached facts.
  let shortened = false;
  while (fit.tooLarge && (answer.length > 0 || facts.length > 0)) {
    if (answer.length > 0) {
      answer = answer.length > 40 ? `${answer.slice(0, Math.floor(answer.length / 2)).trimEnd()}…` : '';
    } else {
      facts = [];
    }
    shortened = true;
    fit = fitNow();
  }
  const left = attached.slice(0, attached.length - kept).map((item) => item.label);
  const notes = [
    fit.notice,
    left.length === 1 ? l10n.t('The older attachment {0} was left out to make room.', left[0]) : undefined,
    left.length > 1
      ? l10n.t('{0} older attachments were left out to make room: {1}.', left.length, left.join(', '))
      : undefined,
    shortened
      ? l10n.t(
          "AXO's answer was shortened to fit {0}'s {1}-token context.",
          modelLabel(model),
          formatTokens(contextTokensOf(model)),
        )
      : undefined,
  ].filter((n): n is string => n !== undefined);
  return { ...fit, shortened, notice: notes.length ? notes.join(' ') : undefined };
}
