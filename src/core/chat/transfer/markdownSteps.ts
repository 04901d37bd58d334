import type { StepStatus, ToolStep } from '../tools/chatTool';
import { FENCE_CLOSED_NOTE, nextFence } from './markdownFences';

/**
 * A reply's tool steps in the Markdown export, each where it sits in the text, as a quoted line with its title and,
 * when it ran, what ALPHA was sent in a collapsed block:
 *
 *     <!-- alpha: step read_file done -->
 *     > Read `src/app.ts`, lines 1–120
 *
 *     <details><summary>What ALPHA was sent</summary>
 *
 *     ```
 *     …
 *     ```
 *
 *     </details>
 *     <!-- alpha: end of step -->
 *     (a blank line)
 *
 * The comments, which Markdown viewers do not show, let the import read the block back as a step rather than as
 * words of the reply. The blank line after the block ends the HTML block `</details>` opens, so the reply's text that
 * follows is Markdown again; the import takes it away with the block.
 */

/** The first line of a step block: the tool's name (as far as it is a plain name) and the step's status. */
export const STEP_START = /^<!-- alpha: step ([A-Za-z0-9_.-]{1,64}) (running|done|refused|failed|stopped) -->$/;
/** The line ending a step block. */
export const STEP_END = '<!-- alpha: end of step -->';

/** The note after a step's title that did not end well (done and running ones have none). */
const STATUS_NOTES: Partial<Record<StepStatus, string>> = {
  refused: ' _(refused)_',
  failed: ' _(failed)_',
  stopped: ' _(stopped)_',
};

/**
 * A reply's text with its steps, as the export writes it. `mark` writes a piece of the text (a grounded reply's
 * markers become footnotes). A step goes at the start of the line its offset falls in or, inside a line, at the start
 * of the next one, and after the code block when that is inside one. A code block the text leaves open (a reply
 * stopped inside one) is closed, with FENCE_CLOSED_NOTE after it, so the steps after it and the next heading are not
 * read as code.
 */
export function replyMarkdown(
  content: string,
  steps: readonly ToolStep[] | undefined,
  mark: (text: string) => string,
): string {
  const order = steps?.length ? [...steps].sort((a, b) => a.offset - b.offset) : [];
  // Appended piece by piece; whether it ends a line is kept aside (asking the string would flatten it each time).
  let out = '';
  let endsLine = true;
  const write = (text: string) => {
    out += text;
    endsLine = text ? text.endsWith('\n') : endsLine;
  };
  let from = 0;
  let next = 0;
  let fence: string | undefined;
  /** Writes the text up to `at`, then every step not yet written whose offset is at most `upTo`. */
  const blocks = (at: number, upTo: number) => {
    while (next < order.length && order[next].offset <= upTo) {
      write(mark(content.slice(from, at)));
      from = at;
      write(`${endsLine ? '' : '\n'}${stepBlock(order[next++])}\n`);
    }
  };
  for (let at = 0; at < content.length;) {
    if (fence === undefined) {
      blocks(at, at);
    }
    const end = content.indexOf('\n', at);
    const lineEnd = end < 0 ? content.length : end;
    fence = nextFence(content.slice(at, content[lineEnd - 1] === '\r' ? lineEnd - 1 : lineEnd), fence);
    at = end < 0 ? content.length : end + 1;
  }
  write(mark(content.slice(from)));
  from = content.length;
  if (fence !== undefined) {
    write(`${endsLine ? '' : '\n'}${fence}\n${FENCE_CLOSED_NOTE}`);
  }
  blocks(content.length, Number.POSITIVE_INFINITY);
  // The blank line after a last step is the message's end, not the block's.
  return next > 0 && out.endsWith('\n\n') ? out.slice(0, -2) : out;
}

/** One step as its block (see the file's comment), its title on one line. */
function stepBlock(step: ToolStep): string {
  const tool = /^[A-Za-z0-9_.-]{1,64}$/.test(step.tool) ? step.tool : 'tool';
  const title = step.title.replace(/\s+/g, ' ').trim() || `\`${tool}\``;
  const lines = [`<!-- alpha: step ${tool} ${step.status} -->`, `> ${title}${STATUS_NOTES[step.status] ?? ''}`];
  if (step.result !== undefined) {
    const fence = '`'.repeat(Math.max(3, longestBacktickRun(step.result) + 1));
    lines.push('', '<details><summary>What ALPHA was sent</summary>', '', fence, step.result, fence, '', '</details>');
  }
  lines.push(STEP_END, '');
  return lines.join('\n');
}

/** The longest run of backticks in `text`: a fence longer than it cannot be closed by the text. */
function longestBacktickRun(text: string): number {
  let longest = 0;
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    run = text.charCodeAt(i) === 0x60 ? run + 1 : 0;
    longest = Math.max(longest, run);
  }
  return longest;
}

/**
 * A step block's lines read back (the first is its STEP_START line, STEP_END left off), as a step's fields for
 * parseSteps to check: its tool and status from the first line, its title from the quoted line (the status note taken
 * off), its result from the first code block in it. `offset` is the caller's.
 */
export function readStepBlock(lines: readonly string[], offset: number): Record<string, unknown> {
  const [, tool, status] = STEP_START.exec(lines[0]) ?? [];
  const step: Record<string, unknown> = { tool, status, offset };
  let i = 1;
  while (i < lines.length && !lines[i].startsWith('> ')) {
    i++;
  }
  if (i < lines.length) {
    const note = STATUS_NOTES[status as StepStatus];
    const title = lines[i].slice(2);
    step.title = note && title.endsWith(note) ? title.slice(0, -note.length) : title;
  }
  let fence: string | undefined;
  for (; i < lines.length; i++) {
    fence = nextFence(lines[i], undefined);
    if (fence !== undefined) {
      break;
    }
  }
  if (fence !== undefined) {
    const result: string[] = [];
    for (i++; i < lines.length; i++) {
      if (nextFence(lines[i], fence) === undefined) {
        step.result = result.join('\n');
        break;
      }
      result.push(lines[i]);
    }
  }
  return step;
}
