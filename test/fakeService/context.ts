import type * as http from 'node:http';
import { statusTexts } from './faults';

/** What the fake records of one request (mutated in place while the request runs). */
export interface RecordedRequest {
  id: number;
  method: string;
  path: string;
  query: Record<string, string>;
  /** The parsed JSON body, the raw text when it was not JSON, or undefined when empty or too large. */
  body: unknown;
  keyKind: 'chat' | 'axo' | 'none' | 'wrong';
  /** Whether an Authorization header was present. */
  authorization: boolean;
  /** The status sent, 0 while no headers went out. */
  status: number;
  /** The fault applied to this request, if any. */
  fault?: string;
  /** How a stream was framed (`standard` or `lines`), for streamed replies. */
  framing?: string;
  /** When the last byte of a stream's `data: [DONE]` was handed to the socket (ms since the epoch). */
  doneAt?: number;
  /** The client closed before the response ended. */
  aborted: boolean;
  /** The response ended normally. */
  completed: boolean;
  startedAt: number;
  endedAt?: number;
  /** `performance.now()` in the fake's process when the request's headers arrived (benches time against it). */
  arrivedAt: number;
}

/** The request body as read. */
export type ParsedBody = { kind: 'none' } | { kind: 'json'; value: unknown } | { kind: 'text'; value: string };

/** One request being answered, with the helpers every handler uses. */
export class RequestContext {
  private readonly closed = new AbortController();
  /** Set before the fake itself destroys the socket, so that is not recorded as a client abort. */
  closedByServer = false;
  /** How a streamed reply is framed: `standard`, `lines` or `ndjson` (see `Framing` in sseStream.ts); checked before use. */
  framing = 'standard';

  constructor(
    readonly req: http.IncomingMessage,
    readonly res: http.ServerResponse,
    readonly url: URL,
    readonly record: RecordedRequest,
    readonly body: ParsedBody,
    readonly fault: string | undefined,
    readonly shapes: readonly string[],
    readonly tokenDelayMs: number,
    private readonly notify: () => void,
  ) {
    res.on('close', () => this.closed.abort());
  }

  /** Aborted once the response is closed (by either side, or after it ended). */
  get signal(): AbortSignal {
    return this.closed.signal;
  }

  /** True while the response can still be written. */
  get open(): boolean {
    return !this.closed.signal.aborted && !this.res.destroyed;
  }

  /** Sends the status line and headers, and records the status. */
  head(status: number, headers: http.OutgoingHttpHeaders = {}): void {
    this.res.writeHead(status, headers);
    this.res.flushHeaders();
    this.record.status = status;
    this.notify();
  }

  /** Sends a whole response. */
  send(status: number, headers: http.OutgoingHttpHeaders, body: string | Buffer): void {
    this.head(status, { ...headers, 'content-length': Buffer.byteLength(body) });
    this.res.end(body);
  }

  /** Sends a JSON response. */
  sendJson(status: number, value: unknown, headers: http.OutgoingHttpHeaders = {}): void {
    this.send(status, { 'content-type': 'application/json', ...headers }, JSON.stringify(value));
  }

  /** Sends `{"error":{"message","code"}}` (code defaults to the status's own). */
  sendError(status: number, message?: string, code?: string, headers: http.OutgoingHttpHeaders = {}): void {
    const texts = statusTexts(status);
    this.sendJson(status, { error: { message: message ?? texts.message, code: code ?? texts.code } }, headers);
  }

  /**
   * Sends a 200 body, applying the body faults: `bad-json` truncates JSON, `cut` sends half and destroys
   * the socket, `stall` sends half and holds the connection until the client goes away.
   */
  async sendBody(contentType: string, text: string): Promise<void> {
    const isJson = contentType.startsWith('application/json');
    if (this.fault === 'bad-json' && isJson) {
      this.send(200, { 'content-type': contentType }, text.slice(0, Math.ceil(text.length / 2)));
      return;
    }
    if (this.fault !== 'cut' && this.fault !== 'stall') {
      this.send(200, { 'content-type': contentType }, text);
      return;
    }
    const bytes = Buffer.from(text);
    this.head(200, { 'content-type': contentType, 'content-length': bytes.length });
    await this.write(bytes.subarray(0, Math.floor(bytes.length / 2)));
    await (this.fault === 'cut' ? this.cut() : this.untilClosed());
  }

  /** Writes bytes, waiting for drain; false once the response is closed. */
  async write(chunk: Buffer | string): Promise<boolean> {
    if (!this.open) {
      return false;
    }
    if (!this.res.write(chunk)) {
      await new Promise<void>((resolve) => {
        const done = () => {
          this.res.off('drain', done);
          this.signal.removeEventListener('abort', done);
          resolve();
        };
        this.res.on('drain', done);
        this.signal.addEventListener('abort', done);
      });
    }
    return this.open;
  }

  /** Waits `ms`; resolves false early (or at once) when the response closes. */
  delay(ms: number): Promise<boolean> {
    if (!this.open) {
      return Promise.resolve(false);
    }
    return new Promise<boolean>((resolve) => {
      const onAbort = () => {
        clearTimeout(timer);
        resolve(false);
      };
      const timer = setTimeout(() => {
        this.signal.removeEventListener('abort', onAbort);
        resolve(this.open);
      }, ms);
      this.signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Resolves when the response is closed (the client went away, or the fake shut down). */
  untilClosed(): Promise<void> {
    if (this.signal.aborted) {
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => this.signal.addEventListener('abort', () => resolve(), { once: true }));
  }

  /** Destroys the socket once what was written has left, without ending the response. */
  async cut(): Promise<void> {
    this.closedByServer = true;
    const socket = this.res.socket;
    for (let i = 0; i < 100 && socket && socket.writableLength > 0 && this.open; i++) {
      await this.delay(5);
    }
    await this.delay(10);
    this.res.destroy();
  }
}
