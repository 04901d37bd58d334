import * as path from 'node:path';
import * as vscode from 'vscode';
import { STDIO_ENV_NAMES } from '../../core/mcp/stdioEnv';
import type { Services } from '../../host/services';

/** The name of the server in the copied configuration. */
export const MCP_CONFIG_SERVER_NAME = 'axo';

/**
 * The configuration an MCP client outside VS Code (Cline, Kilo, Claude Desktop, …) needs to start the stdio server
 * of this installed version: Node, the path of `dist/mcpServer.js` and the variables it reads. The key is a
 * placeholder, never its value; the base URL is the user's `alphaAxo.baseUrl` (not a secret).
 */
export function mcpClientConfig(extensionPath: string, baseUrl: string | undefined): string {
  const config = {
    mcpServers: {
      [MCP_CONFIG_SERVER_NAME]: {
        command: 'node',
        args: [path.join(extensionPath, 'dist', 'mcpServer.js')],
        env: {
          [STDIO_ENV_NAMES.key]: '<your AXO encyclopedia API key>',
          [STDIO_ENV_NAMES.baseUrl]: baseUrl?.trim() || '<the service base URL>',
        },
      },
    },
  };
  return `${JSON.stringify(config, null, 2)}\n`;
}

/** `axo.copyMcpConfig`: puts the client configuration on the clipboard and says what to fill in. */
export async function copyMcpConfig(services: Services): Promise<void> {
  const text = mcpClientConfig(services.context.extensionUri.fsPath, services.settings.baseUrl);
  await vscode.env.clipboard.writeText(text);
  void vscode.window.showInformationMessage(
    vscode.l10n.t(
      'Copied the AXO MCP server configuration (for Cline, Kilo and other MCP clients; Node {0} or later). Put your encyclopedia key in {1}: the copy holds no key.',
      '20.18',
      STDIO_ENV_NAMES.key,
    ),
  );
}
