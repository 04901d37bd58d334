/*
 * The second entry point (`dist/mcpServer.js`). Run by Node it is the AXO MCP server over stdio, for agents outside
 * VS Code (Cline, Kilo, any MCP client): `node <extension>/dist/mcpServer.js`, configured by environment variables
 * (see `STDIO_ENV`). Loaded by the extension it provides the MCP server of the extension host, so the MCP SDK is
 * bundled once, here, and loaded only when a client first asks for the server.
 */
import { version } from '../package.json';
import { MIN_NODE_VERSION } from './core/mcp/stdioEnv';
import { runStdioServer } from './core/mcp/stdioServer';

export { startMcpHttpServer } from './core/mcp/mcpHttpServer';

function nodeIsRecentEnough(running: string): boolean {
  const parts = running.replace(/^v/, '').split('.').map(Number);
  const least = MIN_NODE_VERSION.split('.').map(Number);
  for (let i = 0; i < least.length; i++) {
    if ((parts[i] ?? 0) !== least[i]) {
      return (parts[i] ?? 0) > least[i];
    }
  }
  return true;
}

if (require.main === module) {
  if (!nodeIsRecentEnough(process.version)) {
    process.stderr.write(`The AXO MCP server needs Node ${MIN_NODE_VERSION} or later; this is ${process.version}.\n`);
    process.exit(1);
  }
  runStdioServer({ version }).then(
    (stop) => {
      const end = () => void stop().finally(() => process.exit(0));
      process.stdin.once('end', end);
      process.once('SIGTERM', end);
      process.once('SIGINT', end);
    },
    (error: unknown) => {
      process.stderr.write(
        `The AXO MCP server could not start: ${error instanceof Error ? error.message : String(error)}\n`,
      );
      process.exit(1);
    },
  );
}
