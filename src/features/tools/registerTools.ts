import * as vscode from 'vscode';
import { describeError } from '../../core/service/errors';
import type { Services } from '../../host/services';
import { createToolRunner, registerLanguageModelTools } from './axoLanguageModelTools';
import { AxoMcpProvider, MCP_PROVIDER_ID } from './axoMcpProvider';
import { copyMcpConfig } from './mcpClientConfig';
import { agentToolsApi, type AgentToolsApi } from './toolsApi';

/**
 * AXO for agents: the three encyclopedia tools in VS Code's chat (`vscode.lm.registerTool`), the MCP server inside
 * VS Code (`vscode.lm.registerMcpServerDefinitionProvider`), and `axo.copyMcpConfig` for clients outside it. Each
 * API is feature-detected: on a VS Code without it nothing of it is registered and nothing else changes.
 * `alphaAxo.agentTools.enabled` (application scope) turns the tools and the server off.
 */
export function registerTools(services: Services, api: AgentToolsApi = agentToolsApi()): void {
  const { context, log, settings } = services;
  context.subscriptions.push(vscode.commands.registerCommand('axo.copyMcpConfig', () => copyMcpConfig(services)));
  const runner = createToolRunner(services);

  const { tools, mcp } = api;
  let registered: vscode.Disposable | undefined;
  const followSetting = (): void => {
    if (!tools) {
      return;
    }
    if (settings.agentToolsEnabled && !registered) {
      try {
        registered = registerLanguageModelTools(runner, tools);
        log.info('Agent tools: axo_ask, axo_search and axo_article registered.');
      } catch (error) {
        log.warn(`Agent tools: not registered: ${describeError(error)}`);
      }
    } else if (!settings.agentToolsEnabled && registered) {
      registered.dispose();
      registered = undefined;
      log.info('Agent tools: turned off by alphaAxo.agentTools.enabled.');
    }
  };
  if (tools) {
    followSetting();
    context.subscriptions.push({ dispose: () => registered?.dispose() });
  } else {
    log.info('Agent tools: this VS Code has no language model tool API; the AXO tools are not available.');
  }

  let provider: AxoMcpProvider | undefined;
  if (mcp) {
    try {
      provider = new AxoMcpProvider(services, runner, mcp);
      context.subscriptions.push(provider, mcp.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, provider));
      log.info('Agent tools: the AXO MCP server is offered to VS Code.');
    } catch (error) {
      log.warn(`Agent tools: the MCP server definition provider was not registered: ${describeError(error)}`);
    }
  } else {
    log.info('Agent tools: this VS Code has no MCP server definition API; the in-editor MCP server is not offered.');
  }

  if (tools || provider) {
    context.subscriptions.push(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('alphaAxo.agentTools.enabled')) {
          followSetting();
          provider?.settingChanged();
        }
      }),
    );
  }
}
