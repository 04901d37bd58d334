import * as vscode from 'vscode';
import { activeCompaction } from '../../core/chat/conversation/compaction';
import type { Budget } from '../../core/chat/runs/chatStateTypes';
import type { Instructions } from '../../core/chat/request/instructions';
import type { Conversation, ContextItem, StoredError, StoredMessage } from '../../core/chat/conversation/conversation';
import { branchPlaces, type BranchPlace } from '../../core/chat/conversation/branches';
import type { ConversationSummary } from '../../core/chat/store/conversationSummary';
import { CHAT_LINEUP, isSelectableModel } from '../../core/chat/request/modelLineup';
import { estimateTokens } from '../../core/service/tokenEstimate';
import { sourceTargets, type KnownArticleUrls, type SourceTarget } from '../../core/chat/request/citations';
import { cleanTitle } from '../../core/chat/request/grounding';
import type { Citation } from '../../core/service/normalize';
import { costInr, type ReplyUsage } from '../../core/service/usage';
import { replySpeed } from '../../core/chat/runs/replyTiming';
import { ACTION_LABELS } from '../../host/errorActions';
import type { QueueEntry } from '../../core/chat/conversation/queuedPrompts';
import type {
  BudgetView,
  ChatErrorAction,
  ChatStateView,
  ChatErrorView,
  CompactionView,
  ContextChipView,
  ConversationSummaryView,
  HistoryScope,
  HostToWebview,
  MessageView,
  ModelView,
  QueueView,
  SourceView,
  StepView,
  ToolAccessView,
  UsageView,
} from '../../protocol/chatProtocol';
import type { ToolStep } from '../../core/chat/tools/chatTool';
import { sourceKey } from '../../core/chat/tools/toolLoop';
import { newestStart } from './olderMessages';

/**
 * What a page is drawn from, read in one go: the conversation shown, the list, and what the window knows beside
 * them. The host's stored data stays here; only `pageData` of it goes to the page.
 */
export interface PageSource {
  conversation: Conversation;
  /** The conversation list, newest first. */
  summaries: readonly ConversationSummary[];
  /** This window's workspace (see `Conversation.workspace`); undefined in a window without one. */
  workspace?: string;
  /** The model id in `alphaAxo.chat.model`. */
  model: string;
  /** Context items waiting for the next prompt. */
  pending: readonly ContextItem[];
  streaming?: { requestId: number; messageId: string };
  budget: Budget;
  instructions: Instructions | undefined;
  hasSelection: boolean;
  groundWithAxo: boolean;
  /** What ALPHA may use in the conversation shown; absent where tool calling is off (no control is shown). */
  toolAccess?: ToolAccessView;
  historyScope?: HistoryScope;
  queue: QueueView;
  articles: ArticlePlaces;
  prices: Prices;
  /**
   * Holds a long conversation's older messages for the page to ask for (HeldOlderMessages), their views made then;
   * the state carries the newest. Absent: the state carries every message.
   */
  holdOlder?: (count: number, views: () => MessageView[]) => ChatStateView['older'];
}

/** The stored data as the page shows it: the whole `chat/state` a page is drawn from. */
export function pageData(source: PageSource): ChatStateView {
  const { conversation, prices } = source;
  const { messages } = conversation;
  const from = source.holdOlder ? newestStart(messages) : 0;
  const older = messages.slice(0, from);
  return {
    conversationId: conversation.id,
    title: conversation.title,
    messages: messageViews(conversation, source.articles, prices, messages.slice(from)),
    ...(from > 0
      ? { older: source.holdOlder?.(from, () => messageViews(conversation, source.articles, prices, older)) }
      : {}),
    conversations: source.summaries.map((s) => summaryView(s, source.workspace)),
    models: modelViews(source.model),
    model: source.model,
    pendingContext: source.pending.map(chipView),
    streaming: source.streaming,
    budget: budgetView(source.budget, source.instructions),
    hasSelection: source.hasSelection,
    groundWithAxo: source.groundWithAxo,
    ...(source.toolAccess ? { toolAccess: source.toolAccess } : {}),
    historyScope: source.historyScope,
    otherVersions: otherVersionsUsage(conversation, prices),
    summaries: summariesUsage(conversation, prices),
    queue: source.queue,
    ...compactionView(conversation),
  };
}

/** What the gauge is drawn from: the estimate of the next request and the instructions it sends. */
export interface GaugeSource {
  budget: Budget;
  instructions: Instructions | undefined;
}

/** `chat/started`: the prompt and the reply that streams next, with the gauge and the list, which now hold them. */
export function startedMessage(
  requestId: number,
  user: StoredMessage,
  reply: StoredMessage,
  source: GaugeSource & { summaries: readonly ConversationSummary[]; workspace?: string; articles: ArticlePlaces },
): HostToWebview {
  return {
    type: 'chat/started',
    requestId,
    user: messageView(user, source.articles),
    reply: messageView(reply),
    budget: budgetView(source.budget, source.instructions),
    conversations: source.summaries.map((s) => summaryView(s, source.workspace)),
  };
}

