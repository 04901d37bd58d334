import type { CodeContext, DiagnosticInfo, LineWindow } from './codeContext';
import { fenceFor } from './codeBlocks';
import { fenceTag, languageInfo } from './languages';

/** The five kinds of code assistance. */
export type AssistTask = 'explain' | 'document' | 'refactor' | 'tests' | 'fix';

/** Extra words from the user: the refactoring request, or what they typed after `@alpha /explain`. */
export interface PromptOptions {
  instruction?: string;
  /** The selection travels separately (the chat view's context): say so instead of quoting it. */
  attached?: boolean;
}

/** Builds the single user message for a task (the service's only documented role is `user`). */
export function buildAssistPrompt(task: AssistTask, ctx: CodeContext, options: PromptOptions = {}): string {
  const { instruction, attached } = options;
  switch (task) {
    case 'explain':
      return buildExplainPrompt(ctx, instruction, attached);
    case 'document':
      return buildDocumentPrompt(ctx, instruction, attached);
    case 'refactor':
      return buildRefactorPrompt(ctx, instruction ?? '', attached);
    case 'tests':
      return buildTestsPrompt(ctx, instruction, attached);
    case 'fix':
      return buildFixPrompt(ctx, instruction, attached);
  }
}

/** Explain: prose in Markdown, about the selection, with the problems reported on it. */
export function buildExplainPrompt(ctx: CodeContext, question?: string, attached = false): string {
  return join([
    'Explain the selected code to a developer who is reading it for the first time: what it does, how it works, ' +
      'and anything surprising or risky. Refer to line numbers where it helps. Answer in Markdown.',
    userWords('Their question', question),
    describeLocation(ctx),
    selectedBlock(ctx, attached),
    surroundings(ctx),
    problems(ctx.diagnostics),
  ]);
}

/** A free question about code: the user's words first, then the code they attached and its surroundings. */
export function buildCodeQuestionPrompt(ctx: CodeContext, question: string): string {
  return join([
    question.trim(),
    describeLocation(ctx),
    selectedBlock(ctx, false),
    surroundings(ctx),
    problems(ctx.diagnostics),
  ]);
}

/** A task handed to the chat view's `alpha.chat.ask`: the instructions as the prompt, the selection attached. */
export interface ChatHandoff {
  prompt: string;
  context: { label: string; content: string; language: string };
}

/**
 * The same request as {@link buildAssistPrompt}, split for the chat view: the prompt says the selected code is
 * attached, and the selection travels as the chat's context (labelled `path:lines`).
 */
export function buildChatHandoff(task: AssistTask, ctx: CodeContext, options: PromptOptions = {}): ChatHandoff {
  return {
    prompt: buildAssistPrompt(task, ctx, { ...options, attached: true }),
    context: { label: selectionLabel(ctx), content: ctx.selection.text, language: ctx.languageId },
  };
}

/** Document: documentation comments in the language's own style; the code must stay as it is. */
export function buildDocumentPrompt(ctx: CodeContext, instruction?: string, attached = false): string {
  const info = languageInfo(ctx.languageId);
  return join([
    `Add documentation comments to the selected ${info.name} code, in the language's own style: ${info.docStyle}. ` +
      'Document every function, method, class and exported declaration in the selection: what it does, its ' +
      'parameters, what it returns and what it throws. Keep existing comments that are still right. ' +
      'Do not change the code itself: only add or improve comments.',
    userWords('The user adds', instruction),
    describeLocation(ctx),
    selectedBlock(ctx, attached),
    surroundings(ctx),
    replacementRules(ctx),
  ]);
}

/** Refactor: the user's request applied to the selection, behaviour kept unless the request says otherwise. */
export function buildRefactorPrompt(ctx: CodeContext, instruction: string, attached = false): string {
  const request = instruction.trim() || 'Improve readability and structure.';
  return join([
    `Refactor the selected ${languageInfo(ctx.languageId).name} code as the user asks: ${request}\n` +
      'Keep its behaviour, its public names and its signatures unless the request says otherwise, and follow the ' +
      "style of the surrounding code. The surrounding code is context only: don't rewrite it.",
    describeLocation(ctx),
    selectedBlock(ctx, attached),
    surroundings(ctx),
    replacementRules(ctx),
  ]);
}

