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

function choose(blocks: CodeBlock[], languageId: string): CodeBlock | undefined {
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
