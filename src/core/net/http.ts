import type { LookupFunction } from 'node:net';
import { request, type Dispatcher } from 'undici';
import { createDispatcher, proxyHost } from './dispatchers';
import { ServiceError, type KeyKind } from '../service/errors';
import { checkFetchTarget, guardedLookup, type FetchGuard } from './fetchGuard';
import { errorFromResponse, errorFromTransport } from '../service/httpErrors';
import type { Logger } from '../logger';
import { keyRouteOf, type KeyGate } from './keyRoute';
import { proxyFor, type ProxySettings } from './proxy';
import * as l10n from '@vscode/l10n';
import { SecretScrubber } from '../service/secretScrubber';
import { nodeCaSource, trustedCertificates, type CaSource } from './trust';
import { serviceRedirect } from './redirects';
import { ipLiteralOf } from './netAddress';
import {
  DRAIN_WAIT_MS,
  decodedBody,
  discard,
  draining,
  flattenHeaders,
  headerOf,
  readText,
  wrapResponse,
  type HttpResponse,
} from './responseBody';

/** Network settings, read fresh for every request. */
export interface HttpSettings {
  /** Applies to connecting, to the first byte of the response, and to every gap between chunks. */
  timeoutMs: number;
  proxy: ProxySettings;
  /** Trust the operating system's certificate store too (`http.systemCertificates`, on unless false). */
  systemCertificates?: boolean;
  /** Host name resolution; the system resolver when absent (tests put a resolver of their own here). */
  lookup?: LookupFunction;
}

/** One request to the service. */
export interface HttpRequest {
  method: 'GET' | 'POST';
  url: URL;
  key: string;
  keyKind: KeyKind;
  body?: unknown;
  accept?: string;
  signal?: AbortSignal;
}

const MAX_REDIRECTS = 5;

/** The HTTP layer: undici with timeouts, proxies, no redirects but an upgrade to https, and typed errors. */
export class HttpClient {
  private dispatchers = new Map<string, Dispatcher>();
  private readonly reachability = new Set<(reachable: boolean) => void>();
  /** Response bodies not yet handed back to their pool: until one event-loop turn after they close. */
  private readonly unreleased = new Set<Dispatcher.ResponseData['body']>();

  private readonly caSource: CaSource;
  /** Asked before a key leaves over plain http to another computer or over TLS that is not checked. */
  private readonly keyGate: KeyGate | undefined;
  /**
   * The session's keys: every key sent is added to it, and every text the service sends back passes through it
   * (error bodies fully, content bodies for the keys only).
   */
  readonly scrubber: SecretScrubber;

  /**
   * `caSource` is where trusted CAs come from: the runtime's stores unless a test gives its own. `scrubber` holds the
   * session's keys (a fresh one when absent).
   */
  constructor(
    private readonly getSettings: () => HttpSettings,
    private readonly log: Logger,
    options: { caSource?: CaSource; scrubber?: SecretScrubber; keyGate?: KeyGate } = {},
  ) {
    this.caSource = options.caSource ?? nodeCaSource();
    this.keyGate = options.keyGate;
    this.scrubber = options.scrubber ?? new SecretScrubber();
  }

  /**
   * Calls `listener` after every request: true when the service answered (any status), false when it could not
   * be reached (DNS, refused, TLS, timeouts). Returns a function that removes the listener.
   */
  onReachability(listener: (reachable: boolean) => void): () => void {
    this.reachability.add(listener);
    return () => this.reachability.delete(listener);
  }

  /**
   * Sends a request and returns the 2xx response, or throws a ServiceError with a clear sentence. A redirect is
   * followed only as `serviceRedirect` allows (a same-host upgrade to https); any other one ends the request.
   */
  async send(req: HttpRequest): Promise<HttpResponse> {
    const settings = this.getSettings();
    // Nothing leaves before the gate answers (it may ask the user, or send to the https form instead).
    const route = this.keyGate && keyRouteOf(req.url, settings.proxy);
    let url = route && this.keyGate ? await this.keyGate(route) : req.url;
    const body = req.body === undefined ? undefined : JSON.stringify(req.body);
    for (;;) {
      const res = await this.once(req, settings, { url, method: req.method, body });
      const location = headerOf(res.headers, 'location');
      if (res.statusCode < 300 || res.statusCode >= 400 || !location || res.statusCode === 304) {
        return this.finish(req, url, res);
      }
      discard(res.body);
      const next = serviceRedirect(url, location, res.statusCode, req.keyKind);
      if (next instanceof ServiceError) {
        this.log.warn(`${req.method} ${pathOf(url)}: redirect (${res.statusCode}) not followed: ${next.message}`);
        throw next;
      }
      this.log.info(`${req.method} ${pathOf(url)} upgraded (${res.statusCode}) to ${next.origin}${pathOf(next)}`);
      url = next;
    }
  }

