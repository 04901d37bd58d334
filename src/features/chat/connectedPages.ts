import { DeltaBatcher } from '../../core/chat/runs/deltaBatcher';
import type { Timers } from '../../core/chat/runs/throttledTask';
import type { HostToWebview } from '../../protocol/chatProtocol';

/** How long a reply's deltas are held to go to the pages together, at most. */
export const DELTA_INTERVAL_MS = 32;

/** A chat page as the host writes to it (a `ChatSurface`, or a fake in tests). */
export interface Page {
  post(message: HostToWebview): void;
}

/**
 * The chat pages connected now (the side view, an editor tab), and the one way host messages reach them: a page gets
 * the messages that every page gets only once it has been drawn (`connect`), so none it already holds in its state
 * comes twice or out of order; a reply's deltas are joined (see DeltaBatcher) and go before any other message.
 */
export class ConnectedPages {
  private readonly pages = new Set<Page>();
  /** Pages that have been drawn; only they get what is broadcast (the others get the state first). */
  private readonly drawn = new WeakSet<Page>();
  private readonly deltas: DeltaBatcher;

  constructor(timers?: Pick<Timers, 'setTimeout' | 'clearTimeout'>) {
    this.deltas = new DeltaBatcher(
      (requestId, text) => this.post([{ type: 'chat/delta', requestId, text }]),
      DELTA_INTERVAL_MS,
      timers,
    );
  }

  /**
   * A page is ready: it is drawn with the messages `draw` makes (the whole state), then gets what is broadcast. The
   * deltas held while it was drawn hold text its state already has: they go to the pages drawn before it, not to it.
   */
  async connect(page: Page, draw: () => Promise<readonly HostToWebview[]>): Promise<void> {
    this.pages.add(page);
    this.drawn.delete(page);
    const messages = await draw();
    this.deltas.flush();
    if (this.pages.has(page)) {
      for (const message of messages) {
        page.post(message);
      }
      this.drawn.add(page);
    }
  }

  /** A page is gone. */
  disconnect(page: Page): void {
    this.pages.delete(page);
  }

  /** Sends messages, in order, to every page that has been drawn (the deltas held go first). */
  broadcast(...messages: HostToWebview[]): void {
    this.deltas.flush();
    this.post(messages);
  }

  /**
   * A piece of reply `requestId`: sent now, or joined with the next ones for a moment. A property, so the chat
   * state's listener can be handed it as is: a reply's pieces go from the state straight to the pages.
   */
  readonly delta = (requestId: number, text: string): void => this.deltas.add(requestId, text);

  private post(messages: readonly HostToWebview[]): void {
    for (const page of this.pages) {
      if (this.drawn.has(page)) {
        for (const message of messages) {
          page.post(message);
        }
      }
    }
  }

  dispose(): void {
    this.deltas.dispose();
  }
}
