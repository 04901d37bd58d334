import * as l10n from '@vscode/l10n';
import type { ChatMessage } from '../../service/alphaClient';
import type { ServiceError } from '../../service/errors';
import type { Citation } from '../../service/normalize';
import { estimateTokens } from '../../service/tokenEstimate';
import { cutToTokens } from './attachments';
import {
  droppedNotice,
  estimateMessagesTokens,
  fitToBudget,
  type BudgetFit,
  replyReserve,
  tooLargeError,
} from './contextBudget';
import type { ContextItem, StoredMessage, TrimRecord } from '../conversation/conversation';
import { groundingText, type FactSource } from './grounding';
import { contextBlock, requestMessages } from './promptMessages';
import { contextTokensOf, modelLabel } from './modelLineup';
import { formatTokens } from '../../../shared/tokens';

/**
 * The one place a request is put together and fitted to the model's context, for every path (the chat, grounded or
 * not, and `@alpha`). The conversation keeps everything whole; only the request is trimmed, in this order:
 * 1. the oldest turns (a prompt with its reply, whole);
 * 2. the last prompt's attachments other than the newest, oldest first;
 * 3. the repository's instructions (instructions.ts), the request's first message;
 * 4. the newest attachment, cut at a line end to what is left;
 * 5. the grounding text last (AXO's answer halving, then its cached facts), since it is what the question needs.
 * What was trimmed comes back as a record (kept with the reply) and a sentence (shown with it).
 */

/** AXO's answer and sources to put into the last prompt, with the cached facts that go along. */
export interface Grounding {
  answer: string;
  sources: readonly Citation[];
  facts?: readonly FactSource[];
}

/** The last prompt: what the user typed and its attachments (oldest first). */
export interface LastPrompt {
  content: string;
  context?: readonly ContextItem[];
}

/** What a request is made of. */
export interface RequestParts {
  model: string;
  /** The messages before the last prompt, as sent (oldest first). */
  earlier: readonly ChatMessage[];
  prompt: LastPrompt;
  /** The repository's instructions: the request's first message (see instructions.ts). */
  instructions?: { message: string };
  grounding?: Grounding;
}

/** The estimate of each part of a request, in tokens (they add up to about `tokens`). */
export interface RequestTokens {
  /** The earlier turns sent, and the text the user typed. */
  conversation: number;
  attachments: number;
  instructions: number;
  grounding: number;
}

/** A request ready to send (unless `error`), with what fitting it trimmed. */
export interface BuiltRequest {
  messages: ChatMessage[];
  /** The estimate of the whole request. */
  tokens: number;
  parts: RequestTokens;
  /** The model's context. */
  limit: number;
  /** What was trimmed (undefined when nothing was). */
  trim: TrimRecord | undefined;
  /** The trims in a sentence or a few (undefined when nothing was trimmed). */
  notice: string | undefined;
  /** Even with every trim the request does not fit. */
  error: ServiceError | undefined;
}

/** Marks an attachment's text where a request cut it. */
const TRIM_MARK = '\n… (trimmed to fit the context)\n';

/**
 * The request for a stored path (ending with its last prompt; the reply being written is left out by the caller),
 * after `summary`, the message standing for the turns a compaction summarised (see compaction.ts).
 */
export function requestFor(
  messages: readonly StoredMessage[],
  model: string,
  extra: Pick<RequestParts, 'instructions' | 'grounding'> & { summary?: ChatMessage } = {},
): BuiltRequest {
  const { summary, ...rest } = extra;
  const first = summary ? [summary] : [];
  const last = messages.at(-1);
  if (last?.role === 'user') {
    return buildRequest({
      model,
      earlier: [...first, ...requestMessages(messages.slice(0, -1))],
      prompt: last,
      ...rest,
    });
  }
  // No prompt last (never so for a reply being started): the messages as they are, the last one kept.
  const sent = [...first, ...requestMessages(messages)];
  const final = sent.pop();
  return buildRequest({ model, earlier: sent, prompt: { content: final?.content ?? '' }, ...rest });
}

/** What a request's last prompt carries while it is being trimmed. */
interface Draft {
  attachments: ContextItem[];
  answer: string;
  facts: readonly FactSource[];
}

