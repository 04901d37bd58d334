import * as fs from 'node:fs';
import * as path from 'node:path';
import { filesUnder } from './paths';

/** One file holding one of the searched strings. */
export interface SecretHit {
  file: string;
  needle: string;
  encoding: 'utf8' | 'utf16le' | 'base64';
}

/**
 * Searches every file under `dir` (symlinks not followed) for each needle, as UTF-8, UTF-16LE (SQLite, LevelDB)
 * and base64. Returns the hits, where the needle is shown only by its first four characters.
 */
export function scanForSecrets(dir: string, needles: string[]): SecretHit[] {
  const patterns = needles.flatMap((needle) => [
    { needle, encoding: 'utf8' as const, bytes: Buffer.from(needle, 'utf8') },
    { needle, encoding: 'utf16le' as const, bytes: Buffer.from(needle, 'utf16le') },
    ...base64Forms(needle).map((form) => ({ needle, encoding: 'base64' as const, bytes: Buffer.from(form) })),
  ]);
  const hits: SecretHit[] = [];
  for (const file of filesUnder(dir)) {
    let content: Buffer;
    try {
      content = fs.readFileSync(file);
    } catch {
      continue; // removed while we walked (a server's temp file)
    }
    for (const { needle, encoding, bytes } of patterns) {
      if (content.includes(bytes)) {
        hits.push({ file: path.relative(dir, file), needle: `${needle.slice(0, 4)}…`, encoding });
      }
    }
  }
  return hits;
}

/** Counts the files under `dir`, to show that a scan with no hit did look at something. */
export function countFiles(dir: string): number {
  return filesUnder(dir).length;
}

/** The needle's base64 at each of the three byte alignments, without the groups it shares with its neighbours. */
function base64Forms(needle: string): string[] {
  const bytes = Buffer.from(needle, 'utf8');
  return [0, 1, 2].map((offset) => {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    return encoded.slice(offset === 0 ? 0 : 4, -4);
  });
}
