import { axoChatSpec, lookupSources } from '../../../core/chat/tools/axoChatTools';
import type { ChatTool, ToolResult, ToolRunContext } from '../../../core/chat/tools/chatTool';
import { axoTitle } from '../../../core/chat/tools/toolTitles';
import { AxoToolRunner, checkToolInput, type ToolLookups } from '../../../core/mcp/axoToolRunner';
import { AXO_TOOL_SPECS, type AxoToolSpec } from '../../../core/mcp/axoToolSpecs';
import { describeError } from '../../../core/service/errors';
import type { Citation } from '../../../core/service/normalize';
import type { ToolSpec } from '../../../core/toolCalls/toolSpec';

/**
 * One AXO tool in our chat (`axo_ask`, `axo_search`, `axo_article`): the runner VS Code's tools and the MCP servers
 * use, on the same lookups (the encyclopedia's cache and key, never the chat key). What it looked up gives the
 * step its sources, which join the reply's numbered Sources as grounding's do. The input goes to the runner whole:
 * `axo_article`'s optional `section` is read there.
 */
export class AxoChatTool implements ChatTool {
  readonly spec: ToolSpec;
  readonly kind = 'axo' as const;

  constructor(
    private readonly axo: AxoToolSpec,
    private readonly lookups: ToolLookups,
  ) {
    this.spec = axoChatSpec(axo);
  }

  title(input: Record<string, unknown>): string {
    const value = input[this.axo.argument];
    return axoTitle(this.axo.name, typeof value === 'string' ? value : '');
  }

  async run(input: Record<string, unknown>, context: ToolRunContext): Promise<ToolResult> {
    const checked = checkToolInput(this.axo.name, input);
    if ('problem' in checked) {
      return { status: 'refused', text: checked.problem };
    }
    let sources: Citation[] = [];
    // The runner is made per call so that what this call looked up, and only that, gives its sources.
    const runner = new AxoToolRunner({
      ...this.lookups,
      lookup: async (request, signal) => {
        const value = await this.lookups.lookup(request, signal);
        sources = lookupSources(value);
        return value;
      },
    });
    try {
      const outcome = await runner.run(this.axo.name, input, context.signal);
      return outcome.isError
        ? { status: 'failed', text: outcome.text }
        : { status: 'done', text: outcome.text, sources: sources.length ? sources : undefined };
    } catch (error) {
      // The runner never throws; this keeps the contract if that ever changes.
      return { status: 'failed', text: `The AXO lookup failed: ${describeError(error)}` };
    }
  }
}

/** The three AXO tools of our chat, in their order. */
export function axoChatTools(lookups: ToolLookups): AxoChatTool[] {
  return AXO_TOOL_SPECS.map((spec) => new AxoChatTool(spec, lookups));
}
