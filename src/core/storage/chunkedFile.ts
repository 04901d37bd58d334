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
 * The bytes of an open file whose size `size` is (from its `stat`): read in one request where the system allows,
 * not in `readFile`'s pieces of 512 KB, each a trip through the thread pool with other work between them (a
 * 4.4 MB conversation took 40 ms so in the extension host). A file that grew since its `stat` is read to its end.
 */
export async function readWhole(handle: fs.FileHandle, size: number): Promise<Buffer> {
  const buffer = Buffer.allocUnsafe(size);
  let length = 0;
  while (length < size) {
    const { bytesRead } = await handle.read(buffer, length, size - length, length);
    if (bytesRead === 0) {
      return buffer.subarray(0, length);
    }
    length += bytesRead;
  }
  const more: Buffer[] = [];
  for (;;) {
    const piece = Buffer.allocUnsafe(64 * 1024);
    const { bytesRead } = await handle.read(piece, 0, piece.length, length);
    if (bytesRead === 0) {
      return more.length === 0 ? buffer : Buffer.concat([buffer, ...more]);
    }
    more.push(piece.subarray(0, bytesRead));
    length += bytesRead;
  }
}
