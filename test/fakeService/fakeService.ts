import * as http from 'node:http';
import { handleArticle, handleAsk, handleSearch } from './axoHandler';
import { handleChat } from './chatHandler';
import { faultDirective, framingDirective, lastUserContent, type ChatMessage } from './chatContent';
import { RequestContext, type ParsedBody, type RecordedRequest } from './context';
import {
  FaultQueue,
  echoKeyResponse,
  isKnownFault,
  parseStatusFault,
  presentedKey,
  statusFaultResponse,
} from './faults';
import { headerText, listen, originOf, parseBody, readBody, stop } from './httpUtil';
import { FRAMINGS, isFraming, type Framing } from './sseStream';

/** A 1×1 transparent PNG, served at `GET /__fake/pixel.png`. */
const PIXEL_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

export { MAX_BODY_BYTES } from './httpUtil';

export type { RecordedRequest } from './context';

/** The default chat-model key (`fkc_` prefix). */
export const DEFAULT_CHAT_KEY = 'fkc_demo_4f2a9c1e7b';

/** The default encyclopedia key (`fke_` prefix). */
export const DEFAULT_AXO_KEY = 'fke_demo_8d3b6a0f5c';

/** How long the `slow-headers` fault waits before answering. */
export const SLOW_HEADERS_MS = 1500;

/** Query parameter the `redirect` faults add to the Location so the follow-up request gets no fault. */
export const NO_FAULT_PARAM = 'fake_nofault';

/** The page the `non-json` fault answers with (200, text/html). */
export const NON_JSON_PAGE =
  '<!DOCTYPE html><html><head><title>Welcome</title></head><body><h1>It works!</h1>' +
  '<p>This is a captive portal or proxy page, not the API.</p></body></html>';

/** Options of `startFakeService`. */
export interface FakeServiceOptions {
  /** Port to listen on; 0 (default) picks a free one. */
  port?: number;
  /** Host to bind, default 127.0.0.1. */
  host?: string;
  chatKey?: string;
  axoKey?: string;
  /** Delay between stream writes, default 4 ms (0 writes without pausing). */
  tokenDelayMs?: number;
  /**
   * How streams are framed unless a request says otherwise (`X-Fake-Framing` header, or a `#framing:NAME`
   * directive in the last user message): `standard` (default) or `lines`. Independent of the fault modes.
   */
  framing?: Framing;
  /** A fixed delay before every encyclopedia (`/v1/axo/…`) answer, in ms (default 0): a service's lookup time. */
  axoLatencyMs?: number;
}

/** What the second ("other origin") listener saw of one request. */
export interface OtherOriginRequest {
  path: string;
  /** Whether an Authorization header arrived there (it must not). */
  authorization: boolean;
}

/** A running fake of the service. */
export interface FakeService {
  /** `http://127.0.0.1:PORT`, no trailing slash. */
  url: string;
  chatKey: string;
  axoKey: string;
  /** Every non-control request, in arrival order, updated in place while it runs. */
  requests: RecordedRequest[];
  /** Origin of the second listener that `redirect-other-origin` points at. */
  otherOriginUrl: string;
  /** Requests the second listener received (it always answers 401). */
  otherOriginRequests: OtherOriginRequest[];
  /** TCP connections the main listener has accepted since it started (keep-alive reuse shows as fewer). */
  readonly connections: number;
  /** Queues a fault for the next `times` (default 1) requests whose path starts with `path` (default: any). */
  setFault(fault: string, opts?: { path?: string; times?: number }): void;
  /** Sets how streams are framed from now on, unless a request says otherwise (see `FakeServiceOptions`). */
  setFraming(framing: Framing): void;
  /** Clears queued faults and recorded requests (both listeners); the framing stays. */
  reset(): void;
  /** Resolves with the first request (already recorded or future) matching `pred`; rejects after `timeoutMs`. */
  waitFor(pred: (r: RecordedRequest) => boolean, timeoutMs?: number): Promise<RecordedRequest>;
  /** Stops both listeners, dropping open connections. */
  close(): Promise<void>;
}

interface Waiter {
  pred: (r: RecordedRequest) => boolean;
  resolve: (r: RecordedRequest) => void;
  reject: (e: Error) => void;
  timer: NodeJS.Timeout;
}

