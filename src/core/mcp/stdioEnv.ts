/** The environment variables the stdio MCP server reads (documented in the README). */
export const STDIO_ENV_NAMES = {
  /** The encyclopedia key (required). */
  key: 'AXO_API_KEY',
  /** The service's base URL, as `alphaAxo.baseUrl` takes it (required). */
  baseUrl: 'AXO_BASE_URL',
  /** The encyclopedia model `axo_ask` uses (default `axo`). */
  model: 'AXO_MODEL',
  /** The folder of the cache file (default: the user's cache folder). */
  cacheDir: 'AXO_CACHE_DIR',
} as const;
