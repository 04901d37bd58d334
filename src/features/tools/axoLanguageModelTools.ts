import * as vscode from 'vscode';
import { AXO_TOOL_NAMES } from '../../core/mcp/axoToolSpecs';
import { AxoToolRunner, type ToolLookups } from '../../core/mcp/axoToolRunner';
import { abortOnCancel } from '../../host/disposables';
import type { Services } from '../../host/services';
import type { AgentToolsApi, LanguageModelTool, LanguageModelToolResult } from './toolsApi';

/**
 * The runner behind the tools and the in-host MCP server: lookups through the encyclopedia's cache for tools (the
 * user's fresh results are reused; nothing becomes a hover term or reveals the Encyclopedia view), the model of
 * `alphaAxo.encyclopedia.model`, and only the encyclopedia key (never the billed chat key).
 */
export function createToolRunner(services: Services): AxoToolRunner {
  return new AxoToolRunner(toolLookups(services));
}

/** Where the tools' lookups come from (see {@link createToolRunner}); our chat's AXO tools run on the same. */
export function toolLookups(services: Services): ToolLookups {
  const { encyclopedia: store, settings, scrubber } = services;
  return {
    lookup: (request, signal) => store.lookupForTool(request, signal),
    model: () => settings.encyclopediaModel,
    aboutArticle: (question) => store.articlesNamedIn(question, 1)[0]?.title,
    keyAdvice: vscode.l10n.t('the command “AXO: Set Encyclopedia API Key”'),
    scrubKeys: (text) => scrubber.scrub(text),
  };
}

/** One AXO tool as VS Code's chat calls it. */
class AxoLanguageModelTool implements LanguageModelTool<unknown> {
  constructor(
    private readonly name: string,
    private readonly runner: AxoToolRunner,
    private readonly api: NonNullable<AgentToolsApi['tools']>,
  ) {}

  /** "Looking up “…” in AXO", with no confirmation: the lookup is free and reads nothing local. */
  prepareInvocation(options: { readonly input: unknown }): { invocationMessage: string } {
    return { invocationMessage: this.runner.invocationMessage(this.name, options.input) };
  }

  /** Runs the lookup; VS Code's cancellation aborts the request. A failure is a result holding one sentence. */
  async invoke(
    options: { readonly input: unknown },
    token: vscode.CancellationToken,
  ): Promise<LanguageModelToolResult> {
    const controller = new AbortController();
    const link = abortOnCancel(token, controller);
    try {
      const outcome = await this.runner.run(this.name, options.input, controller.signal);
      return new this.api.ToolResult([new this.api.TextPart(outcome.text)]);
    } finally {
      link.dispose();
    }
  }
}

/** Registers `axo_ask`, `axo_search` and `axo_article` with `vscode.lm`; disposing unregisters them. */
export function registerLanguageModelTools(
  runner: AxoToolRunner,
  api: NonNullable<AgentToolsApi['tools']>,
): vscode.Disposable {
  return vscode.Disposable.from(
    ...AXO_TOOL_NAMES.map((name) => api.lm.registerTool(name, new AxoLanguageModelTool(name, runner, api))),
  );
}