/** Tests: a complete test file for the selection, in the file's language. */
export function buildTestsPrompt(ctx: CodeContext, instruction?: string, attached = false): string {
  const info = languageInfo(ctx.languageId);
  const framework = info.testFramework ?? `the usual ${info.name} test framework`;
  return join([
    `Write unit tests for the selected ${info.name} code, using ${framework}. Cover the normal cases, the edge ` +
      'cases and the error cases you can see in the code; give each test a name that says what it checks. ' +
      `Import the code under test from \`${ctx.path}\` with a path relative to a test file next to it.`,
    userWords('The user adds', instruction),
    describeLocation(ctx),
    selectedBlock(ctx, attached),
    surroundings(ctx),
    `Reply with one complete test file in a single \`\`\`${fenceTag(ctx.languageId)} block, then at most two ` +
      'sentences on how to run it.',
  ]);
}

/** Fix: the reported problems (or bugs, when none is reported) fixed in a replacement of the selected lines. */
export function buildFixPrompt(ctx: CodeContext, instruction?: string, attached = false): string {
  const task =
    ctx.diagnostics.length > 0
      ? 'Fix the problems reported on the selected code (listed below with their positions). Change only what ' +
        'the fix needs; keep everything else as it is.'
      : 'No problems are reported on the selected code. Find the bugs in it and fix them; change only what the ' +
        'fix needs. If it has no bug, return it unchanged.';
  return join([
    task,
    userWords('The user adds', instruction),
    describeLocation(ctx),
    selectedBlock(ctx, attached),
    problems(ctx.diagnostics),
    surroundings(ctx),
    replacementRules(ctx),
  ]);
}

/** `src/app.ts:10-14`: the file and the 1-based lines of the selection. */
export function selectionLabel(ctx: CodeContext): string {
  const { startLine, endLine } = ctx.selection;
  return startLine === endLine ? `${ctx.path}:${startLine + 1}` : `${ctx.path}:${startLine + 1}-${endLine + 1}`;
}

function describeLocation(ctx: CodeContext): string {
  const { startLine, endLine } = ctx.selection;
  const lines = startLine === endLine ? `line ${startLine + 1}` : `lines ${startLine + 1}–${endLine + 1}`;
  return `File: \`${ctx.path}\` (${languageInfo(ctx.languageId).name}). Selected: ${lines}.`;
}

function selectedBlock(ctx: CodeContext, attached: boolean): string {
  if (attached) {
    return `The selected code is attached as \`${selectionLabel(ctx)}\`.`;
  }
  return `Selected code:\n${fenced(ctx.selection.text, ctx.languageId)}`;
}

function surroundings(ctx: CodeContext): string {
  return join([
    windowText('Code just before the selection', ctx.before, ctx.languageId),
    windowText('Code just after the selection', ctx.after, ctx.languageId),
  ]);
}

function windowText(title: string, window: LineWindow, languageId: string): string {
  if (window.lines.length === 0) {
    return '';
  }
  const first = window.startLine + 1;
  const last = window.startLine + window.lines.length;
  return `${title} (lines ${first}–${last}, for context only):\n${fenced(window.lines.join('\n'), languageId)}`;
}

function problems(diagnostics: readonly DiagnosticInfo[]): string {
  if (diagnostics.length === 0) {
    return '';
  }
  return ['Problems reported on the selection:', ...diagnostics.map(describeDiagnostic)].join('\n');
}

/** One diagnostic as a prompt line: `- error at 3:5–3:9 [ts 2322]: Type 'string' is not…`. */
export function describeDiagnostic(d: DiagnosticInfo): string {
  const range = `${d.startLine + 1}:${d.startCharacter + 1}–${d.endLine + 1}:${d.endCharacter + 1}`;
  const origin = [d.source, d.code].filter((part) => part !== undefined && part !== '').join(' ');
  const message = d.message
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .join(' ');
  return `- ${d.severity} at ${range}${origin ? ` [${origin}]` : ''}: ${message}`;
}

function replacementRules(ctx: CodeContext): string {
  const { startLine, endLine } = ctx.selection;
  const lines = startLine === endLine ? `line ${startLine + 1}` : `lines ${startLine + 1}–${endLine + 1}`;
  return (
    `Reply with one \`\`\`${fenceTag(ctx.languageId)} block holding the complete new text of the selected ` +
    `${lines}, with their indentation; it replaces exactly those lines, so leave out the surrounding code. ` +
    'After the block, say in at most two sentences what you changed.'
  );
}

function userWords(title: string, text: string | undefined): string {
  const words = text?.trim();
  return words ? `${title}: ${words}` : '';
}

function fenced(code: string, languageId: string): string {
  const fence = fenceFor(code);
  return `${fence}${fenceTag(languageId)}\n${code}\n${fence}`;
}

function join(parts: readonly string[]): string {
  return parts.filter((part) => part !== '').join('\n\n');
}
