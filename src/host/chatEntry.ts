import type { ChatHandoff } from '../core/assist/assistPrompts';
import type { AssistReply } from '../core/assist/assistReply';

/**
 * What the extension's own features may do in the chat view. `extension.ts` hands it to them; it is not a
 * command, because commands are open to every extension and only this extension may show a reply as ALPHA's.
 */
export interface ChatEntry {
  /** Reveals the chat, attaches the context and asks ALPHA the prompt (the reply streams there). */
  ask(handoff: ChatHandoff): Promise<void>;
  /**
   * Reveals the chat and shows the prompt, its context and a reply already received for it from ALPHA (an
   * assistance command's reply without code), without asking again, with what fitting its request trimmed.
   */
  record(handoff: ChatHandoff, reply: AssistReply): Promise<void>;
}
