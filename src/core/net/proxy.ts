/** Proxy settings, merged by the host from VS Code's `http.*` settings and the environment. */
export interface ProxySettings {
  /** `http://`, `https://`, `socks5://` or `socks5h://` `[user:pass@]host:port`; empty for none. */
  url?: string;
  /** `http.proxyAuthorization`: sent as the Proxy-Authorization header to the proxy; never logged. */
  authorization?: string;
  /** Verify TLS certificates (`http.proxyStrictSSL`). */
  strictSSL: boolean;
  /** Hosts that bypass the proxy: `example.com`, `.example.com`, `*.example.com`, `host:port`, `*`. */
  noProxy: string[];
}

/** Parses a `NO_PROXY`-style list (commas or spaces). */
export function parseNoProxy(value: string | undefined): string[] {
  return (value ?? '')
    .split(/[,\s]+/)
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
}

/** The proxy URL to use for `target`, or undefined to connect directly. */
export function proxyFor(target: URL, settings: ProxySettings): string | undefined {
  const proxy = settings.url?.trim();
  if (!proxy) {
    return undefined;
  }
  const host = target.hostname.toLowerCase().replace(/^\[|\]$/g, '');
  const port = target.port || (target.protocol === 'https:' ? '443' : '80');
  for (const entry of settings.noProxy) {
    if (entry === '*') {
      return undefined;
    }
    const [entryHost, entryPort] = splitHostPort(entry);
    if (entryPort && entryPort !== port) {
      continue;
    }
    const bare = entryHost.replace(/^\*?\./, '');
    if (host === bare || host.endsWith(`.${bare}`)) {
      return undefined;
    }
  }
  return proxy;
}

function splitHostPort(entry: string): [string, string | undefined] {
  const v6 = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (v6) {
    return [v6[1], v6[2]];
  }
  const parts = entry.split(':');
  return parts.length === 2 && /^\d+$/.test(parts[1]) ? [parts[0], parts[1]] : [entry, undefined];
}

/** Hides the password of a proxy URL, for logs. */
export function redactProxyUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) {
      parsed.password = '***';
    }
    if (parsed.username) {
      parsed.username = '***';
    }
    return parsed.toString();
  } catch {
    return '(unparsable proxy URL)';
  }
}
