import * as path from 'node:path';

/** The environment variables the stdio MCP server reads (README.md lists them, under "AXO for agents"). */
export const STDIO_ENV_NAMES = {
  /** The encyclopedia key (required). */
  key: 'AXO_API_KEY',
  /** The service's base URL, as `alphaAxo.baseUrl` takes it (required). */
  baseUrl: 'AXO_BASE_URL',
  /** The encyclopedia model `axo_ask` uses (default `axo`). */
  model: 'AXO_MODEL',
  /** The folder of the cache file (default: the user's cache folder). */
  cacheDir: 'AXO_CACHE_DIR',
  /**
   * `1` lets the key travel over plain http to another computer (or through a plain http proxy on one); without it
   * the server refuses such a base URL and says why on stderr.
   */
  allowPlainHttp: 'AXO_ALLOW_PLAIN_HTTP',
} as const;

/** The oldest Node the stdio server runs on (its HTTP client, undici 7, needs it). */
export const MIN_NODE_VERSION = '20.18.1';

/** The name of the server in a client's configuration. */
export const MCP_CONFIG_SERVER_NAME = 'axo';

/** What stands in the copied configuration where the key goes: never the key's value. */
export const KEY_PLACEHOLDER = '<your AXO encyclopedia API key>';

/**
 * The configuration an MCP client outside VS Code (Cline, Kilo, Claude Desktop, …: all read `mcpServers`) needs to
 * start the stdio server of one installed version: Node, the path of its `dist/mcpServer.js` and the variables it
 * reads. The key is a placeholder; the base URL is the user's `alphaAxo.baseUrl` (not a secret).
 */
export function mcpClientConfig(extensionPath: string, baseUrl: string | undefined): string {
  const config = {
    mcpServers: {
      [MCP_CONFIG_SERVER_NAME]: {
        command: 'node',
        args: [path.join(extensionPath, 'dist', 'mcpServer.js')],
        env: {
          [STDIO_ENV_NAMES.key]: KEY_PLACEHOLDER,
          [STDIO_ENV_NAMES.baseUrl]: baseUrl?.trim() || '<the service base URL>',
        },
      },
    },
  };
  return `${JSON.stringify(config, null, 2)}\n`;
}
