import type { MessageView } from '../../protocol/chatProtocol';

/**
 * A state carries at most this many of the newest messages, and past the first at most this much of their text: the
 * page draws two screens, at most 12 messages, before it is idle (render/olderMessages.ts), so these fill them.
 */
export const NEWEST_MESSAGES = 40;
export const NEWEST_CHARS = 200_000;
/**
 * The older messages go in parts of about this much text, the newest first: the workbench reads each message from its
 * socket in one task (131 ms for 4.4 MB in bigConversationPage.bench), and the page draws each part as it comes.
 */
export const OLDER_PART_CHARS = 256 * 1024;
/** How many states' older messages are held for their pages to ask for. */
const HELD = 4;

/**
 * The older messages of long conversations' states, held until their pages ask for them (`chat/older`). Every page
 * and window is sent the newest messages first, so switching to a conversation of thousands of messages paints its
 * end without the host, the window and the page first copying megabytes; the rest follows once that is drawn. The
 * last few states are held (each page of a broadcast asks for the same), older ones are let go: a page asking for one
 * of those is drawn again.
 */
export class HeldOlderMessages {
  private nextKey = 1;
  /** Each held state's older messages, or what makes them (made when first asked for, then kept). */
  private readonly held = new Map<number, MessageView[] | (() => MessageView[])>();

  /**
   * Holds what makes the views of the `count` messages before a state's newest: a switch to a conversation of
   * thousands of messages does not wait for them (5–20 ms for 5,000 in the extension host), they are made when a page
   * first asks. Returns the state's `older`.
   */
  hold(count: number, views: () => MessageView[]): { count: number; key: number } {
    const key = this.nextKey++;
    this.held.set(key, views);
    for (const old of this.held.keys()) {
      if (this.held.size <= HELD) {
        break;
      }
      this.held.delete(old);
    }
    return { count, key };
  }

  /** The older messages of state `key`; undefined once they are no longer held. */
  take(key: number): MessageView[] | undefined {
    const held = this.held.get(key);
    if (typeof held !== 'function') {
      return held;
    }
    const made = held();
    this.held.set(key, made);
    return made;
  }
}

/**
 * The index of the first message a state carries: the newest NEWEST_MESSAGES, fewer when their text passes
 * NEWEST_CHARS (the last one always); 0 when it carries them all.
 */
export function newestStart(messages: readonly { readonly content: string }[]): number {
  let cut = messages.length;
  let chars = 0;
  while (cut > 0 && messages.length - cut < NEWEST_MESSAGES) {
    chars += messages[cut - 1].content.length;
    if (chars > NEWEST_CHARS && cut < messages.length) {
      break;
    }
    cut--;
  }
  return cut;
}

/**
 * `older` in parts of at most OLDER_PART_CHARS of text (one message at least), the newest part first, each with how
 * many messages are left before it.
 */
export function olderParts(older: readonly MessageView[]): { messages: MessageView[]; left: number }[] {
  const parts: { messages: MessageView[]; left: number }[] = [];
  let end = older.length;
  while (end > 0) {
    let start = end - 1;
    let chars = older[start].content.length;
    while (start > 0 && chars + older[start - 1].content.length <= OLDER_PART_CHARS) {
      chars += older[--start].content.length;
    }
    parts.push({ messages: older.slice(start, end), left: start });
    end = start;
  }
  return parts;
}
