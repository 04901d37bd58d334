import { promises as fs, closeSync, openSync, readSync, statSync, type Stats } from 'node:fs';

/**
 * Every write of a shared file (a conversation, the index) starts it with `{"revision":"…"`: a token new with each
 * write. A window compares the token it last read or wrote with the file's to know whether another window wrote
 * since. (Inode, size and time are not enough: two windows' writes of the same size within one clock tick, on a
 * reused inode, look the same.) Files from before revisions fall back to those.
 */
const HEAD_BYTES = 256;
const HEAD = /^\{"revision":"([^"\\]{1,100})"/;

/** The revision `text` (a whole file) starts with, if any. */
export function revisionIn(text: string): string | undefined {
  return HEAD.exec(text)?.[1];
}

/** The revision of the file on disk now; undefined when it does not exist. */
export async function revisionOf(file: string): Promise<string | undefined> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, 'r');
  } catch {
    return undefined;
  }
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(HEAD_BYTES), 0, HEAD_BYTES, 0);
    return revisionIn(buffer.toString('utf8', 0, bytesRead)) ?? stampOf(await handle.stat());
  } catch {
    return undefined;
  } finally {
    await handle.close();
  }
}

/** `revisionOf`, blocking. */
export function revisionOfSync(file: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return undefined;
  }
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const read = readSync(fd, buffer, 0, HEAD_BYTES, 0);
    return revisionIn(buffer.toString('utf8', 0, read)) ?? stampOf(statSync(file));
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** The revision of a file's text as read; `stat` (of the same open file) for one written before revisions. */
export function revisionOfText(text: string, stat: Pick<Stats, 'ino' | 'size' | 'mtimeMs'>): string {
  return revisionIn(text) ?? stampOf(stat);
}

/** Makes revision tokens: unique per writer (process and store) and write. */
export class Revisions {
  private count = 0;
  constructor(private readonly writer: string) {}

  /** A new token. */
  next(): string {
    return `${this.writer}-${++this.count}`;
  }
}

function stampOf(stat: Pick<Stats, 'ino' | 'size' | 'mtimeMs'>): string {
  return `stat:${stat.ino}:${stat.size}:${stat.mtimeMs}`;
}
