import type { Citation } from '../../service/normalize';
import type { ToolSpec } from '../../toolCalls/toolSpec';

/**
 * What ALPHA may use in a conversation of our chat, each level including the ones before it: nothing, the
 * encyclopedia, the encyclopedia and reading the workspace, or all that and proposing edits (which never write: an
 * edit is applied only when the user presses Apply in its review).
 */
export type ToolAccess = 'none' | 'axo' | 'read' | 'edit';

/** The levels in order, for controls and settings. */
export const TOOL_ACCESS_LEVELS: readonly ToolAccess[] = ['none', 'axo', 'read', 'edit'];

/** The level a tool needs. */
export type ToolKind = Exclude<ToolAccess, 'none'>;

/** Whether a conversation at `access` may use a tool of `kind`. */
export function allows(access: ToolAccess, kind: ToolKind): boolean {
  return TOOL_ACCESS_LEVELS.indexOf(access) >= TOOL_ACCESS_LEVELS.indexOf(kind);
}

/** True for a value that names a level. */
export function isToolAccess(value: unknown): value is ToolAccess {
  return typeof value === 'string' && (TOOL_ACCESS_LEVELS as readonly string[]).includes(value);
}

/** Where a step stands: running, or how it ended. */
export type StepStatus = 'running' | 'done' | 'refused' | 'failed' | 'stopped';

/** A proposed edit's review: the file and the proposal's id (the review reopens from it while it lasts). */
export interface StepReview {
  /** The file, as the workspace names it (relative to its folder). */
  file: string;
  id: string;
}

/** One tool call inside a reply, as stored with the reply and shown as a step in it. */
export interface ToolStep {
  id: string;
  /** The tool's name, as ALPHA called it. */
  tool: string;
  /** The call's checked arguments. */
  input: Record<string, unknown>;
  /** What the step says: "Read `src/app.ts`, lines 1–120" (localised; code in backticks). */
  title: string;
  status: StepStatus;
  /** What went back to ALPHA, within the tool's budget (absent while running, or when stopped before it ran). */
  result?: string;
  /** Where the step sits in the reply: the length of the reply's text when the call was written. */
  offset: number;
  /** An AXO step's sources; they join the reply's numbered sources. */
  sources?: Citation[];
  /** A proposed edit: its review. */
  review?: StepReview;
}

/** What a tool may use while it runs. */
export interface ToolRunContext {
  /** Aborted when the user stops the reply. */
  readonly signal: AbortSignal;
  /** Asks the user a yes/no question (a secret-looking file); false when declined or dismissed. */
  confirm(question: string, yes: string): Promise<boolean>;
}

/** How a call went: `text` is what ALPHA is sent (one sentence when refused or failed). */
export interface ToolResult {
  status: 'done' | 'refused' | 'failed';
  text: string;
  /** The step's title once run, when it says more than the first one (the lines actually read). */
  title?: string;
  sources?: Citation[];
  review?: StepReview;
}

/** A tool of our chat: its description for ALPHA, the level it needs, its step title, and how it runs. */
export interface ChatTool {
  readonly spec: ToolSpec;
  readonly kind: ToolKind;
  /** The step's title while it runs, from the call's checked input. */
  title(input: Record<string, unknown>): string;
  /** Runs the call; never throws (a failure is a `failed` result with a sentence for ALPHA). */
  run(input: Record<string, unknown>, context: ToolRunContext): Promise<ToolResult>;
}

/** The tools this window offers; the chat takes those the conversation's level allows. */
export interface ChatToolbox {
  /** The tools a conversation at `access` may use here (an untrusted workspace offers only AXO's). */
  tools(access: ToolAccess): readonly ChatTool[];
}
