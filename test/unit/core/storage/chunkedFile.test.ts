import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readWhole } from '../../../../src/core/storage/chunkedFile';

describe('readWhole: an open file read in one request', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'read-whole-'));
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** The bytes `readWhole` gives for a file of `bytes`, told the file is `size` long. */
  async function readAs(bytes: Buffer, size: number): Promise<Buffer> {
    const file = path.join(dir, 'f');
    fs.writeFileSync(file, bytes);
    const handle = await fs.promises.open(file, 'r');
    try {
      return await readWhole(handle, size);
    } finally {
      await handle.close();
    }
  }

  it('reads every byte, whether the size it is told is right, too small (the file grew) or too large', async () => {
    const bytes = Buffer.from(Array.from({ length: 300_000 }, (_, i) => i % 251));
    assert.deepEqual(await readAs(bytes, bytes.length), bytes);
    assert.deepEqual(await readAs(bytes, 1_000), bytes, 'a file that grew since its stat is read to its end');
    assert.deepEqual(await readAs(bytes, 0), bytes);
    assert.deepEqual(await readAs(bytes, bytes.length + 5_000), bytes, 'a file that shrank ends where it ends');
    assert.deepEqual(await readAs(Buffer.alloc(0), 0), Buffer.alloc(0));
  });
});
