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
}

/**
 * About 10 MB (in the standard form) of `data: {"content": …}` events, tokens of 1–8 characters, some multi-byte,
 * cut into 20–200-byte chunks. The same seed gives the same events in both framings.
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
  const end = framing === 'standard' ? '\n\n' : '\n';
  const parts: string[] = [];
  const content: string[] = [];
  let size = 0;
  while (size < totalBytes) {
    const token = words[Math.floor(random() * words.length)];
    const line = `data: ${JSON.stringify({ content: token })}\n\n`;
    parts.push(`data: ${JSON.stringify({ content: token })}${end}`);
    content.push(token);
    size += Buffer.byteLength(line);
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
  return { chunks, text: content.join('') };
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

/**
 * Throughput of the SSE pipeline against bare eventsource-parser, in both framings: the standard form read by
 * both from the same bytes; the `lines` form read by ours against the same events in the standard form read
 * by the bare parser (which cannot read `lines`). Rounds rotate the order; each ratio is the median of the
 * rounds' ratios.
 */
export async function run(): Promise<BenchFigure[]> {
  const standard = syntheticStream('standard');
  const lines = syntheticStream('lines');
  const expected = standard.text.length;
  const oursStd: number[] = [];
  const oursLines: number[] = [];
  const bareStd: number[] = [];
  const runs: Array<[number[], () => Promise<number>]> = [
    [oursStd, () => ours(standard.chunks)],
    [bareStd, () => bare(standard.chunks)],
    [oursLines, () => ours(lines.chunks)],
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
  const mb = megabytes(standard.chunks);
  const rate = (ms: number[]) => `${(mb / (median(ms) / 1000)).toFixed(1)} MB/s`;
  // Ratios are taken within each round (its three runs follow each other), then the median of the rounds: the
  // machine's load drifts between rounds far more than within one.
  const ratioStd = median(bareStd.map((bareMs, i) => bareMs / oursStd[i]));
  const ratioLines = median(bareStd.map((bareMs, i) => bareMs / oursLines[i]));
  return [
    {
      name: `SSE standard form (${mb.toFixed(1)} MB, ${standard.chunks.length} chunks of 20–200 B), ours`,
      value: rate(oursStd),
    },
    { name: 'same bytes, bare eventsource-parser + JSON.parse', value: rate(bareStd) },
    {
      name: `SSE ratio, standard form (ours / bare, same bytes), median of ${ROUNDS}`,
      value: ratioStd.toFixed(2),
      target: `≥ ${TARGET}`,
      pass: ratioStd >= TARGET,
    },
    {
      name: `SSE lines form (${megabytes(lines.chunks).toFixed(1)} MB, same events), ours, in standard-form MB/s`,
      value: rate(oursLines),
    },
    {
      name: `SSE ratio, lines form (ours on lines / bare on the standard form), median of ${ROUNDS}`,
      value: ratioLines.toFixed(2),
      target: `≥ ${TARGET}`,
      pass: ratioLines >= TARGET,
    },
  ];
}