/** Puts a request together from its parts and fits it to the model's context, in the order above. */
export function buildRequest(parts: RequestParts): BuiltRequest {
  const { model, earlier, prompt, grounding } = parts;
  const limit = contextTokensOf(model);
  const reserve = replyReserve(limit);
  const draft: Draft = {
    attachments: [...(prompt.context ?? [])],
    answer: grounding?.answer ?? '',
    facts: grounding?.facts ?? [],
  };
  const last = (): ChatMessage => ({
    role: 'user',
    content: lastPromptText(
      prompt.content,
      draft.attachments,
      grounding && { ...grounding, answer: draft.answer, facts: draft.facts },
    ),
  });
  const instructions = parts.instructions?.message || undefined;
  let instructed = instructions !== undefined ? estimateMessagesTokens([{ role: 'user', content: instructions }]) : 0;
  const fitNow = () => fitToBudget([...earlier, last()], limit, reserve + instructed);
  let fit = fitNow();
  const left: string[] = [];
  while (fit.tooLarge && draft.attachments.length > 1) {
    left.push((draft.attachments.shift() as ContextItem).label);
    fit = fitNow();
  }
  const instructionsLeftOut = fit.tooLarge && instructed > 0;
  if (instructionsLeftOut) {
    instructed = 0;
    fit = fitNow();
  }
  const cut = cutNewest(draft, fit, fitNow, limit - reserve);
  fit = cut.fit;
  const shortened = shortenGrounding(draft, cut.fit, fitNow);
  fit = shortened.fit;
  const trim = trimRecord(limit, fit.dropped, left, instructionsLeftOut, cut.label, shortened.done);
  const attached = draft.attachments.reduce((sum, a) => sum + estimateTokens(contextBlock(a)), 0);
  const grounded = grounding ? estimateTokens(groundingText(draft.answer, grounding.sources, draft.facts)) : 0;
  const first: ChatMessage[] = instructed > 0 && instructions ? [{ role: 'user', content: instructions }] : [];
  return {
    messages: [...first, ...fit.messages],
    tokens: fit.tokens + instructed,
    parts: {
      conversation: Math.max(0, fit.tokens - attached - grounded),
      attachments: attached,
      instructions: instructed,
      grounding: grounded,
    },
    limit,
    trim,
    notice: trim && trimNotice(trim, model),
    error: fit.tooLarge ? tooLargeError(fit.tokens, model) : undefined,
  };
}

/** Cuts the one attachment left, at a line end, to what `budget` leaves for it (its label says so). */
function cutNewest(
  draft: Draft,
  fit: BudgetFit,
  refit: () => BudgetFit,
  budget: number,
): { fit: BudgetFit; label?: string } {
  let label: string | undefined;
  // The estimate of a cut text is not exactly the whole's less what was cut: a second look settles it.
  for (let tries = 0; fit.tooLarge && draft.attachments.length === 1 && tries < 3; tries++) {
    const item = draft.attachments[0];
    const room = Math.max(0, estimateTokens(item.content) - (fit.tokens - budget) - estimateTokens(TRIM_MARK) - 1);
    const content = cutToTokens(label === undefined ? item.content : item.content.slice(0, -TRIM_MARK.length), room);
    draft.attachments[0] = {
      ...item,
      content: content + TRIM_MARK,
      label: l10n.t('{0} (trimmed)', label ?? item.label),
    };
    label ??= item.label;
    fit = refit();
  }
  return { fit, label };
}

/** Shortens the grounding last: AXO's answer halving until the request fits, then the cached facts left out. */
function shortenGrounding(draft: Draft, fit: BudgetFit, refit: () => BudgetFit): { fit: BudgetFit; done: boolean } {
  let done = false;
  while (fit.tooLarge && (draft.answer.length > 0 || draft.facts.length > 0)) {
    if (draft.answer.length > 0) {
      const answer = draft.answer;
      draft.answer = answer.length > 40 ? `${answer.slice(0, Math.floor(answer.length / 2)).trimEnd()}…` : '';
    } else {
      draft.facts = [];
    }
    done = true;
    fit = refit();
  }
  return { fit, done };
}

/** The text of the last prompt: the grounding block, the attachments' blocks, then what the user typed. */
function lastPromptText(content: string, attachments: readonly ContextItem[], grounding?: Grounding): string {
  const blocks = attachments.map(contextBlock);
  const ground = grounding ? [groundingText(grounding.answer, grounding.sources, grounding.facts ?? [])] : [];
  return [...ground, ...blocks, content].filter((p) => p.length > 0).join('\n\n');
}

function trimRecord(
  limit: number,
  dropped: number,
  attachments: string[],
  instructions: boolean,
  cut: string | undefined,
  grounding: boolean,
): TrimRecord | undefined {
  if (dropped === 0 && attachments.length === 0 && !instructions && cut === undefined && !grounding) {
    return undefined;
  }
  return {
    limit,
    ...(dropped ? { messages: dropped } : {}),
    ...(attachments.length ? { attachments } : {}),
    ...(instructions ? { instructions: true } : {}),
    ...(cut !== undefined ? { cut } : {}),
    ...(grounding ? { grounding: true } : {}),
  };
}

/** The sentences that tell a trim record, in the order the trims are made. */
export function trimNotice(trim: TrimRecord, model: string): string | undefined {
  const label = modelLabel(model);
  const context = formatTokens(trim.limit);
  const left = trim.attachments ?? [];
  const notes = [
    droppedNotice(trim.messages ?? 0, model),
    left.length === 1 ? l10n.t('The older attachment {0} was left out to make room.', left[0]) : undefined,
    left.length > 1
      ? l10n.t('{0} older attachments were left out to make room: {1}.', left.length, left.join(', '))
      : undefined,
    trim.instructions ? l10n.t("The repository's instructions were left out to make room.") : undefined,
    trim.cut !== undefined
      ? l10n.t(
          "{0} was trimmed to fit {1}'s {2}-token context (the conversation keeps it whole).",
          trim.cut,
          label,
          context,
        )
      : undefined,
    trim.grounding ? l10n.t("AXO's answer was shortened to fit {0}'s {1}-token context.", label, context) : undefined,
  ].filter((n): n is string => n !== undefined);
  return notes.length ? notes.join(' ') : undefined;
}
