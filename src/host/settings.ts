import * as vscode from 'vscode';
import type { HttpSettings } from '../core/net/http';
import { parseNoProxy, type ProxySettings } from '../core/net/proxy';
import { TOOL_ACCESS_LEVELS, isToolAccess, type ToolAccess } from '../core/chat/tools/chatTool';

const SECTION = 'alphaAxo';

/** Typed access to the extension's settings, read fresh each time. */
export class Settings {
  constructor(private readonly env: NodeJS.ProcessEnv = process.env) {}

  /**
   * The service URL, from the user's settings only (application scope: the same in every window, remote ones
   * included, where a machine-scoped value in the local user settings would not be read). A workspace's
   * `.vscode/settings.json` is ignored on purpose: a cloned repository must not send the user's keys to its own server.
   */
  get baseUrl(): string | undefined {
    return userValue<string>('baseUrl');
  }

  /**
   * `alphaAxo.agentTools.enabled`: the AXO tools and MCP server for agents. From the user's settings only (application
   * scope): a repository may not turn on what reaches the service.
   */
  get agentToolsEnabled(): boolean {
    return userValue<boolean>('agentTools.enabled') !== false;
  }

  /** `alphaAxo.chat.model`, from the user's settings only (a repository must not pick the billed model). */
  get chatModel(): string {
    const value = userValue<unknown>('chat.model');
    return (typeof value === 'string' && value.trim()) || 'alpha';
  }

  get chatStream(): boolean {
    return this.read('chat.stream', true);
  }

  /**
   * `alphaAxo.chat.inrPerMillionInputTokens` and `…OutputTokens`: the chat model's price in INR per million tokens,
   * as the user's dashboard shows it (the spec publishes none). Unset (or not a number of at least 0): no cost shown.
   * From the user's settings only: a repository must not hide the cost.
   */
  get chatPrices(): { input?: number; output?: number } {
    const price = (key: string) => {
      const value = userValue<unknown>(key);
      return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
    };
    return { input: price('chat.inrPerMillionInputTokens'), output: price('chat.inrPerMillionOutputTokens') };
  }

  /** `alphaAxo.chat.queuePrompts`: a prompt sent while a reply streams waits its turn (false: no sending then). */
  get chatQueuePrompts(): boolean {
    return this.read<boolean>('chat.queuePrompts', true) !== false;
  }

  /**
   * `alphaAxo.chat.workspaceInstructions`: send the repository's instructions (AGENTS.md, .alpha/instructions.md)
   * with each request. Application-scoped (it decides what is sent), so only the user's own value counts: a
   * repository cannot turn its own instructions on.
   */
  get workspaceInstructions(): boolean {
    const info = vscode.workspace.getConfiguration(SECTION).inspect<boolean>('chat.workspaceInstructions');
    return (info?.globalValue ?? info?.defaultValue ?? true) !== false;
  }

  /**
   * `alphaAxo.chat.groundWithAxo`: the grounding default of conversations that have not chosen for themselves, from
   * the user's settings only (grounding sends the question to AXO).
   */
  get chatGroundWithAxo(): boolean {
    return userValue<unknown>('chat.groundWithAxo') === true;
  }

  /**
   * `alphaAxo.chat.toolCalling`: ALPHA may call tools (Agent mode, and our chat). From the user's settings only: a
   * repository may not turn on what reaches the service.
   */
  get chatToolCalling(): boolean {
    return userValue<unknown>('chat.toolCalling') !== false;
  }

  /**
   * `alphaAxo.chat.tools`: what ALPHA may use in a conversation that has not chosen. A workspace (or folder) value
   * may lower the user's level, never raise it: what leaves the machine and what may be proposed is the user's to
   * decide, while a repository may still ask for less.
   */
  get chatToolAccess(): ToolAccess {
    const info = vscode.workspace.getConfiguration(SECTION).inspect<unknown>('chat.tools');
    const user = [info?.globalValue, info?.defaultValue].find(isToolAccess) ?? 'read';
    const workspace = [info?.workspaceFolderValue, info?.workspaceValue].find(isToolAccess);
    const rank = (level: ToolAccess) => TOOL_ACCESS_LEVELS.indexOf(level);
    return workspace !== undefined && rank(workspace) < rank(user) ? workspace : user;
  }

