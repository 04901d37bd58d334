import { promises as fs, closeSync, openSync, writevSync } from 'node:fs';
import { PRIVATE_FILE_MODE } from './privateFiles';

/** Writes `chunks` to a new file (0600) in one `writev` (libuv loops over partial writes and the system's vector limit). */
export async function writeChunks(file: string, chunks: Buffer[]): Promise<void> {
  const handle = await fs.open(file, 'w', PRIVATE_FILE_MODE);
  try {
    const { bytesWritten } = await handle.writev(chunks);
    checkWritten(bytesWritten, chunks);
  } finally {
    await handle.close();
  }
}

/** `writeChunks`, blocking. */
export function writeChunksSync(file: string, chunks: Buffer[]): void {
  const fd = openSync(file, 'w', PRIVATE_FILE_MODE);
  try {
    checkWritten(writevSync(fd, chunks), chunks);
  } finally {
    closeSync(fd);
  }
}

function checkWritten(written: number, chunks: Buffer[]): void {
  const expected = chunks.reduce((sum, c) => sum + c.length, 0);
  if (written !== expected) {
    throw new Error(`Short write: ${written} of ${expected} bytes`);
  }
}

/**
 * The bytes of an open file whose size `size` is (from its `stat`): read in one request, not in `readFile`'s pieces
 * of 512 KB after a `stat` of its own, each a trip through the thread pool with other work between them. (Most of
 * what a 4.4 MB conversation's read still takes on the build machine, 30–46 ms, is touching the new memory.) One
 * byte more than `size` is asked for: a regular file's read comes back short only at its end, so one read is enough;
 * a file that grew since its `stat` is read to its end.
 */
export async function readWhole(handle: fs.FileHandle, size: number): Promise<Buffer> {
  let buffer = Buffer.allocUnsafe(size + 1);
  let length = 0;
  for (;;) {
    const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
    length += bytesRead;
    if (bytesRead === 0 || length < buffer.length) {
      return buffer.subarray(0, length);
    }
    const larger = Buffer.allocUnsafe(buffer.length * 2);
    buffer.copy(larger);
    buffer = larger;
  }
}
