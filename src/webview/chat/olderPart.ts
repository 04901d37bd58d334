import type { ChatStateView, HostToWebview, MessageView, WebviewToHost } from '../../protocol/chatProtocol';
import { afterFrame } from './render/schedule';

/**
 * The older messages of a long conversation's state (`ChatStateView.older`): asked for once the frame that shows the
 * state's newest messages is drawn, so that screen never waits for them; taken only if they belong to the state
 * drawn last (a later state makes an earlier answer stale).
 */
export class OlderPart {
  private key: number | undefined;
  /** How many older messages the state drawn last has that have not come yet. */
  pending = 0;

  constructor(private readonly post: (message: WebviewToHost) => void) {}

  /** A state was drawn: its older messages are asked for after the next frame. */
  expect(older: ChatStateView['older']): void {
    const key = older?.key;
    this.key = key;
    this.pending = older?.count ?? 0;
    if (key !== undefined) {
      afterFrame(() => {
        if (this.key === key) {
          this.post({ type: 'chat/older', key });
        }
      });
    }
  }

  /**
   * The messages of a `chat/older` (a part: the newest of those not come yet), if they are those of the state drawn
   * last (undefined: they are not). `pending` then counts the parts still to come.
   */
  take(message: Extract<HostToWebview, { type: 'chat/older' }>): MessageView[] | undefined {
    if (this.key === undefined || message.key !== this.key || message.left >= this.pending) {
      return undefined;
    }
    this.pending = message.left;
    if (message.left === 0) {
      this.key = undefined;
    }
    return message.messages;
  }
}
