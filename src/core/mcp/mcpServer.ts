import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import * as z from 'zod';
import { AXO_TOOL_SPECS, type AxoToolSpec } from './axoToolSpecs';
import type { AxoToolRunner } from './axoToolRunner';

/** The server's name as MCP clients list it. */
export const MCP_SERVER_NAME = 'axo-encyclopedia';

/** The tools' titles as clients show them. */
const TITLES: Record<string, string> = {
  axo_ask: 'Ask the AXO encyclopedia',
  axo_search: 'Search the AXO encyclopedia',
  axo_article: 'Read an AXO encyclopedia article',
};

/**
 * The server never asks its client for input (elicitation), the one thing the SDK validates JSON Schemas for, so it
 * takes no schema validator (the SDK's default pulls a JSON Schema compiler into the bundle for nothing).
 */
const NO_ELICITATION: jsonSchemaValidator = {
  getValidator: () => () => ({ valid: false, data: undefined, errorMessage: 'This server does not ask for input.' }),
};

function inputShape(spec: AxoToolSpec): Record<string, z.ZodString> {
  return { [spec.argument]: z.string().min(1).max(spec.maxLength).describe(spec.argumentDescription) };
}

/**
 * An MCP server (the SDK's) serving the three AXO tools and nothing else: no resources, no prompts. Each tool is
 * marked read-only, idempotent and open-world (it reads an outside service); its result is text, and a failure is
 * a result with `isError` and one sentence. The client's cancellation aborts the lookup.
 */
export function createAxoMcpServer(runner: AxoToolRunner, version: string): McpServer {
  const server = new McpServer(
    { name: MCP_SERVER_NAME, title: 'AXO encyclopedia', version },
    {
      jsonSchemaValidator: NO_ELICITATION,
      instructions:
        'Cited encyclopedia lookups: axo_ask for a factual question, axo_search to find article titles, ' +
        'axo_article to read one article with its facts. Every tool only reads; cite the sources it returns.',
    },
  );
  for (const spec of AXO_TOOL_SPECS) {
    server.registerTool(
      spec.name,
      {
        title: TITLES[spec.name],
        description: spec.modelDescription,
        inputSchema: inputShape(spec),
        annotations: {
          title: TITLES[spec.name],
          readOnlyHint: true,
          destructiveHint: false,
          idempotentHint: true,
          openWorldHint: true,
        },
      },
      async (args: Record<string, string>, extra) => {
        const outcome = await runner.run(spec.name, args, extra.signal);
        return { content: [{ type: 'text' as const, text: outcome.text }], isError: outcome.isError };
      },
    );
  }
  return server;
}
