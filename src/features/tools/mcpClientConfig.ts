import * as vscode from 'vscode';
import { MIN_NODE_VERSION, STDIO_ENV_NAMES, mcpClientConfig } from '../../core/mcp/stdioEnv';
import type { Services } from '../../host/services';

/**
 * `axo.copyMcpConfig`: puts the configuration of the stdio MCP server of this installed version on the clipboard
 * (its path changes with every version) and says what to fill in. It holds no key.
 */
export async function copyMcpConfig(services: Services): Promise<void> {
  await vscode.env.clipboard.writeText(
    mcpClientConfig(services.context.extensionUri.fsPath, services.settings.baseUrl),
  );
  void vscode.window.showInformationMessage(
    vscode.l10n.t(
      'Copied the AXO MCP server configuration for Cline, Kilo and other MCP clients (Node {0} or later). Put your encyclopedia key in {1}: the copy holds no key.',
      MIN_NODE_VERSION,
      STDIO_ENV_NAMES.key,
    ),
  );
}
