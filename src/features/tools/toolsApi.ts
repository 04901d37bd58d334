import * as vscode from 'vscode';

/*
 * The shapes of VS Code's language-model tool and MCP server definition APIs that this extension uses. Both came after
 * VS Code 1.90, the `engines.vscode` floor at which `@types/vscode` is pinned, so they are declared here and detected
 * at run time: on a VS Code without them `agentToolsApi()` returns undefined members and nothing is registered.
 * Shapes as in vscode.d.ts: `lm.registerTool` and `LanguageModelToolResult` since 1.95, `lm.registerMcpServer
 * DefinitionProvider` and `McpHttpServerDefinition` since 1.101.
 */

/** `vscode.LanguageModelToolInvocationOptions<T>` (what we read of it). */
export interface LanguageModelToolInvocationOptions<T> {
  readonly input: T;
}

/** `vscode.LanguageModelToolInvocationPrepareOptions<T>`. */
export interface LanguageModelToolInvocationPrepareOptions<T> {
  readonly input: T;
}

/** `vscode.PreparedToolInvocation` (no confirmation: our tools read nothing local and cost nothing). */
export interface PreparedToolInvocation {
  invocationMessage?: string | vscode.MarkdownString;
}

/** `vscode.LanguageModelToolResult`: content parts (`LanguageModelTextPart`s here). */
export interface LanguageModelToolResult {
  readonly content: readonly unknown[];
}

/** `vscode.LanguageModelTool<T>`. */
export interface LanguageModelTool<T> {
  invoke(
    options: LanguageModelToolInvocationOptions<T>,
    token: vscode.CancellationToken,
  ): vscode.ProviderResult<LanguageModelToolResult>;
  prepareInvocation?(
    options: LanguageModelToolInvocationPrepareOptions<T>,
    token: vscode.CancellationToken,
  ): vscode.ProviderResult<PreparedToolInvocation>;
}

/** `vscode.LanguageModelToolInformation`. */
export interface LanguageModelToolInformation {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: object | undefined;
  readonly tags: readonly string[];
}

/** `vscode.McpHttpServerDefinition`. */
export interface McpHttpServerDefinition {
  readonly label: string;
  uri: vscode.Uri;
  headers: Record<string, string>;
  version?: string;
}

/** `vscode.McpServerDefinitionProvider<McpHttpServerDefinition>`. */
export interface McpServerDefinitionProvider {
  readonly onDidChangeMcpServerDefinitions?: vscode.Event<void>;
  provideMcpServerDefinitions(token: vscode.CancellationToken): vscode.ProviderResult<McpHttpServerDefinition[]>;
  resolveMcpServerDefinition?(
    server: McpHttpServerDefinition,
    token: vscode.CancellationToken,
  ): vscode.ProviderResult<McpHttpServerDefinition>;
}

/** The parts of `vscode.lm` for tools. */
export interface LmToolsNamespace {
  readonly tools: readonly LanguageModelToolInformation[];
  registerTool<T>(name: string, tool: LanguageModelTool<T>): vscode.Disposable;
}

/** The part of `vscode.lm` for MCP servers. */
export interface LmMcpNamespace {
  registerMcpServerDefinitionProvider(id: string, provider: McpServerDefinitionProvider): vscode.Disposable;
}

/** What the running VS Code has; each member is undefined when it lacks it. */
export interface AgentToolsApi {
  /** Tools: `lm.registerTool` with `LanguageModelToolResult` and `LanguageModelTextPart`. */
  tools?: {
    lm: LmToolsNamespace;
    ToolResult: new (content: unknown[]) => LanguageModelToolResult;
    TextPart: new (value: string) => unknown;
  };
  /** MCP servers: `lm.registerMcpServerDefinitionProvider` with `McpHttpServerDefinition`. */
  mcp?: {
    lm: LmMcpNamespace;
    HttpDefinition: new (
      label: string,
      uri: vscode.Uri,
      headers?: Record<string, string>,
      version?: string,
    ) => McpHttpServerDefinition;
  };
}

/** Detects the tool and MCP APIs on `api` (the `vscode` module unless a test passes another). */
export function agentToolsApi(api: unknown = vscode): AgentToolsApi {
  const v = api as {
    lm?: Partial<LmToolsNamespace & LmMcpNamespace>;
    LanguageModelToolResult?: unknown;
    LanguageModelTextPart?: unknown;
    McpHttpServerDefinition?: unknown;
  };
  const fn = (value: unknown): boolean => typeof value === 'function';
  const lm = v.lm;
  return {
    tools:
      lm && fn(lm.registerTool) && fn(v.LanguageModelToolResult) && fn(v.LanguageModelTextPart)
        ? {
            lm: lm as LmToolsNamespace,
            ToolResult: v.LanguageModelToolResult as new (content: unknown[]) => LanguageModelToolResult,
            TextPart: v.LanguageModelTextPart as new (value: string) => unknown,
          }
        : undefined,
    mcp:
      lm && fn(lm.registerMcpServerDefinitionProvider) && fn(v.McpHttpServerDefinition)
        ? {
            lm: lm as LmMcpNamespace,
            HttpDefinition: v.McpHttpServerDefinition as NonNullable<AgentToolsApi['mcp']>['HttpDefinition'],
          }
        : undefined,
  };
}