function directiveText(url: URL, body: ParsedBody): string {
  if (url.pathname === '/v1/alpha') {
    const messages = body.kind === 'json' ? (body.value as { messages?: unknown } | null)?.messages : undefined;
    if (!Array.isArray(messages)) {
      return '';
    }
    const valid = messages.filter(
      (m): m is ChatMessage => typeof m?.role === 'string' && typeof m?.content === 'string',
    );
    return lastUserContent(valid);
  }
  return `${url.searchParams.get('q') ?? ''} ${url.searchParams.get('title') ?? ''}`;
}

const AXO_ROUTES: Record<string, (ctx: RequestContext) => Promise<void>> = {
  '/v1/axo/ask': handleAsk,
  '/v1/axo/search': handleSearch,
  '/v1/axo/article': handleArticle,
};

class FakeServiceImpl implements FakeService {
  url = '';
  otherOriginUrl = '';
  readonly requests: RecordedRequest[] = [];
  readonly otherOriginRequests: OtherOriginRequest[] = [];
  private readonly queue = new FaultQueue();
  private waiters: Waiter[] = [];
  private nextId = 1;
  private readonly tokenDelayMs: number;
  connections = 0;
  private framing: Framing = 'standard';
  /** See `FakeServiceOptions.axoLatencyMs`. */
  axoLatencyMs = 0;
  readonly main = http.createServer((req, res) => this.onRequest(req, res));
  readonly other = http.createServer((req, res) => this.onOtherOrigin(req, res));

  constructor(
    readonly chatKey: string,
    readonly axoKey: string,
    tokenDelayMs: number,
  ) {
    this.tokenDelayMs = tokenDelayMs;
    this.main.on('connection', () => this.connections++);
  }

  setFault(fault: string, opts?: { path?: string; times?: number }): void {
    this.queue.add(fault, opts);
  }

  setFraming(framing: Framing): void {
    if (!isFraming(framing)) {
      throw new Error(`Unknown fake framing '${String(framing)}'; known: ${FRAMINGS.join(', ')}`);
    }
    this.framing = framing;
  }

  reset(): void {
    this.queue.clear();
    this.requests.length = 0;
    this.otherOriginRequests.length = 0;
  }

