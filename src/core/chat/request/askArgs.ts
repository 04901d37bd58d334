import { newId, type ContextItem } from '../conversation/conversation';

/** Longest prompt or context another extension may hand to `alpha.chat.ask` (the chat's own limits apply after). */
const MAX_ARG_CHARS = 1_000_000;

/**
 * `alpha.chat.ask`'s argument, as the contract documents it: a question and the context it is about. There is no
 * way to hand in a ready-made answer: the command is open to every extension, and a `reply` argument would let any
 * of them write an ALPHA message in the user's conversation.
 */
export interface AskArgs {
  prompt?: string;
  context?: { label: string; content: string; language?: string };
}

/**
 * Reads `alpha.chat.ask`'s argument field by field (other extensions call it): a string is the prompt; of an
 * object only `prompt` and `context` are read, and only when they are non-empty strings of a sane size. Every
 * other field (such as `reply`) is ignored; `ignored` lists them, for the log.
 */
export function parseAskArgs(args: unknown): AskArgs & { ignored: string[] } {
  if (!args || typeof args !== 'object' || Array.isArray(args)) {
    const prompt = typeof args === 'string' ? text(args) : undefined;
    return prompt === undefined ? { ignored: [] } : { prompt, ignored: [] };
  }
  const a = args as Record<string, unknown>;
  const out: AskArgs & { ignored: string[] } = {
    ignored: Object.keys(a).filter((key) => key !== 'prompt' && key !== 'context'),
  };
  const prompt = text(a.prompt);
  if (prompt !== undefined) {
    out.prompt = prompt;
  }
  const c = a.context;
  if (c && typeof c === 'object' && !Array.isArray(c)) {
    const { label, content, language } = c as Record<string, unknown>;
    if (text(content) !== undefined) {
      out.context = {
        label: text(label)?.trim().slice(0, 200) ?? 'Context',
        content: content as string,
        language: typeof language === 'string' && /^[\w.+#-]{1,64}$/.test(language) ? language : undefined,
      };
    }
  }
  return out;
}

/** A command argument's context as a chip. */
export function contextFromArgs(context: NonNullable<AskArgs['context']>): ContextItem {
  return { id: newId(), label: context.label, content: context.content, language: context.language };
}

/** The value when it is a string with something in it and not absurdly long. */
function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' && value.length <= MAX_ARG_CHARS ? value : undefined;
}
