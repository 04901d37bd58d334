/** One model of the service's lineup, as the spec lists it. */
export interface LineupModel {
  /** The identifier sent as `model`; only `alpha` is published, the others are the spec's names in lower case. */
  id: string;
  label: string;
  status: 'available' | 'soon';
  /** Whether it can be chosen for chat: Available and a chat model. */
  chat: boolean;
  context: string;
  latency: string;
  capability: string;
}

/** The chat models of the spec's lineup (section 1), with their context and latency from its second listing. */
export const CHAT_LINEUP: readonly LineupModel[] = [
  {
    id: 'alpha',
    label: 'ALPHA',
    status: 'available',
    chat: true,
    context: '200K',
    latency: '1.2s',
    capability: 'Text, vision, coding, knowledge, tools',
  },
  {
    id: 'sky',
    label: 'SKY',
    status: 'soon',
    chat: true,
    context: '128K',
    latency: '900ms',
    capability: 'Text, coding, long context, tools',
  },
  {
    id: 'skyflash',
    label: 'SKYFLASH',
    status: 'soon',
    chat: true,
    context: '32K',
    latency: '180ms',
    capability: 'Text, vision, coding, fast inference',
  },
  {
    id: 'sky-1.0',
    label: 'SKY 1.0',
    status: 'soon',
    chat: true,
    context: '64K',
    latency: '600ms',
    capability: 'Text only',
  },
  {
    id: 'amit-1.0',
    label: 'AMIT 1.0',
    status: 'soon',
    chat: false,
    context: 'n/a',
    latency: 'Render 3.4s',
    capability: 'Image generation',
  },
];

/** The context of ALPHA, used for any model the lineup does not know (a custom `alphaAxo.chat.model`). */
export const DEFAULT_CONTEXT_TOKENS = 200_000;

/** Whether `id` may be chosen in the picker: an Available chat model of the lineup. */
export function isSelectableModel(id: string): boolean {
  return CHAT_LINEUP.some((m) => m.id === id && m.status === 'available' && m.chat);
}

/** The lineup entry of `id` (case-insensitive), if any. */
export function lineupModel(id: string): LineupModel | undefined {
  const lower = id.toLowerCase();
  return CHAT_LINEUP.find((m) => m.id === lower);
}

/** The context size of `id` in tokens (ALPHA's for models the lineup does not list). */
export function contextTokensOf(id: string): number {
  const model = lineupModel(id);
  return (model && parseContextSize(model.context)) || DEFAULT_CONTEXT_TOKENS;
}

/** The display name of `id`: the lineup's label, or the identifier itself. */
export function modelLabel(id: string): string {
  return lineupModel(id)?.label ?? id;
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
