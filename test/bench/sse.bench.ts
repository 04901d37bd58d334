import { createParser } from 'eventsource-parser';
import { readContentDeltas } from '../../src/core/service/sse';
import { seededRandom as rng } from '../fakeService/chunking';
import { median, type BenchFigure } from './benchFigure';

const TOTAL_BYTES = 10 * 1024 * 1024;
const ROUNDS = 15;
const TARGET = 0.9;

/** How the events are framed: the SSE standard's (a blank line after each) or the spec's bare `data:` lines. */
export type Framing = 'standard' | 'lines';

/** A synthetic stream: its bytes cut into chunks, and the content it carries. */
export interface SyntheticStream {
  chunks: Uint8Array[];
  text: string;
  /** How many events it has, and how many of their payloads have an escape. */
  events: number;
  escaped: number;
}

/**
 * About 10 MB (in the standard form) of `data: {"content": …}` events, tokens of 1–8 characters, some multi-byte,
 * cut into 20–200-byte chunks. The same seed gives the same events in both framings. One token in 14 needs an
 * escape in JSON (the fenced block's newlines).
 */
export function syntheticStream(framing: Framing = 'standard', totalBytes = TOTAL_BYTES): SyntheticStream {
  const random = rng(42);
  const words = [
    'the',
    ' model',
    ' é',
    'té',
    ' 🚀',
    ' code',
    '\n```ts\n',
    'const',
    ' x',
    ' = ',
    '1;',
    ' 東京',
    ' naïve',
    '.',
  ];
  return framed(() => words[Math.floor(random() * words.length)], framing, totalBytes);
}

/**
 * A reply as a model writes one when asked about code: prose with quotes and inline code, then TypeScript, Python,
 * a shell line with a Windows path, a regular expression, JSON and a tab-indented Makefile. Its newlines, quotes,
 * backslashes and tabs are what JSON escapes in a real stream.
 */
export const CODE_REPLY = [
  'Here is a version that reads the file line by line and keeps the "last" value of each key:',
  '',
  '```ts',
  "import { readFileSync } from 'node:fs';",
  '',
  'export function parseEnv(path: string): Map<string, string> {',
  '  const values = new Map<string, string>();',
  "  for (const line of readFileSync(path, 'utf8').split(/\\r?\\n/)) {",
  '    const match = /^\\s*([A-Z_]+)\\s*=\\s*"?(.*?)"?\\s*$/.exec(line);',
  '    if (match) {',
  '      values.set(match[1], match[2].replace(/\\\\n/g, "\\n"));',
  '    }',
  '  }',
  '  return values;',
  '}',
  '```',
  '',
  'And the same in Python, with `"` and `\\` handled:',
  '',
  '```python',
  'def parse_env(path: str) -> dict[str, str]:',
  '    values = {}',
  '    with open(path, encoding="utf-8") as f:',
  '        for line in f:',
  '            key, _, value = line.partition("=")',
  '            values[key.strip()] = value.strip().strip(\'"\').replace("\\\\n", "\\n")',
  '    return values',
  '```',
  '',
  'On Windows the file is usually at `C:\\Users\\you\\.config\\app\\.env`; run:',
  '',
  '```sh',
  'python -c "import env; print(env.parse_env(r\'C:\\Users\\you\\.env\'))"',
  '```',
  '',
  'The result, as JSON:',
  '',
  '```json',
  '{ "API_URL": "https://example.com", "GREETING": "Hello, \\"world\\"!" }',
  '```',
  '',
  'A Makefile target for it (recipes are indented with tabs):',
  '',
  '```make',
  'env:',
  '\tpython parse_env.py .env > env.json',
  '\t@echo "done"',
  '```',
  '',
  'Note that **quotes** inside values stay as they are — the parser only strips the outer pair.',
  '',
].join('\n');

/**
 * A model's tokens over a text: runs of letters or digits with the space before them, runs of other characters
 * (at most 4), and each line end with the indentation after it as one token, as tokenizers split code.
 */
export function tokens(text: string): string[] {
  return text.match(/\n[ \t]*|[ \t]*[\p{L}\p{N}_]+|[ \t]*[^\p{L}\p{N}_\s]{1,4}|[ \t]+/gu) ?? [];
}

/**
 * About 10 MB of `CODE_REPLY` over and over, one token per event, each event's payload encoded as servers do
 * (`JSON.stringify`, so `\n`, `\"`, `\\` and `\t` escapes), chunked as `syntheticStream`.
 */
export function codeStream(framing: Framing = 'standard', totalBytes = TOTAL_BYTES): SyntheticStream {
  const reply = tokens(CODE_REPLY);
  let i = 0;
  return framed(() => reply[i++ % reply.length], framing, totalBytes);
}

/** The events of the tokens `next` gives until `totalBytes` (standard form), framed and cut into chunks. */
function framed(next: () => string, framing: Framing, totalBytes: number): SyntheticStream {
  const end = framing === 'standard' ? '\n\n' : '\n';
  const parts: string[] = [];
  const content: string[] = [];
  let size = 0;
  let escaped = 0;
  while (size < totalBytes) {
    const token = next();
    const json = JSON.stringify(token);
    if (json.length !== token.length + 2) {
      escaped++;
    }
    const event = `data: {"content":${json}}`;
    parts.push(event + end);
    content.push(token);
    size += Buffer.byteLength(event) + 2;
  }
  parts.push(`data: [DONE]${end}`);
  const bytes = new TextEncoder().encode(parts.join(''));
  const chunks: Uint8Array[] = [];
  const cuts = rng(7);
  for (let i = 0; i < bytes.length;) {
    const n = 20 + Math.floor(cuts() * 181);
    chunks.push(bytes.subarray(i, i + n));
    i += n;
  }
  return { chunks, text: content.join(''), events: content.length, escaped };
}

