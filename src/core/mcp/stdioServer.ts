import { homedir } from 'node:os';
import * as path from 'node:path';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CacheSnapshotFile } from '../encyclopedia/cacheSnapshotFile';
import { fetchLookup } from '../encyclopedia/encyclopediaStore';
import { LookupCache } from '../encyclopedia/lookupCache';
import { isLookupValue, lookupKey, type LookupRequest, type LookupValue } from '../encyclopedia/lookupTypes';
import type { Logger } from '../logger';
import { HttpClient } from '../net/http';
import type { KeyGate } from '../net/keyRoute';
import { parseNoProxy } from '../net/proxy';
import { AxoClient } from '../service/axoClient';
import { parseBaseUrl } from '../service/baseUrl';
import { ServiceError, describeError } from '../service/errors';
import { SecretScrubber } from '../service/secretScrubber';
import { AxoToolRunner } from './axoToolRunner';
import { STDIO_ENV_NAMES } from './stdioEnv';
import { createAxoMcpServer } from './mcpServer';

/** How long a cached lookup is served (the extension's default `alphaAxo.encyclopedia.cacheTtlHours`). */
const CACHE_TTL_MS = 24 * 60 * 60 * 1000;
/** Most entries of the server's cache. */
export const STDIO_CACHE_CAPACITY = 500;
/** Most characters of JSON the cache's entries hold together (its file is about this size at most). */
export const STDIO_CACHE_MAX_CHARS = 32 * 1024 * 1024;

/** The server's lookup cache, bounded by entries and by characters (least recently used go first). */
export function stdioLookupCache(): LookupCache<LookupValue> {
  return new LookupCache<LookupValue>({
    capacity: STDIO_CACHE_CAPACITY,
    maxChars: STDIO_CACHE_MAX_CHARS,
    ttlMs: () => CACHE_TTL_MS,
  });
}

/** How long the server waits for the service (connect, first byte, every gap). */
const TIMEOUT_MS = 60_000;

/**
 * The cache file of the stdio server: `$AXO_CACHE_DIR/mcp-cache.json`, else in the user's cache folder
 * (`%LOCALAPPDATA%\alpha-axo` on Windows, `~/Library/Caches/alpha-axo` on macOS, `$XDG_CACHE_HOME/alpha-axo` or
 * `~/.cache/alpha-axo` elsewhere).
 */