  /**
   * GETs a public resource (an image the user asked to see): no key, same proxy and timeouts, redirects followed,
   * at most `maxBytes`. Every hop must pass the fetch guard: http(s), and no loopback, private or link-local
   * address unless it is `allowedOrigin` (checked before the hop, and again by the resolver of a direct
   * connection). Returns the content type and the bytes.
   */
  async fetchPublic(
    url: URL,
    options: { accept: string; maxBytes: number; signal?: AbortSignal } & FetchGuard,
  ): Promise<{ contentType: string; bytes: Buffer }> {
    const settings = this.getSettings();
    const guard: FetchGuard = { allowedOrigin: options.allowedOrigin };
    let current = url;
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      refuseNameThroughProxy(current, settings, guard);
      await checkFetchTarget(current, guard, settings.lookup);
      const res = await request(current, {
        method: 'GET',
        headers: { accept: options.accept },
        signal: options.signal,
        dispatcher: this.dispatcherFor(current, settings, guard),
        headersTimeout: settings.timeoutMs,
        bodyTimeout: settings.timeoutMs,
      });
      const location = headerOf(res.headers, 'location');
      if (res.statusCode >= 300 && res.statusCode < 400 && location) {
        discard(res.body);
        current = new URL(location, current);
        continue;
      }
      if (res.statusCode < 200 || res.statusCode >= 300) {
        discard(res.body);
        throw new ServiceError('badResponse', l10n.t('{0} answered {1}.', current.host, res.statusCode), {
          status: res.statusCode,
        });
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body) {
        size += chunk.byteLength;
        if (size > options.maxBytes) {
          discard(res.body);
          throw new ServiceError(
            'tooLarge',
            l10n.t('It is larger than {0} MB.', Math.round(options.maxBytes / 1024 / 1024)),
          );
        }
        chunks.push(chunk as Buffer);
      }
      return { contentType: headerOf(res.headers, 'content-type') ?? '', bytes: Buffer.concat(chunks) };
    }
    throw new ServiceError('badResponse', l10n.t('{0} redirected more than {1} times.', url.host, MAX_REDIRECTS));
  }

  /** Closes every connection pool. */
  async dispose(): Promise<void> {
    const all = [...this.dispatchers.values()];
    this.dispatchers.clear();
    await Promise.allSettled(all.map((d) => d.close()));
  }

  private async once(
    req: HttpRequest,
    settings: HttpSettings,
    hop: { url: URL; method: 'GET' | 'POST'; body?: string },
  ): Promise<Dispatcher.ResponseData & { started: number }> {
    // Known before it leaves, so an echo of it is removed even if the host never registered it.
    this.scrubber.add(req.key);
    const headers: Record<string, string> = {
      accept: req.accept ?? 'application/json',
      authorization: `Bearer ${req.key}`,
    };
    if (hop.body !== undefined) {
      headers['content-type'] = 'application/json';
    }
    const started = Date.now();
    const what = `${hop.method} ${pathOf(hop.url)} (Authorization: Bearer ***)`;
    try {
      await this.untilReleased();
      req.signal?.throwIfAborted();
      const res = await request(hop.url, {
        method: hop.method,
        headers,
        body: hop.body,
        signal: req.signal,
        dispatcher: this.dispatcherFor(hop.url, settings),
        // Per request too: a SOCKS5 agent builds its pools without the agent's own timeouts.
        headersTimeout: settings.timeoutMs,
        bodyTimeout: settings.timeoutMs,
      });
      this.log.info(`${what} → ${res.statusCode} in ${Date.now() - started} ms`);
      this.reachability.forEach((listener) => listener(true));
      this.trackRelease(res.body);
      return Object.assign(res, { started });
    } catch (error) {
      // undici reports some failures (a proxy refusing the tunnel) as aborts too: only our signal means cancelled.
      if (req.signal?.aborted) {
        this.log.info(`${what} cancelled after ${Date.now() - started} ms`);
        throw new ServiceError('aborted', l10n.t('The request was cancelled.'), { cause: error, keyKind: req.keyKind });
      }
      const proxy = proxyFor(hop.url, settings.proxy);
      const mapped = errorFromTransport(error, hop.url, settings.timeoutMs, req.keyKind, proxy);
      this.log.warn(`${what} failed after ${Date.now() - started} ms: ${mapped.message}`);
      this.reachability.forEach((listener) => listener(false));
      throw mapped;
    }
  }

  /**
   * undici hands a kept-alive socket back to its pool one event-loop turn after the response ended (so a server
   * that closes it anyway is noticed first). A request sent within that turn would find the socket busy and open
   * a second one; so a request waits for that turn when a body has just ended or been closed by its reader, and
   * consecutive requests share one connection.
   */
  private trackRelease(body: Dispatcher.ResponseData['body']): void {
    this.unreleased.add(body);
    body.once('close', () => setImmediate(() => this.unreleased.delete(body)));
  }

  private async untilReleased(): Promise<void> {
    for (const body of this.unreleased) {
      if (draining.has(body) && !body.destroyed && !body.readableEnded) {
        // A reply complete at `[DONE]` whose response is still ending (see `drainFor`): a server ends it within
        // milliseconds, and its socket is then free for this request. One that holds it open is not waited for long.
        await new Promise((resolve) => {
          const timer = setTimeout(resolve, DRAIN_WAIT_MS);
          body.once('close', () => {
            clearTimeout(timer);
            resolve(undefined);
          });
        });
      }
      if (body.destroyed || body.readableEnded) {
        await new Promise((resolve) => setImmediate(resolve));
        return;
      }
    }
  }

  private async finish(req: HttpRequest, url: URL, res: Dispatcher.ResponseData): Promise<HttpResponse> {
    const headers = flattenHeaders(res.headers);
    if (res.statusCode >= 200 && res.statusCode < 300) {
      return wrapResponse(res, headers, req.signal, this.scrubber);
    }
    const text = await readText(decodedBody(res.body, headers['content-encoding']), 64 * 1024).catch(() => '');
    // Servers echo the key they were sent ("Incorrect API key provided: …"): scrubbed before it becomes a sentence.
    const error = errorFromResponse(res.statusCode, headers, text, req.keyKind, (t) => this.scrubber.scrub(t));
    this.log.warn(`${req.method} ${pathOf(url)}: ${error.message}`);
    throw error;
  }

  /** The connection pool for a URL; with a guard, a direct connection resolves names through the guard. */
  private dispatcherFor(url: URL, settings: HttpSettings, guard?: FetchGuard): Dispatcher {
    const proxyUrl = proxyFor(url, settings.proxy);
    const systemCertificates = settings.systemCertificates !== false;
    const proxyAuthorization = proxyUrl ? settings.proxy.authorization?.trim() || undefined : undefined;
    // One pool per proxy and TLS configuration (not per request), so keep-alive connections are reused.
    // A guarded pool (public fetches) resolves names through the guard on direct connections.
    const guarded = guard && !proxyUrl ? [guard.allowedOrigin ?? ''] : [];
    const lookup = guard && !proxyUrl ? guardedLookup(guard, settings.lookup) : settings.lookup;
    const cacheKey = JSON.stringify([
      proxyUrl ?? '',
      proxyAuthorization ?? '',
      settings.proxy.strictSSL,
      settings.timeoutMs,
      systemCertificates,
      ...guarded,
    ]);
    let dispatcher = this.dispatchers.get(cacheKey);
    if (!dispatcher) {
      const ca = trustedCertificates(this.caSource, systemCertificates);
      dispatcher = createDispatcher({
        proxyUrl,
        proxyAuthorization,
        strictSSL: settings.proxy.strictSSL,
        timeoutMs: settings.timeoutMs,
        ca,
        lookup,
      });
      // Never the proxy's credentials or its authorization: only where connections go and what they trust.
      const route = proxyUrl ? `through the proxy ${proxyHost(proxyUrl)}` : 'direct';
      const trust = ca ? `Node's and the system's ${ca.length} CAs` : "Node's CAs";
      this.log.info(`New connection pool: ${route}, trusting ${trust}.`);
      this.dispatchers.set(cacheKey, dispatcher);
    }
    return dispatcher;
  }
}

/**
 * A public fetch by host name through a proxy is refused: the proxy resolves the name again (or, for SOCKS4, this
 * extension does, outside the guard), so the check for private addresses could be answered one address and the
 * connection another. An address written as such, or the service's own origin, is allowed.
 */
function refuseNameThroughProxy(url: URL, settings: HttpSettings, guard: FetchGuard): void {
  if (proxyFor(url, settings.proxy) && !ipLiteralOf(url) && url.origin !== guard.allowedOrigin) {
    throw new ServiceError(
      'badRequest',
      l10n.t(
        '{0} is not loaded through the proxy in "http.proxy": the proxy would look up its name again, past the check that keeps images off this computer and private networks.',
        url.host,
      ),
    );
  }
}

/** Path and query of a URL, for logs (never holds a key: keys travel only in headers). */
export function pathOf(url: URL): string {
  return `${url.pathname}${url.search}`;
}