  waitFor(pred: (r: RecordedRequest) => boolean, timeoutMs = 5000): Promise<RecordedRequest> {
    return new Promise((resolve, reject) => {
      const found = this.requests.find((r) => safely(pred, r));
      if (found) {
        resolve(found);
        return;
      }
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        const seen = this.requests.map((r) => `#${r.id} ${r.method} ${r.path} → ${r.status}`).join('; ');
        reject(new Error(`waitFor timed out after ${timeoutMs} ms; recorded: ${seen || 'nothing'}`));
      }, timeoutMs);
      const waiter: Waiter = { pred, resolve, reject, timer };
      this.waiters.push(waiter);
    });
  }

  async close(): Promise<void> {
    for (const w of this.waiters) {
      clearTimeout(w.timer);
      w.reject(new Error('The fake service was closed'));
    }
    this.waiters = [];
    await Promise.all([stop(this.main), stop(this.other)]);
  }

  private notify(): void {
    if (this.waiters.length === 0) {
      return;
    }
    this.waiters = this.waiters.filter((w) => {
      const found = this.requests.find((r) => safely(w.pred, r));
      if (found) {
        clearTimeout(w.timer);
        w.resolve(found);
      }
      return !found;
    });
  }

  private onRequest(req: http.IncomingMessage, res: http.ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://fake.invalid');
    const work = url.pathname.startsWith('/__fake/') ? this.control(req, res, url) : this.handle(req, res, url);
    work.catch((e: unknown) => {
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `Fake service bug: ${String(e)}`, code: 'fake_bug' } }));
      } else {
        res.destroy();
      }
    });
  }

  private keyKind(req: http.IncomingMessage): RecordedRequest['keyKind'] {
    const token = /^Bearer\s+(\S+)$/i.exec(headerText(req, 'authorization'))?.[1];
    if (!token) {
      return headerText(req, 'authorization') === '' ? 'none' : 'wrong';
    }
    return token === this.chatKey ? 'chat' : token === this.axoKey ? 'axo' : 'wrong';
  }

  private startRecord(req: http.IncomingMessage, url: URL): RecordedRequest {
    const record: RecordedRequest = {
      id: this.nextId++,
      method: req.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      body: undefined,
      keyKind: this.keyKind(req),
      authorization: req.headers.authorization !== undefined,
      status: 0,
      aborted: false,
      completed: false,
      startedAt: Date.now(),
      arrivedAt: performance.now(),
    };
    this.requests.push(record);
    this.notify();
    return record;
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse, url: URL): Promise<void> {
    const record = this.startRecord(req, url);
    const link: { ctx?: RequestContext } = {};
    res.on('close', () => {
      record.endedAt = Date.now();
      record.completed = res.writableFinished;
      record.aborted = !res.writableFinished && !link.ctx?.closedByServer;
      this.notify();
    });
    const read = await readBody(req);
    const body = parseBody(read);
    record.body = body.kind === 'none' ? undefined : body.value;
    const fault = read.tooLarge ? undefined : this.resolveFault(req, url, body);
    record.fault = fault;
    const shapeHeader = headerText(req, 'x-fake-shape');
    const shapeFault = fault?.startsWith('shape:') ? fault.slice('shape:'.length) : '';
    const shapes = `${shapeHeader},${shapeFault}`.split(',').map((s) => s.trim());
    const ctx = new RequestContext(req, res, url, record, body, fault, shapes, this.tokenDelayMs, () => this.notify());
    link.ctx = ctx;
    ctx.framing = headerText(req, 'x-fake-framing') || framingDirective(directiveText(url, body)) || this.framing;
    if (!read.complete || !ctx.open) {
      return;
    }
    if (read.tooLarge) {
      ctx.sendError(413);
      return;
    }
    if (this.axoLatencyMs > 0 && url.pathname.startsWith('/v1/axo/')) {
      await new Promise((resolve) => setTimeout(resolve, this.axoLatencyMs));
    }
    if (!(await this.applyEntryFault(ctx))) {
      await this.route(ctx);
    }
  }

  private resolveFault(req: http.IncomingMessage, url: URL, body: ParsedBody): string | undefined {
    if (url.searchParams.get(NO_FAULT_PARAM) === '1') {
      return undefined;
    }
    const header = headerText(req, 'x-fake-fault');
    return header || faultDirective(directiveText(url, body)) || this.queue.take(url.pathname);
  }

  /** Applies the faults that answer before routing; true when the request is done with. */
  private async applyEntryFault(ctx: RequestContext): Promise<boolean> {
    const fault = ctx.fault;
    if (fault !== undefined && !isKnownFault(fault)) {
      ctx.sendError(400, `Unknown fake fault '${fault}'`, 'unknown_fake_fault');
      return true;
    }
    if (!isFraming(ctx.framing)) {
      ctx.sendError(400, `Unknown fake framing '${ctx.framing}'`, 'unknown_fake_framing');
      return true;
    }
    if (fault === 'stall-headers') {
      await ctx.untilClosed();
      return true;
    }
    if (fault === 'slow-headers') {
      return !(await ctx.delay(SLOW_HEADERS_MS));
    }
    if (fault === 'echo-key' || fault === 'echo-key:html') {
      const echo = echoKeyResponse(fault, presentedKey(headerText(ctx.req, 'authorization')));
      ctx.send(echo.status, echo.headers, echo.body);
      return true;
    }
    const status = fault === undefined ? undefined : parseStatusFault(fault);
    if (status) {
      const { headers, body } = statusFaultResponse(status);
      ctx.send(status.status, headers, body);
      return true;
    }
    if (fault === 'non-json') {
      ctx.send(200, { 'content-type': 'text/html; charset=utf-8' }, NON_JSON_PAGE);
      return true;
    }
    if (fault === 'redirect' || fault === 'redirect-other-origin') {
      const target = new URL(ctx.url.pathname + ctx.url.search, fault === 'redirect' ? this.url : this.otherOriginUrl);
      target.searchParams.set(NO_FAULT_PARAM, '1');
      const location = fault === 'redirect' ? target.pathname + target.search : target.href;
      ctx.send(ctx.req.method === 'POST' ? 307 : 302, { location }, '');
      return true;
    }
    return false;
  }

  private async route(ctx: RequestContext): Promise<void> {
    const path = ctx.url.pathname;
    const axo = Object.prototype.hasOwnProperty.call(AXO_ROUTES, path) ? AXO_ROUTES[path] : undefined;
    if (path !== '/v1/alpha' && !axo) {
      ctx.sendError(404, `No route for ${ctx.req.method ?? ''} ${path}`, 'not_found');
      return;
    }
    const method = axo ? 'GET' : 'POST';
    if (ctx.req.method !== method) {
      ctx.sendError(405, `Use ${method} for ${path}`, 'method_not_allowed', { allow: method });
      return;
    }
    if (ctx.record.keyKind !== (axo ? 'axo' : 'chat')) {
      ctx.sendError(401, 'Invalid API key', 'invalid_api_key');
      return;
    }
    await (axo ? axo(ctx) : handleChat(ctx));
  }

  private async control(req: http.IncomingMessage, res: http.ServerResponse, url: URL): Promise<void> {
    const json = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(value));
    };
    const route = `${req.method ?? ''} ${url.pathname}`;
    const read = await readBody(req);
    if (route === 'POST /__fake/fault') {
      const entry = parseFaultRequest(parseBody(read));
      if (!entry || !isKnownFault(entry.fault)) {
        json(400, { error: { message: 'Expected {fault: string, path?: string, times?: positive integer}' } });
        return;
      }
      this.setFault(entry.fault, entry);
      json(200, { ok: true });
    } else if (route === 'POST /__fake/reset') {
      this.reset();
      json(200, { ok: true });
    } else if (route === 'GET /__fake/requests') {
      json(200, this.requests);
    } else if (route === 'GET /__fake/other-origin-requests') {
      json(200, this.otherOriginRequests);
    } else if (route === 'GET /__fake/pixel.png') {
      // A 1×1 PNG, for pages that show an image from the service's own origin (the only local one allowed).
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(Buffer.from(PIXEL_PNG, 'base64'));
    } else {
      json(404, { error: { message: `No control route ${route}` } });
    }
  }

  private onOtherOrigin(req: http.IncomingMessage, res: http.ServerResponse): void {
    const path = new URL(req.url ?? '/', 'http://fake.invalid').pathname;
    this.otherOriginRequests.push({ path, authorization: req.headers.authorization !== undefined });
    req.resume();
    req.on('end', () => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'Invalid API key', code: 'invalid_api_key' } }));
    });
  }
}

