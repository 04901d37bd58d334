import { parseIpv4, parseIpv6 } from './netAddress';
import { proxyFor, type ProxySettings } from './proxy';

/**
 * What is about to carry a key, when it is less than a verified TLS connection: plain http to a host that is not
 * this computer (the key and the prompts readable on the network), or TLS whose certificate is not checked
 * (`http.proxyStrictSSL: false`, which VS Code applies to direct connections too).
 */
export interface KeyRoute {
  url: URL;
  /** `http://` to a host that is not a loopback address. */
  plainHttp: boolean;
  /** `https://` (or an `https://` proxy) with certificate checks off. */
  unverifiedTls: boolean;
}

/**
 * Asked before a key leaves for a route that is not a verified TLS connection: resolves to the URL to send to (the
 * same, or its `https://` form), or rejects, and then nothing is sent.
 */
export type KeyGate = (route: KeyRoute) => Promise<URL>;

/** Whether a URL's host is this computer: `localhost` (and `*.localhost`), 127.0.0.0/8, `::1`. */
export function isLoopbackHost(url: URL): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) {
    return true;
  }
  const v4 = parseIpv4(host);
  if (v4) {
    return v4[0] === 127;
  }
  const v6 = parseIpv6(host);
  if (!v6) {
    return false;
  }
  const loopback = v6.slice(0, 15).every((b) => b === 0) && v6[15] === 1;
  // ::ffff:127.x.x.x, the IPv4 loopback mapped into IPv6.
  const mapped = v6.slice(0, 10).every((b) => b === 0) && v6[10] === 0xff && v6[11] === 0xff && v6[12] === 127;
  return loopback || mapped;
}

/** The route a key would take to `url` with these proxy settings, when it needs asking about; else undefined. */
export function keyRouteOf(url: URL, proxy: ProxySettings): KeyRoute | undefined {
  const viaProxy = proxyFor(url, proxy);
  // Plain http through an http:// proxy on another computer travels in clear to that proxy, loopback target or not.
  const plainHttp = url.protocol === 'http:' && (!isLoopbackHost(url) || remotePlainProxy(viaProxy));
  const tls = url.protocol === 'https:' || (viaProxy?.startsWith('https:') ?? false);
  const unverifiedTls = proxy.strictSSL === false && tls;
  return plainHttp || unverifiedTls ? { url, plainHttp, unverifiedTls } : undefined;
}

/** Whether a proxy URL is plain `http://` to a host that is not this computer. */
function remotePlainProxy(proxyUrl: string | undefined): boolean {
  if (!proxyUrl) {
    return false;
  }
  try {
    const parsed = new URL(proxyUrl);
    return parsed.protocol === 'http:' && !isLoopbackHost(parsed);
  } catch {
    return false;
  }
}