/** How a reply ended (done, stopped or failed, with its usage), then the gauge: the reply now counts in the next request. */
export function endedMessages(
  requestId: number,
  reply: StoredMessage,
  source: GaugeSource & { prices: Prices },
): HostToWebview[] {
  const usage = usageView(reply.usage, source.prices);
  const speed = replySpeed(reply.timing, reply.usage);
  // A reply whose tool calls took several billed requests says how many.
  const requests = reply.requests !== undefined && reply.requests > 1 ? reply.requests : undefined;
  const end = { usage, speed, ...(requests ? { requests } : {}) };
  return [
    reply.status === 'error' && reply.error
      ? { type: 'chat/error', requestId, error: errorView(reply.error), ...end }
      : { type: 'chat/done', requestId, status: reply.status === 'stopped' ? 'stopped' : 'done', ...end },
    { type: 'budget/changed', budget: budgetView(source.budget, source.instructions) },
  ];
}

/** A context item as a chip: its label, and its language and size as a tooltip. */
export function chipView(item: ContextItem): ContextChipView {
  const lines = item.content.split('\n').length;
  const tokens = estimateTokens(item.content);
  const size =
    lines === 1
      ? vscode.l10n.t('1 line, about {0} tokens', tokens)
      : vscode.l10n.t('{0} lines, about {1} tokens', lines, tokens);
  return {
    id: item.id,
    label: item.label,
    detail: item.language ? `${item.language} · ${size}` : size,
    tokens,
  };
}

/** An error as the conversation shows it, with the label of its button. */
export function errorView(error: StoredError): ChatErrorView {
  const action: ChatErrorAction =
    error.action === 'setChatKey' || error.action === 'retry' || error.action === 'openSettings'
      ? error.action
      : error.action === 'setEncyclopediaKey'
        ? 'setChatKey'
        : 'none';
  return {
    kind: error.kind,
    message: error.message,
    action,
    actionLabel: action === 'none' ? undefined : ACTION_LABELS[action],
    retryAfterSeconds: error.retryAfterSeconds,
    at: error.at,
  };
}

/** Where the encyclopedia's articles are: the service's base URL and the article URLs it returned (its cache). */
export interface ArticlePlaces {
  baseUrl?: string;
  known?: KnownArticleUrls;
}

/** A stored message as the page shows it (context content stays in the host; only chips go). */
export function messageView(
  m: StoredMessage,
  articles: ArticlePlaces = {},
  prices: Prices = {},
  branch?: BranchPlace,
): MessageView {
  const targets = m.sources ? sourceTargets(m.sources, articles.baseUrl, articles.known) : [];
  return {
    id: m.id,
    role: m.role,
    content: m.content,
    createdAt: m.createdAt,
    status: m.status,
    error: m.error ? errorView(m.error) : undefined,
    context: m.context?.length ? m.context.map(chipView) : undefined,
    notice: m.notice,
    model: m.model,
    sources: m.sources?.length ? m.sources.map((c, i) => sourceView(c, targets[i])) : undefined,
    usage: usageView(m.usage, prices),
    speed: replySpeed(m.timing, m.usage),
    ...(branch ? { branch: { index: branch.index, count: branch.count } } : {}),
    ...(m.steps?.length ? { steps: stepViews(m.steps, m.sources) } : {}),
    ...(m.requests !== undefined && m.requests > 1 ? { requests: m.requests } : {}),
  };
}

/** A reply's steps as the page draws them, each with the numbers of the reply's sources it brought. */
export function stepViews(steps: readonly ToolStep[], sources: readonly Citation[] = []): StepView[] {
  const numbers = new Map<string, number>();
  sources.forEach((source, i) => {
    if (!numbers.has(sourceKey(source))) {
      numbers.set(sourceKey(source), i + 1);
    }
  });
  return steps.map((step) => stepView(step, numbers));
}

function stepView(step: ToolStep, numbers: ReadonlyMap<string, number>): StepView {
  const brought = (step.sources ?? []).flatMap((s) => numbers.get(sourceKey(s)) ?? []);
  return {
    id: step.id,
    tool: step.tool,
    title: step.title,
    status: step.status,
    offset: step.offset,
    ...(step.result !== undefined ? { result: step.result } : {}),
    ...(step.review ? { review: true } : {}),
    ...(brought.length ? { sources: [...new Set(brought)] } : {}),
  };
}

/**
 * `chat/step`: a step of the streaming reply as it stands, numbered against the reply's sources (`sources`); with
 * `sourcesChanged`, the reply's whole Sources list goes along, the step having added to it.
 */
export function stepMessage(
  requestId: number,
  step: ToolStep,
  sources: readonly Citation[] | undefined,
  sourcesChanged: boolean,
  articles: ArticlePlaces,
): HostToWebview {
  const [view] = stepViews([step], sources);
  if (!sourcesChanged || !sources?.length) {
    return { type: 'chat/step', requestId, step: view };
  }
  const targets = sourceTargets(sources, articles.baseUrl, articles.known);
  return { type: 'chat/step', requestId, step: view, sources: sources.map((c, i) => sourceView(c, targets[i])) };
}

