import type { ChatMessage } from '../../service/alphaClient';
import type { ContextFit } from './contextBudget';
import { buildRequest, type Grounding, type LastPrompt } from './requestBuilder';

export type { Grounding, LastPrompt } from './requestBuilder';

/** A fit with grounding: `shortened` says AXO's answer was cut to make room. */
export interface GroundedFit extends ContextFit {
  shortened: boolean;
}

/**
 * Fits a grounded request, given as messages ending with the last prompt, to `model`'s context in the one order
 * `buildRequest` keeps (the oldest turns, then the attachments of `lastPrompt` other than the newest, the grounding
 * last). `lastPrompt` is the last prompt as stored (its text and attachments apart), when there is one.
 */
export function fitGroundedToContext(
  messages: readonly ChatMessage[],
  grounding: Grounding,
  model: string,
  lastPrompt?: LastPrompt,
): GroundedFit {
  const last = messages.at(-1);
  const built = buildRequest({
    model,
    earlier: messages.slice(0, -1),
    prompt: lastPrompt ?? { content: last?.content ?? '' },
    grounding: last?.role === 'user' ? grounding : undefined,
  });
  return {
    messages: built.messages,
    dropped: built.trim?.messages ?? 0,
    tokens: built.tokens,
    tooLarge: built.error !== undefined,
    notice: built.notice,
    error: built.error,
    shortened: built.trim?.grounding === true,
  };
}
