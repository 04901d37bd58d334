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
