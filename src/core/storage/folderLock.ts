import { randomUUID } from 'node:crypto';
import { promises as fs, openSync, closeSync, writeSync, readFileSync, rmSync, statSync } from 'node:fs';
import { PRIVATE_FILE_MODE } from './privateFiles';

/** A lock held longer than this belongs to a process that died holding it (a locked write takes milliseconds). */
const STALE_MS = 10_000;
/** How long a blocking save waits for another window's write before it takes the lock anyway. */
const SYNC_WAIT_MS = 2_000;
const RETRY_MS = 15;

/**
 * A lock shared by every window (every process) that writes one folder: a file created only if it does not exist
 * (`wx`), removed when the work is done. Windows take it around read-compare-write, so a write cannot slip in
 * between another window's check and its write. A lock left by a crashed process is taken over once stale.
 */
export class FolderLock {
  constructor(private readonly file: string) {}

  /** Runs `work` holding the lock. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    const token = randomUUID();
    while (!(await this.tryAcquire(token))) {
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
    try {
      return await work();
    } finally {
      await this.release(token);
    }
  }

  /**
   * Runs `work` holding the lock, blocking (the extension is going away). Waits for another window's write at most
   * SYNC_WAIT_MS, then goes ahead without the lock: losing the last save is worse than a rare race.
   */
  runSync<T>(work: () => T): T {
    const token = randomUUID();
    const until = Date.now() + SYNC_WAIT_MS;
    let held = this.tryAcquireSync(token);
    while (!held && Date.now() < until) {
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, RETRY_MS);
      held = this.tryAcquireSync(token);
    }
    try {
      return work();
    } finally {
      if (held) {
        this.releaseSync(token);
      }
    }
  }

  private async tryAcquire(token: string): Promise<boolean> {
    try {
      const handle = await fs.open(this.file, 'wx', PRIVATE_FILE_MODE);
      await handle.writeFile(token).finally(() => handle.close());
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw error;
      }
    }
    try {
      if (Date.now() - (await fs.stat(this.file)).mtimeMs > STALE_MS) {
        await fs.rm(this.file, { force: true });
      }
    } catch {
      // Released meanwhile: the next try takes it.
    }
    return false;
  }

  private tryAcquireSync(token: string): boolean {
    try {
      const fd = openSync(this.file, 'wx', PRIVATE_FILE_MODE);
      try {
        writeSync(fd, token);
      } finally {
        closeSync(fd);
      }
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw error;
      }
    }
    try {
      if (Date.now() - statSync(this.file).mtimeMs > STALE_MS) {
        rmSync(this.file, { force: true });
      }
    } catch {
      // Released meanwhile.
    }
    return false;
  }

  /** Removes the lock if it is still this holder's (a stale one may have been taken over). */
  private async release(token: string): Promise<void> {
    try {
      if ((await fs.readFile(this.file, 'utf8')) === token) {
        await fs.rm(this.file, { force: true });
      }
    } catch {
      // Already gone.
    }
  }

  private releaseSync(token: string): void {
    try {
      if (readFileSync(this.file, 'utf8') === token) {
        rmSync(this.file, { force: true });
      }
    } catch {
      // Already gone.
    }
  }
}