/** A chat price in INR per million tokens, input and output (see `Settings.chatPrices`). */
export interface Prices {
  input?: number;
  output?: number;
}

/** A reply's usage as the page shows it, with its cost when both prices are set. */
export function usageView(usage: ReplyUsage | undefined, prices: Prices): UsageView | undefined {
  if (!usage) {
    return undefined;
  }
  const cost = costInr(usage, prices);
  return {
    input: usage.input,
    output: usage.output,
    reported: usage.reported === true,
    ...(cost === undefined ? {} : { costInr: cost }),
  };
}

/** A source as the list shows it: its title, and how it opens (`target`, by the rule of `sourceTarget`). */
export function sourceView(citation: Citation, target: SourceTarget): SourceView {
  const title = cleanTitle(citation.title) || citation.url || '?';
  return target.kind === 'web' ? { title, kind: 'web', url: target.url } : { title, kind: target.kind };
}

/**
 * The usage of the replies off the path shown, each as the page shows a reply's (the running total adds them);
 * undefined when the conversation has no other versions.
 */
export function otherVersionsUsage(conversation: Conversation, prices: Prices = {}): UsageView[] | undefined {
  if (!conversation.branches?.length) {
    return undefined;
  }
  return conversation.branches.flatMap((m) => {
    const view = m.role === 'assistant' ? usageView(m.usage, prices) : undefined;
    return view ? [view] : [];
  });
}

/** The usage of every summary a compaction asked for, undone ones too (the running total adds them). */
export function summariesUsage(conversation: Conversation, prices: Prices = {}): UsageView[] | undefined {
  const views = (conversation.compactions ?? []).flatMap((c) => {
    const view = usageView(c.usage, prices);
    return view ? [view] : [];
  });
  return views.length ? views : undefined;
}

/** The messages of a conversation (`messages`: some of them) as views. */
export function messageViews(
  conversation: Conversation,
  articles: ArticlePlaces = {},
  prices: Prices = {},
  messages: readonly StoredMessage[] = conversation.messages,
): MessageView[] {
  const places = branchPlaces(conversation);
  return messages.map((m) => messageView(m, articles, prices, places.get(m.id)));
}

/** A conversation summary as a list line. */
export function summaryView(s: ConversationSummary, workspace?: string): ConversationSummaryView {
  return {
    id: s.id,
    title: s.title || vscode.l10n.t('New conversation'),
    updatedAt: s.updatedAt,
    messageCount: s.messageCount,
    pinned: s.pinned === true,
    here: workspace !== undefined && s.workspace === workspace,
  };
}

/** The lineup for the picker; a custom model id from the settings is listed too, so the picker shows it. */
export function modelViews(current: string): ModelView[] {
  const views: ModelView[] = CHAT_LINEUP.map((m) => ({
    id: m.id,
    label: m.label,
    status: m.status,
    selectable: isSelectableModel(m.id),
    context: m.context,
    latency: m.latency,
    capability: m.capability,
  }));
  if (!views.some((v) => v.id === current)) {
    views.unshift({
      id: current,
      label: current,
      status: 'available',
      selectable: true,
      context: '200K',
      latency: vscode.l10n.t('unknown'),
      capability: vscode.l10n.t('From the alphaAxo.chat.model setting'),
    });
  }
  return views;
}

/** The queue as the page lists it: the chips' labels, the model's label; whether this window may change each. */
export function queueView(entries: readonly QueueEntry[], enabled: boolean): QueueView {
  return {
    enabled,
    prompts: entries.map(({ prompt, mine }) => ({
      id: prompt.id,
      text: prompt.text,
      attachments: (prompt.context ?? []).map((c) => c.label),
      model: `${CHAT_LINEUP.find((m) => m.id === prompt.model)?.label ?? prompt.model}${prompt.note ? ` (${prompt.note})` : ''}`,
      grounded: prompt.groundWithAxo,
      mine,
    })),
    waiting: entries.some((e) => e.mine && e.waiting),
  };
}

/** The compaction in force on the path shown, for its marker (absent when none). */
export function compactionView(conversation: Conversation): { compaction?: CompactionView } {
  const active = activeCompaction(conversation);
  if (!active) {
    return {};
  }
  const { id, throughId, messages, summary } = active.compaction;
  return { compaction: { id, throughId, messages, summary } };
}

/** The estimate of the next request as the gauge shows it, with the instructions' chip (absent when none are read). */
export function budgetView(budget: Budget, instructions: Instructions | undefined): BudgetView {
  if (!instructions) {
    return budget;
  }
  const files = instructions.files.map(({ label, tokens }) => ({ label, tokens }));
  const notice = instructions.notice ? { notice: instructions.notice } : {};
  return { ...budget, instructions: { files, tokens: instructions.tokens, ...notice } };
}