function parseFaultRequest(body: ParsedBody): { fault: string; path?: string; times?: number } | undefined {
  const v = (body.kind === 'json' ? body.value : undefined) as { fault?: unknown; path?: unknown; times?: unknown };
  if (typeof v?.fault !== 'string' || v.fault.trim() === '') {
    return undefined;
  }
  if (v.path !== undefined && typeof v.path !== 'string') {
    return undefined;
  }
  if (v.times !== undefined && !(typeof v.times === 'number' && Number.isInteger(v.times) && v.times >= 1)) {
    return undefined;
  }
  return { fault: v.fault.trim(), path: v.path, times: v.times };
}

function safely(pred: (r: RecordedRequest) => boolean, r: RecordedRequest): boolean {
  try {
    return pred(r);
  } catch {
    return false;
  }
}

/** Starts the fake service (and its second, "other origin" listener) on 127.0.0.1 unless told otherwise. */
export async function startFakeService(options: FakeServiceOptions = {}): Promise<FakeService> {
  const host = options.host ?? '127.0.0.1';
  const fake = new FakeServiceImpl(
    options.chatKey ?? DEFAULT_CHAT_KEY,
    options.axoKey ?? DEFAULT_AXO_KEY,
    options.tokenDelayMs ?? 4,
  );
  fake.setFraming(options.framing ?? 'standard');
  fake.axoLatencyMs = Math.max(0, options.axoLatencyMs ?? 0);
  await listen(fake.main, options.port ?? 0, host);
  try {
    await listen(fake.other, 0, host);
  } catch (e) {
    await stop(fake.main);
    throw e;
  }
  fake.url = originOf(fake.main, host);
  fake.otherOriginUrl = originOf(fake.other, host);
  return fake;
}
