import { describeError } from '../core/service/errors';
import type { Logger } from '../core/logger';
import { checkMessage, type Validator } from '../protocol/validate';

/** What the channel needs of a webview (`vscode.Webview` is one): post to the page, hear from it. */
export interface WebviewPort<Out> {
  postMessage(message: Out): Thenable<boolean>;
  onDidReceiveMessage(listener: (message: unknown) => void): { dispose(): void };
}

/** How one view uses the channel. */
export interface ChannelOptions<In extends { type: string }, Out extends { type: string }> {
  /** The view's name in log lines and messages ("Chat view"). */
  name: string;
  /** The view's table from src/protocol: every message type the page may send, and its field checks. */
  validators: Record<In['type'], Validator>;
  /** The message a page sends once it listens ("webview/ready"), after every load. */
  readyType: In['type'];
  /**
   * What of the messages posted while the page was loading it still needs once ready, in order. The chat's page is
   * redrawn from its state on ready, so it keeps only what the state does not hold; the encyclopedia keeps all.
   */
  replay: (held: readonly Out[]) => Out[];
  /** The page is ready (its first time, or again after VS Code re-created it). */
  onReady(): void;
  /** A message that passed its checks. */
  onMessage(message: In): Promise<void> | void;
  /** Handling a message threw: tell the user (the channel has logged it). */
  onFailure(error: unknown): void;
  log: Logger;
}

/**
 * The one channel between the host and a webview page, for both views: the ready handshake (the page says
 * `readyType` after every load; until then what the host posts is held, then replayed as the view's `replay` says),
 * posting with a log line when a post fails, and checking every message the page sends against the view's
 * validator table before anything acts on it. A message that fails is dropped with a log line naming why.
 */
export class WebviewChannel<In extends { type: string }, Out extends { type: string }> {
  private ready = false;
  private held: Out[] = [];
  private closed = false;
  private readonly subscription: { dispose(): void };

  constructor(
    private readonly port: WebviewPort<Out>,
    private readonly options: ChannelOptions<In, Out>,
  ) {
    this.subscription = port.onDidReceiveMessage((message) => void this.receive(message));
  }

  /** Whether the page has said it is ready since it was last loaded. */
  get isReady(): boolean {
    return this.ready;
  }

  /** Sends a message now, or holds it until the page is ready. Nothing is sent once the channel is disposed. */
  post(message: Out): void {
    if (this.closed) {
      return;
    }
    if (!this.ready) {
      this.held.push(message);
      return;
    }
    this.port.postMessage(message).then(undefined, (error: unknown) => {
      this.options.log.warn(`${this.options.name}: could not post ${message.type}: ${describeError(error)}`);
    });
  }

  /** The page is loaded again (new HTML): hold what is posted until it says it is ready. */
  reload(held: readonly Out[] = []): void {
    this.ready = false;
    this.held = [...held];
  }

  /** Stops listening and sending. */
  dispose(): void {
    this.closed = true;
    this.ready = false;
    this.held = [];
    this.subscription.dispose();
  }

  /** One message from the page, as it arrived (untrusted). */
  async receive(raw: unknown): Promise<void> {
    if (this.closed) {
      return;
    }
    const { name, log } = this.options;
    const verdict = checkMessage<In>(this.options.validators, raw);
    if (!verdict.ok) {
      log.warn(`${name}: dropped ${verdict.reason}.`);
      return;
    }
    const message = verdict.message;
    if (message.type === this.options.readyType) {
      // A reloaded page says ready again: everything it showed is gone.
      const kept = this.options.replay(this.held);
      this.held = [];
      this.ready = true;
      this.options.onReady();
      kept.forEach((m) => this.post(m));
      return;
    }
    try {
      await this.options.onMessage(message);
    } catch (error) {
      log.error(`${name}: ${message.type} failed: ${describeError(error)}`);
      this.options.onFailure(error);
    }
  }
}
