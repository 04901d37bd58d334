import { fenceMatches } from './languages';

/** One fenced code block of a Markdown reply. */
export interface CodeBlock {
  /** The info string after the opening fence, trimmed ("ts", "python title=x"), '' when none. */
  info: string;
  /** The code, without the fences, with `\n` line ends and no trailing line end. */
  code: string;
  /** False for a block whose closing fence has not arrived (yet). */
  closed: boolean;
}

// Each run of fence characters is taken whole (the lookahead), so a long run never backtracks into the info string.
const OPEN = /^( {0,3})(`{3,}(?!`)|~{3,}(?!~))(.*)$/;

/**
 * The fenced code blocks of a Markdown text, in order (CommonMark rules: a fence of three or more backticks or tildes,
 * indented at most three spaces, closed by a fence of the same character at least as long; backtick fences take no
 * backtick in their info string). An unclosed last block runs to the end of the text.
 */
export function parseCodeBlocks(markdown: string): CodeBlock[] {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = OPEN.exec(lines[i]);
    if (!open || (open[2][0] === '`' && open[3].includes('`'))) {
      continue;
    }
    const [, indent, fence, info] = open;
    const body: string[] = [];
    let closed = false;
    for (i++; i < lines.length; i++) {
      if (isClosingFence(lines[i], fence)) {
        closed = true;
        break;
      }
      body.push(stripIndent(lines[i], indent.length));
    }
    blocks.push({ info: info.trim(), code: body.join('\n'), closed });
  }
  return blocks;
}

/**
 * The code to use from a reply for a file of `languageId`: the first complete block tagged with that language, else
 * the first complete untagged block; undefined when the reply has neither (it is then shown as prose).
 */
export function pickCodeBlock(markdown: string, languageId: string): string | undefined {
  return choose(
    parseCodeBlocks(markdown).filter((b) => b.closed),
    languageId,
  )?.code;
}

/**
 * While a reply streams: the code of the block {@link pickCodeBlock} would choose, as far as it has arrived (the
 * block may still be open). A partial last line is held back so an editor never shows half a token.
 */
export function streamingCodeBlock(markdown: string, languageId: string): CodeBlock | undefined {
  const block = choose(parseCodeBlocks(markdown), languageId);
  if (!block || block.closed) {
    return block;
  }
  // The text after the block's last line end is still arriving ('' once that line end came): drop it, so the code
  // only ever grows (a trailing line end that disappears again would make the editor replace everything).
  const complete = block.code.slice(0, Math.max(0, block.code.lastIndexOf('\n')));
  return { ...block, code: complete };
}

/** A block as `StreamingCodeBlock` reads it: its lines, and those added since the caller last heard of it. */
interface GrowingBlock {
  info: string;
  fence: string;
  indent: number;
  lines: string[];
  closed: boolean;
  /** The text its lines added since the last `update` that chose it (with the line end before each). */
  fresh: string;
}

/** What `StreamingCodeBlock.update` found: the chosen block's code, and what it added since the last update. */
export interface CodeBlockStep {
  code: string;
  /** The text added at the end since the last update, when the same block was chosen then; else undefined. */
  appended?: string;
}

/**
 * `streamingCodeBlock` for a reply that only grows: each update reads only the lines that arrived since the last,
 * so a reply of many deltas costs work in proportion to its length (re-parsing the whole reply on every delta was
 * quadratic). Only complete lines are read: a partial last line is held back, as `streamingCodeBlock` does.
 */
export class StreamingCodeBlock {
  private readonly blocks: GrowingBlock[] = [];
  private open: GrowingBlock | undefined;
  private read = 0;
  private chosen: GrowingBlock | undefined;

  constructor(private readonly languageId: string) {}

  /** Reads what `markdown` (the previous one and more) adds; undefined while no block fits. */
  update(markdown: string): CodeBlockStep | undefined {
    for (let end = markdown.indexOf('\n', this.read); end !== -1; end = markdown.indexOf('\n', this.read)) {
      const line = markdown.slice(this.read, markdown.charCodeAt(end - 1) === 13 ? end - 1 : end);
      this.read = end + 1;
      this.line(line);
    }
    const chosen = choose(this.blocks, this.languageId);
    if (!chosen) {
      return undefined;
    }
    const same = chosen === this.chosen;
    this.chosen = chosen;
    const appended = chosen.fresh;
    chosen.fresh = '';
    return same ? { code: '', appended } : { code: chosen.lines.join('\n') };
  }

  private line(line: string): void {
    const block = this.open;
    if (block) {
      if (isClosingFence(line, block.fence)) {
        block.closed = true;
        this.open = undefined;
      } else {
        block.fresh += (block.lines.length > 0 ? '\n' : '') + stripIndent(line, block.indent);
        block.lines.push(stripIndent(line, block.indent));
      }
      return;
    }
    const open = OPEN.exec(line);
    if (open && !(open[2][0] === '`' && open[3].includes('`'))) {
      this.open = { info: open[3].trim(), fence: open[2], indent: open[1].length, lines: [], closed: false, fresh: '' };
      this.blocks.push(this.open);
    }
  }
}

function choose<B extends { info: string }>(blocks: B[], languageId: string): B | undefined {
  return blocks.find((b) => fenceMatches(b.info, languageId)) ?? blocks.find((b) => b.info === '');
}

function isClosingFence(line: string, fence: string): boolean {
  const m = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(line);
  return m !== null && m[1][0] === fence[0] && m[1].length >= fence.length;
}

function stripIndent(line: string, width: number): string {
  let n = 0;
  while (n < width && line[n] === ' ') {
    n++;
  }
  return line.slice(n);
}

/** A fence for `code` longer than any backtick run inside it, so the code can never close it early. */
export function fenceFor(code: string): string {
  const longest = Math.max(0, ...(code.match(/`+/g) ?? []).map((run) => run.length));
  return '`'.repeat(Math.max(3, longest + 1));
}
