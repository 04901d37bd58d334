import * as vscode from 'vscode';
import type { AxoToolRunner } from '../../core/mcp/axoToolRunner';
import type { RunningMcpServer } from '../../core/mcp/mcpHttpServer';
import { describeError } from '../../core/service/errors';
import type { Services } from '../../host/services';
import type { AgentToolsApi, McpHttpServerDefinition, McpServerDefinitionProvider } from './toolsApi';

/** The provider's id (as in package.json's `mcpServerDefinitionProviders`). */
export const MCP_PROVIDER_ID = 'alpha-axo.axo';

/** Where the server will be before it runs: its port is chosen when it starts, at resolve time. */
const NOT_STARTED = 'http://127.0.0.1/mcp';

/**
 * The AXO MCP server inside VS Code: the definition VS Code lists, and the server itself, started on 127.0.0.1 the
 * first time VS Code resolves the definition (its port and a random bearer token go into the resolved definition;
 * the key stays in the extension host), stopped when the extension deactivates or the setting turns it off.
 */
export class AxoMcpProvider implements McpServerDefinitionProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when the setting turns the server on or off. */
  readonly onDidChangeMcpServerDefinitions = this.changed.event;
  private server: Promise<RunningMcpServer> | undefined;

  constructor(
    private readonly services: Services,
    private readonly runner: AxoToolRunner,
    private readonly api: NonNullable<AgentToolsApi['mcp']>,
  ) {}

  /** One definition while `alphaAxo.agentTools.enabled` is on, none while it is off. */
  provideMcpServerDefinitions(): McpHttpServerDefinition[] {
    if (!this.services.settings.agentToolsEnabled) {
      return [];
    }
    return [
      new this.api.HttpDefinition(vscode.l10n.t('AXO Encyclopedia'), vscode.Uri.parse(NOT_STARTED), {}, this.version),
    ];
  }

  /** Starts the server (once) and hands VS Code its address and token. */
  async resolveMcpServerDefinition(definition: McpHttpServerDefinition): Promise<McpHttpServerDefinition | undefined> {
    if (!this.services.settings.agentToolsEnabled) {
      return undefined;
    }
    const running = await this.start();
    definition.uri = vscode.Uri.parse(running.url);
    definition.headers = { ...definition.headers, Authorization: `Bearer ${running.token}` };
    return definition;
  }

  /** Follows the setting: stops the server when it is turned off, and tells VS Code the list changed. */
  settingChanged(): void {
    if (!this.services.settings.agentToolsEnabled) {
      this.stop();
    }
    this.changed.fire();
  }

  /** Stops the server and its sessions. */
  dispose(): void {
    this.stop();
    this.changed.dispose();
  }

  private get version(): string {
    return String((this.services.context.extension.packageJSON as { version?: unknown }).version ?? '0');
  }

  private start(): Promise<RunningMcpServer> {
    this.server ??= (async () => {
      // Loaded on first use: the SDK lives in the stdio server's bundle (dist/mcpServer.js), see esbuild.mjs.
      const { startMcpHttpServer } = await import('../../core/mcp/mcpHttpServer');
      const running = await startMcpHttpServer({ runner: this.runner, version: this.version, log: this.services.log });
      this.services.log.info(`MCP server: listening on ${running.url}.`);
      return running;
    })();
    this.server.catch((error: unknown) => {
      this.services.log.warn(`MCP server: could not start: ${describeError(error)}`);
      this.server = undefined;
    });
    return this.server;
  }

  private stop(): void {
    const server = this.server;
    this.server = undefined;
    void server?.then(
      (running) => running.close(),
      () => undefined,
    );
  }
}