export function cacheFile(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string {
  const home = homedir();
  const dir =
    env[STDIO_ENV_NAMES.cacheDir]?.trim() ||
    (platform === 'win32'
      ? path.join(env.LOCALAPPDATA || path.join(home, 'AppData', 'Local'), 'alpha-axo')
      : platform === 'darwin'
        ? path.join(home, 'Library', 'Caches', 'alpha-axo')
        : path.join(env.XDG_CACHE_HOME || path.join(home, '.cache'), 'alpha-axo'));
  return path.join(dir, 'mcp-cache.json');
}

/** Throws a `config` error naming the variable when the base URL is missing or not an http(s) URL. */
function checkBaseUrl(raw: string | undefined): void {
  const name = STDIO_ENV_NAMES.baseUrl;
  if (!raw?.trim()) {
    throw new ServiceError(
      'config',
      `${name} is not set: set it to the service's base URL in this MCP server's configuration.`,
    );
  }
  try {
    parseBaseUrl(raw);
  } catch {
    throw new ServiceError(
      'config',
      `${name} is not an http:// or https:// URL without a user name: fix it in this MCP server's configuration.`,
    );
  }
}

/**
 * The stdio server's key gate: nobody is there to ask, so plain http to another computer (or through a plain http
 * proxy on one), where the key would be readable on the network, is refused with a line on stderr, unless
 * `AXO_ALLOW_PLAIN_HTTP=1` allows it (then said once on stderr too).
 */
export function stdioKeyGate(env: NodeJS.ProcessEnv, log: Logger): KeyGate {
  let said = false;
  return async (route) => {
    if (!route.plainHttp) {
      return route.url;
    }
    const where = `${route.url.protocol}//${route.url.host}`;
    if (env[STDIO_ENV_NAMES.allowPlainHttp]?.trim() === '1') {
      if (!said) {
        said = true;
        log.warn(
          `The encyclopedia key is sent over plain http to ${where}, as ${STDIO_ENV_NAMES.allowPlainHttp}=1 allows.`,
        );
      }
      return route.url;
    }
    const message =
      `Refused: the encyclopedia key would travel in clear over plain http to ${where} (or through a plain http ` +
      `proxy). Use an https:// ${STDIO_ENV_NAMES.baseUrl}, or set ${STDIO_ENV_NAMES.allowPlainHttp}=1 to allow it.`;
    log.error(message);
    throw new ServiceError('config', message);
  };
}

/** A logger to stderr (stdout carries the protocol), with every key the session knows removed. */
function stderrLogger(scrubber: SecretScrubber, stream: NodeJS.WritableStream): Logger {
  const write = (level: string) => (message: string) => void stream.write(`[${level}] ${scrubber.scrub(message)}\n`);
  return {
    trace: () => undefined,
    debug: () => undefined,
    info: write('info'),
    warn: write('warn'),
    error: write('error'),
  };
}

/** Options of `runStdioServer` (the process's by default). */
export interface StdioServerOptions {
  env?: NodeJS.ProcessEnv;
  version: string;
  stdin?: NodeJS.ReadableStream;
  stdout?: NodeJS.WritableStream;
  stderr?: NodeJS.WritableStream;
}

/**
 * The MCP server over stdio, for agents outside VS Code: the key from `AXO_API_KEY`, the service from
 * `AXO_BASE_URL`, proxies from `HTTPS_PROXY` / `HTTP_PROXY` / `NO_PROXY`, lookups through a cache of its own
 * (`cacheFile`). Resolves once it is serving; the returned function stops it.
 */
export async function runStdioServer(options: StdioServerOptions): Promise<() => Promise<void>> {
  const env = options.env ?? process.env;
  const scrubber = new SecretScrubber().add(env[STDIO_ENV_NAMES.key]);
  const log = stderrLogger(scrubber, options.stderr ?? process.stderr);
  const proxyUrl = env.HTTPS_PROXY ?? env.https_proxy ?? env.HTTP_PROXY ?? env.http_proxy;
  const http = new HttpClient(
    () => ({
      timeoutMs: TIMEOUT_MS,
      proxy: {
        url: proxyUrl?.trim() || undefined,
        strictSSL: true,
        noProxy: parseNoProxy(env.NO_PROXY ?? env.no_proxy),
      },
      systemCertificates: true,
    }),
    log,
    { scrubber, keyGate: stdioKeyGate(env, log) },
  );
  const client = new AxoClient({
    http,
    baseUrl: () => env[STDIO_ENV_NAMES.baseUrl],
    keys: (kind) => Promise.resolve(kind === 'encyclopedia' ? env[STDIO_ENV_NAMES.key] : undefined),
    log,
  });
  // A folder the user named may be shared: the server tightens only folders it creates.
  const file = new CacheSnapshotFile(cacheFile(env), isLookupValue, { tightenExistingFolder: false });
  const cache = stdioLookupCache();
  const loaded = file.load().then(({ entries }) => void cache.restore(entries));
  const fetchValue = async (request: LookupRequest, signal: AbortSignal): Promise<LookupValue> => {
    checkBaseUrl(env[STDIO_ENV_NAMES.baseUrl]);
    return fetchLookup(client, request, signal);
  };
  let saving = Promise.resolve();
  const runner = new AxoToolRunner({
    lookup: async (request, signal) => {
      await loaded;
      const result = await cache.fetch(lookupKey(request), (inner) => fetchValue(request, inner), { signal });
      if (!result.cached) {
        // One write at a time, each of the cache as it is then.
        saving = saving
          .then(() => file.save(cache.snapshot()))
          .catch((error: unknown) => log.warn(`Could not write the cache: ${describeError(error)}`));
      }
      return result.value;
    },
    model: () => env[STDIO_ENV_NAMES.model]?.trim() || 'axo',
    keyAdvice: `the ${STDIO_ENV_NAMES.key} environment variable in this MCP server's configuration`,
    scrubKeys: (text) => scrubber.scrub(text),
  });
  const server = createAxoMcpServer(runner, options.version);
  const transport = new StdioServerTransport(options.stdin as never, options.stdout as never);
  await server.connect(transport);
  log.info(`AXO MCP server ${options.version} on stdio; cache at ${file.path}.`);
  return async () => {
    cache.abortAll();
    await server.close();
    await saving;
    await http.dispose();
  };
}