async function* source(chunks: Uint8Array[]): AsyncGenerator<Uint8Array> {
  for (const chunk of chunks) {
    yield chunk;
  }
}

/** Our pipeline: bytes → content deltas through readContentDeltas. Returns characters of content. */
export async function ours(chunks: Uint8Array[]): Promise<number> {
  let length = 0;
  for await (const delta of readContentDeltas(source(chunks))) {
    length += delta.length;
  }
  return length;
}

/** The baseline: bare eventsource-parser with a streaming decoder and JSON.parse per event, same source. */
export async function bare(chunks: Uint8Array[]): Promise<number> {
  let length = 0;
  let done = false;
  const decoder = new TextDecoder();
  const parser = createParser({
    onEvent: (event) => {
      if (event.data === '[DONE]') {
        done = true;
      } else {
        length += (JSON.parse(event.data) as { content: string }).content.length;
      }
    },
  });
  for await (const chunk of source(chunks)) {
    parser.feed(decoder.decode(chunk, { stream: true }));
    if (done) {
      break;
    }
  }
  return length;
}

async function time(fn: () => Promise<number>, expected: number): Promise<number> {
  const start = process.hrtime.bigint();
  const length = await fn();
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (length !== expected) {
    throw new Error(`pipeline produced ${length} characters, expected ${expected}`);
  }
  return ms;
}

const megabytes = (chunks: Uint8Array[]) => chunks.reduce((n, c) => n + c.byteLength, 0) / (1024 * 1024);

/** Per-run times of the three pipelines over one input, in milliseconds, round by round. */
interface Timings {
  oursStd: number[];
  bareStd: number[];
  oursLines: number[];
}

/** `ROUNDS` rounds (after one warm-up) of ours on both framings and bare on the standard form; each round rotates. */
async function measure(standard: SyntheticStream, lines: SyntheticStream): Promise<Timings> {
  const expected = standard.text.length;
  const timings: Timings = { oursStd: [], bareStd: [], oursLines: [] };
  const runs: Array<[number[], () => Promise<number>]> = [
    [timings.oursStd, () => ours(standard.chunks)],
    [timings.bareStd, () => bare(standard.chunks)],
    [timings.oursLines, () => ours(lines.chunks)],
  ];
  for (let round = -1; round < ROUNDS; round++) {
    // Each round starts with another of the three, so none always pays for the garbage the one before left.
    for (let i = 0; i < runs.length; i++) {
      const [times, fn] = runs[(i + round + 1) % runs.length];
      const ms = await time(fn, expected);
      if (round >= 0) {
        times.push(ms);
      }
    }
  }
  return timings;
}

/** The figures of one input: both throughputs and both ratios against the bare parser. */
function figures(label: string, standard: SyntheticStream, lines: SyntheticStream, t: Timings): BenchFigure[] {
  const mb = megabytes(standard.chunks);
  const rate = (ms: number[]) => `${(mb / (median(ms) / 1000)).toFixed(1)} MB/s`;
  // Ratios are taken within each round (its three runs follow each other), then the median of the rounds: the
  // machine's load drifts between rounds far more than within one.
  const ratioStd = median(t.bareStd.map((bareMs, i) => bareMs / t.oursStd[i]));
  const ratioLines = median(t.bareStd.map((bareMs, i) => bareMs / t.oursLines[i]));
  return [
    {
      name: `SSE ${label}, standard form (${mb.toFixed(1)} MB, ${standard.chunks.length} chunks of 20–200 B), ours`,
      value: rate(t.oursStd),
    },
    { name: 'same bytes, bare eventsource-parser + JSON.parse', value: rate(t.bareStd) },
    {
      name: `SSE ratio, ${label}, standard form (ours / bare, same bytes), median of ${ROUNDS}`,
      value: ratioStd.toFixed(2),
      target: `≥ ${TARGET}`,
      pass: ratioStd >= TARGET,
    },
    {
      name: `SSE ${label}, lines form (${megabytes(lines.chunks).toFixed(1)} MB, same events), ours, in standard-form MB/s`,
      value: rate(t.oursLines),
    },
    {
      name: `SSE ratio, ${label}, lines form (ours on lines / bare on the standard form), median of ${ROUNDS}`,
      value: ratioLines.toFixed(2),
      target: `≥ ${TARGET}`,
      pass: ratioLines >= TARGET,
    },
  ];
}

/** The share of events whose JSON payload has an escape, e.g. `31 %`. */
function escapeShare(stream: SyntheticStream): string {
  return `${Math.round((100 * stream.escaped) / stream.events)} %`;
}

/**
 * Throughput of the SSE pipeline against bare eventsource-parser, in both framings, on two inputs: short mixed
 * tokens (one in 14 escaped) and a code-heavy reply's tokens (`CODE_REPLY`). The standard form is read by both
 * from the same bytes; the `lines` form is read by ours against the same events in the standard form read by the
 * bare parser (which cannot read `lines`). Rounds rotate the order; each ratio is the median of the rounds' ratios.
 */
export async function run(): Promise<BenchFigure[]> {
  const out: BenchFigure[] = [];
  const inputs: Array<[string, (framing: Framing) => SyntheticStream]> = [
    ['mixed tokens', syntheticStream],
    ['code-heavy reply', codeStream],
  ];
  for (const [label, make] of inputs) {
    const standard = make('standard');
    const lines = make('lines');
    const share = escapeShare(standard);
    out.push(...figures(`${label} (${share} of events escaped)`, standard, lines, await measure(standard, lines)));
  }
  return out;
}
