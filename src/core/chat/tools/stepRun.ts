import type { Citation } from '../../service/normalize';
import type { ChatTool, ToolResult, ToolRunContext, ToolStep } from './chatTool';

/** How long the reason in a failed step's sentence may be. */
const MAX_REASON = 300;

/**
 * Runs one step's call and records how it went in the step: its status, what goes back to ALPHA (`result`, cut to
 * `budget` characters with a line saying how much was cut), and the title, sources and review the tool gave. A tool
 * that throws, or answers with something that is not a result, makes a `failed` step with one sentence. When
 * `signal` aborts while the tool runs the step is `stopped` at once, without waiting for a tool that does not
 * listen to the signal, and whatever the tool answers later is dropped. Returns the whole text for ALPHA (its
 * request cuts it to the same budget, saying so; undefined when stopped).
 */
export async function runStep(
  tool: ChatTool,
  step: ToolStep,
  context: ToolRunContext,
  budget: number,
): Promise<string | undefined> {
  const { signal } = context;
  if (signal.aborted) {
    step.status = 'stopped';
    return undefined;
  }
  const abort = whenAborted(signal);
  let outcome: ToolResult | 'stopped';
  try {
    outcome = await Promise.race([tool.run(step.input, context), abort.promise]);
  } catch (error) {
    outcome = { status: 'failed', text: failureSentence(step.tool, error) };
  } finally {
    abort.dispose();
  }
  if (outcome === 'stopped' || signal.aborted) {
    step.status = 'stopped';
    return undefined;
  }
  return applyResult(step, outcome, budget);
}

/**
 * Records a tool's answer in its step, checked field by field (a tool is ours, but its answer is still data);
 * returns the whole text for ALPHA.
 */
function applyResult(step: ToolStep, result: ToolResult, budget: number): string {
  const known = typeof result === 'object' && result !== null && typeof result.text === 'string';
  const status = known && ['done', 'refused', 'failed'].includes(result.status) ? result.status : undefined;
  if (!known || !status) {
    step.status = 'failed';
    step.result = `The tool ${step.tool} gave no readable result.`;
    return step.result;
  }
  step.status = status;
  step.result = cutResult(result.text, budget);
  if (typeof result.title === 'string' && result.title.trim()) {
    step.title = result.title;
  }
  const sources = Array.isArray(result.sources) ? result.sources.filter(isCitation) : [];
  if (sources.length) {
    step.sources = sources.map((s) => (s.url === undefined ? { title: s.title } : { title: s.title, url: s.url }));
  }
  if (result.review && typeof result.review.file === 'string' && typeof result.review.id === 'string') {
    step.review = { file: result.review.file, id: result.review.id };
  }
  return result.text;
}

/** A result within `budget` characters; a longer one is cut there and says how much was cut. */
export function cutResult(text: string, budget: number): string {
  if (text.length <= budget) {
    return text;
  }
  return `${text.slice(0, budget)}\n[… ${(text.length - budget).toLocaleString('en')} more characters cut]`;
}

/**
 * One sentence for a tool that threw, for ALPHA and for the step: the error's own message (or a readable form of
 * what was thrown), on one line and bounded, never `[object Object]`.
 */
export function failureSentence(tool: string, error: unknown): string {
  let reason = '';
  if (error instanceof Error) {
    reason = error.message || error.name;
  } else if (typeof error === 'string') {
    reason = error;
  } else if (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as { message?: unknown }).message === 'string'
  ) {
    reason = (error as { message: string }).message;
  } else if (typeof error === 'number' || typeof error === 'boolean') {
    reason = String(error);
  }
  reason = reason
    .slice(0, 2 * MAX_REASON)
    .replace(/\s+/g, ' ')
    .trim();
  if (reason.length > MAX_REASON) {
    reason = `${reason.slice(0, MAX_REASON - 1)}…`;
  }
  let end = reason.length;
  while (end > 0 && '.!?…'.includes(reason[end - 1])) {
    end--;
  }
  reason = reason.slice(0, end);
  return reason ? `The tool ${tool} failed: ${reason}.` : `The tool ${tool} failed without saying why.`;
}

function isCitation(value: unknown): value is Citation {
  const c = value as Citation | null;
  return (
    typeof c === 'object' &&
    c !== null &&
    typeof c.title === 'string' &&
    (c.url === undefined || typeof c.url === 'string')
  );
}

/** A promise that settles with 'stopped' when `signal` aborts; `dispose` stops listening. */
function whenAborted(signal: AbortSignal): { promise: Promise<'stopped'>; dispose(): void } {
  let listener: () => void = () => undefined;
  const promise = new Promise<'stopped'>((resolve) => {
    listener = () => resolve('stopped');
    signal.addEventListener('abort', listener, { once: true });
  });
  return { promise, dispose: () => signal.removeEventListener('abort', listener) };
}
