/** A seeded pseudo-random generator (mulberry32) returning floats in [0, 1). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A 32-bit FNV-1a hash of a string, for seeding. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Splits text into pieces of 1–6 code points (never inside a surrogate pair), deterministically. */
export function splitPieces(text: string, seed: number): string[] {
  const random = seededRandom(seed);
  const points = Array.from(text);
  const pieces: string[] = [];
  for (let i = 0; i < points.length;) {
    const size = 1 + Math.floor(random() * 6);
    pieces.push(points.slice(i, i + size).join(''));
    i += size;
  }
  return pieces;
}

function isContinuation(byte: number): boolean {
  return (byte & 0xc0) === 0x80;
}

/**
 * Cuts bytes into chunks of 1..maxChunk bytes, deterministically. Whenever a chunk would end cleanly but a
 * multi-byte UTF-8 sequence starts inside it, the cut is moved (every other time) into that sequence, so
 * readers see characters split across chunks; random cuts also fall inside `data:` lines.
 */
export function chunkBytes(bytes: Buffer, seed: number, maxChunk = 64): Buffer[] {
  const random = seededRandom(seed);
  const chunks: Buffer[] = [];
  let start = 0;
  let splitNext = true;
  while (start < bytes.length) {
    let end = Math.min(bytes.length, start + 1 + Math.floor(random() * maxChunk));
    if (end < bytes.length && !isContinuation(bytes[end])) {
      const lead = findMultiByteLead(bytes, start + 1, end);
      if (lead >= 0 && splitNext) {
        end = lead + 1;
      }
      if (lead >= 0) {
        splitNext = !splitNext;
      }
    }
    chunks.push(bytes.subarray(start, end));
    start = end;
  }
  return chunks;
}

function findMultiByteLead(bytes: Buffer, from: number, to: number): number {
  for (let i = from; i < to; i++) {
    if (bytes[i] >= 0xc0) {
      return i;
    }
  }
  return -1;
}
