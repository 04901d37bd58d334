import type { LookupFunction } from 'node:net';
import * as tls from 'node:tls';
import { Agent, ProxyAgent, Socks5ProxyAgent, buildConnector, type Dispatcher } from 'undici';
import { ServiceError } from '../service/errors';
import * as l10n from '@vscode/l10n';
import { socks4Connector } from './socks4';

/** What one connection pool is built from: everything that changes how a socket is opened. */
export interface DispatcherOptions {
  /** The proxy to go through (http, https, socks5 or socks5h), or undefined to connect directly. */
  proxyUrl?: string;
  /** `http.proxyAuthorization`: the Proxy-Authorization header's value (or SOCKS5 credentials as `Basic`). */
  proxyAuthorization?: string;
  strictSSL: boolean;
  timeoutMs: number;
  /** The trusted CAs, or undefined for Node's default store. */
  ca?: string[];
  lookup?: LookupFunction;
}

/** Adds `http://` to a proxy written without a scheme (`proxy.corp:3128`, as some `HTTPS_PROXY` values are). */
export function normalizeProxyUrl(raw: string): string {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `http://${raw}`;
}

/** The proxy's `host:port`, without credentials, for messages and logs. */
export function proxyHost(proxyUrl: string): string {
  try {
    const url = new URL(normalizeProxyUrl(proxyUrl));
    return `${url.protocol}//${url.host}`;
  } catch {
    return proxyUrl.replace(/\/\/[^@/]*@/, '//');
  }
}

/**
 * Builds the connection pool for one proxy and TLS configuration. HTTP(S) proxies tunnel with CONNECT; SOCKS5
 * proxies (`socks5://`, `socks5h://`, `socks://`) are asked to connect by host name, so the proxy resolves it in
 * both forms; SOCKS4 gets an IPv4 address resolved here, SOCKS4a the name. Other schemes are refused with a
 * sentence naming the setting.
 */
export function createDispatcher(options: DispatcherOptions): Dispatcher {
  const { proxyUrl, strictSSL, timeoutMs } = options;
  // Built once per pool: given a `ca` list, TLS would parse every certificate again for each new connection
  // (tens of milliseconds for a few hundred roots).
  const secureContext = options.ca ? tls.createSecureContext({ ca: options.ca }) : undefined;
  const tlsOptions = { rejectUnauthorized: strictSSL, secureContext, timeout: timeoutMs };
  const timeouts = { headersTimeout: timeoutMs, bodyTimeout: timeoutMs };
  if (!proxyUrl) {
    return new Agent({
      ...timeouts,
      connect: { timeout: timeoutMs, rejectUnauthorized: strictSSL, secureContext, lookup: options.lookup },
    });
  }
  const url = parseProxyUrl(proxyUrl);
  if (url.protocol === 'http:' || url.protocol === 'https:') {
    return new ProxyAgent({
      uri: url.href,
      ...timeouts,
      // The setting wins over credentials in the URL, as in VS Code itself.
      ...(options.proxyAuthorization ? { token: options.proxyAuthorization } : {}),
      requestTls: tlsOptions,
      proxyTls: tlsOptions,
    });
  }
  if (url.protocol === 'socks5:' || url.protocol === 'socks5h:' || url.protocol === 'socks:') {
    const socksUrl = new URL(url.href.replace(/^[a-z0-9]+:/i, 'socks5:'));
    return new Socks5ProxyAgent(socksUrl, {
      ...timeouts,
      ...basicCredentials(options.proxyAuthorization),
      connect: buildConnector({ timeout: timeoutMs }),
      requestTls: tlsOptions,
    } as Socks5ProxyAgent.Options);
  }
  if (url.protocol === 'socks4:' || url.protocol === 'socks4a:') {
    const socksTls = { rejectUnauthorized: strictSSL, secureContext };
    return new Agent({ ...timeouts, connect: socks4Connector({ proxy: url, timeoutMs, tls: socksTls }) });
  }
  throw new ServiceError(
    'network',
    l10n.t(
      'The proxy {0} in "http.proxy" is not an http://, https://, socks5:// or socks4:// proxy.',
      proxyHost(proxyUrl),
    ),
  );
}

function parseProxyUrl(proxyUrl: string): URL {
  try {
    return new URL(normalizeProxyUrl(proxyUrl));
  } catch (error) {
    throw new ServiceError('network', l10n.t('The proxy in "http.proxy" is not a valid URL.'), { cause: error });
  }
}

/** SOCKS5 has user name and password, not headers: a `Basic` proxy authorization is read as those. */
function basicCredentials(authorization: string | undefined): { username?: string; password?: string } {
  const token = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization ?? '')?.[1];
  if (!token) {
    return {};
  }
  const decoded = Buffer.from(token, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? {} : { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}