  /** `alphaAxo.chat.toolCallsPerReply` (1–25, default 8), from the user's settings only: each call is billed. */
  get chatToolCallsPerReply(): number {
    const value = userValue<unknown>('chat.toolCallsPerReply');
    return typeof value === 'number' && Number.isFinite(value) ? Math.min(25, Math.max(1, Math.round(value))) : 8;
  }

  /** `alphaAxo.encyclopedia.model`, from the user's settings only. */
  get encyclopediaModel(): string {
    const value = userValue<unknown>('encyclopedia.model');
    return (typeof value === 'string' && value.trim()) || 'axo';
  }

  get timeoutMs(): number {
    const seconds = Number(this.read('requestTimeoutSeconds', 60));
    return Math.round(Math.min(600, Math.max(1, Number.isFinite(seconds) ? seconds : 60)) * 1000);
  }

  /** Proxy from VS Code's `http.*` settings, else `HTTPS_PROXY`/`HTTP_PROXY`; `NO_PROXY` joins `http.noProxy`. */
  get proxy(): ProxySettings {
    const http = vscode.workspace.getConfiguration('http');
    const env = this.env;
    const fromSettings = http.get<string>('proxy')?.trim();
    const fromEnv = env.HTTPS_PROXY ?? env.https_proxy ?? env.HTTP_PROXY ?? env.http_proxy;
    const authorization = http.get<string | null>('proxyAuthorization');
    return {
      url: fromSettings || fromEnv?.trim() || undefined,
      authorization: typeof authorization === 'string' && authorization.trim() ? authorization.trim() : undefined,
      strictSSL: http.get<boolean>('proxyStrictSSL', true),
      noProxy: [...(http.get<string[]>('noProxy') ?? []), ...parseNoProxy(env.NO_PROXY ?? env.no_proxy)],
    };
  }

  /** VS Code's `http.systemCertificates`: trust the operating system's certificate store (on by default). */
  get systemCertificates(): boolean {
    return vscode.workspace.getConfiguration('http').get<boolean>('systemCertificates', true) !== false;
  }

  get http(): HttpSettings {
    return { timeoutMs: this.timeoutMs, proxy: this.proxy, systemCertificates: this.systemCertificates };
  }

  /** Writes the service URL to the user settings. */
  async setBaseUrl(url: string): Promise<void> {
    await vscode.workspace.getConfiguration(SECTION).update('baseUrl', url, vscode.ConfigurationTarget.Global);
  }

  /** Writes the chat model to the user settings. */
  async setChatModel(model: string): Promise<void> {
    await vscode.workspace.getConfiguration(SECTION).update('chat.model', model, vscode.ConfigurationTarget.Global);
  }

  /** Fires when any of the extension's settings change. */
  onDidChange(listener: (e: vscode.ConfigurationChangeEvent) => void): vscode.Disposable {
    return vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(SECTION) || e.affectsConfiguration('http')) {
        listener(e);
      }
    });
  }

  private read<T>(name: string, fallback: T): T {
    return vscode.workspace.getConfiguration(SECTION).get<T>(name, fallback);
  }
}

/**
 * A setting from the user's settings only (or its default), never a workspace's: for the settings that decide where
 * requests go, which billed model is used, what the user is shown it costs and what is sent (all
 * application-scoped). A cloned repository's `.vscode/settings.json` is ignored on purpose; reading `globalValue`
 * keeps that true whatever the host does with a workspace value.
 */
export function userValue<T>(name: string): T | undefined {
  const info = vscode.workspace.getConfiguration(SECTION).inspect<T>(name);
  return info?.globalValue ?? info?.defaultValue;
}
