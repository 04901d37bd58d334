/**
 * A tool a model may call, as every surface describes it (VS Code's `LanguageModelChatTool`, our own tools, MCP
 * tools): a name, what it does, and a JSON schema of its input.
 */
export interface ToolSpec {
  readonly name: string;
  readonly description: string;
  /** A JSON schema of the arguments; an object schema in practice. Absent: the tool takes no arguments. */
  readonly inputSchema?: object;
}

/** A call a model wrote, checked against its tool: the tool's exact name and arguments that fit its schema. */
export interface ToolCall {
  readonly name: string;
  readonly input: Record<string, unknown>;
}

/** How a written call failed to be read; `detail` is an English sentence written for the model. */
export type CallProblemKind = 'json' | 'shape' | 'unknownTool' | 'arguments' | 'unclosed' | 'tooLarge';

/** Why a call could not be read. */
export interface CallProblem {
  readonly kind: CallProblemKind;
  readonly detail: string;
}

/** What the streaming parser reports, in the order the reply wrote it. */
export type CallEvent =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'call'; readonly call: ToolCall; readonly raw: string }
  | { readonly type: 'malformed'; readonly problem: CallProblem; readonly raw: string };

/** A part of the subset of JSON Schema the check reads. */
export interface SchemaNode {
  type?: string | string[];
  properties?: Record<string, SchemaNode>;
  required?: string[];
  items?: SchemaNode;
  enum?: unknown[];
  description?: string;
  additionalProperties?: boolean | SchemaNode;
  anyOf?: SchemaNode[];
  oneOf?: SchemaNode[];
}

/** The schema as a node when it is an object, else undefined. */
export function schemaNode(value: unknown): SchemaNode | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as SchemaNode) : undefined;
}
