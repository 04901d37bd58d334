import { createParser } from 'eventsource-parser';
import { readContentDeltas } from '../../src/core/sse';
import { seededRandom as rng } from '../fakeService/chunking';
import { median, type BenchFigure } from './benchFigure';

const TOTAL_BYTES = 50 * 1024 * 1024;
const ROUNDS = 5;

/** 50 MB of `data: {"content": …}` events (tokens of 1–8 characters, some multi-byte), cut into 20–200-byte chunks. */
export function syntheticStream(totalBytes = TOTAL_BYTES): { chunks: Uint8Array[]; text: string } {
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
  const parts: string[] = [];
  const content: string[] = [];
  let size = 0;
  while (size < totalBytes) {
    const token = words[Math.floor(random() * words.length)];
    const line = `data: ${JSON.stringify({ content: token })}\n\n`;
    parts.push(line);
    content.push(token);
    size += Buffer.byteLength(line);
  }
  parts.push('data: [DONE]\n\n');
  const bytes = new TextEncoder().encode(parts.join(''));
  const chunks: Uint8Array[] = [];
  for (let i = 0; i < bytes.length;) {
    const n = 20 + Math.floor(random() * 181);
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
async function ours(chunks: Uint8Array[]): Promise<number> {
  let length = 0;
  for await (const delta of readContentDeltas(source(chunks))) {
    length += delta.length;
  }
  return length;
}

/** The baseline: bare eventsource-parser with a streaming decoder and JSON.parse per event, same source. */
async function bare(chunks: Uint8Array[]): Promise<number> {
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

/** Throughput of the SSE pipeline as a ratio against bare eventsource-parser (target ≥ 0.8). */
export async function run(): Promise<BenchFigure[]> {
  const { chunks, text } = syntheticStream();
  const mb = chunks.reduce((n, c) => n + c.byteLength, 0) / (1024 * 1024);
  await time(() => ours(chunks), text.length);
  await time(() => bare(chunks), text.length);
  const oursMs: number[] = [];
  const bareMs: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    oursMs.push(await time(() => ours(chunks), text.length));
    bareMs.push(await time(() => bare(chunks), text.length));
  }
  const oursMbps = mb / (median(oursMs) / 1000);
  const bareMbps = mb / (median(bareMs) / 1000);
  const ratio = oursMbps / bareMbps;
  return [
    {
      name: `SSE stream (${mb.toFixed(1)} MB, ${chunks.length} chunks of 20–200 B), ours`,
      value: `${oursMbps.toFixed(1)} MB/s`,
    },
    { name: 'same bytes, bare eventsource-parser + JSON.parse', value: `${bareMbps.toFixed(1)} MB/s` },
    {
      name: 'SSE throughput ratio (ours / bare), median of 5',
      value: ratio.toFixed(2),
      target: '≥ 0.8',
      pass: ratio >= 0.8,
    },
  ];
}
