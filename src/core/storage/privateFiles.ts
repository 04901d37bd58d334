import { promises as fs, chmodSync, mkdirSync } from 'node:fs';
import * as path from 'node:path';

/**
 * The files the extension writes hold prompts, attachments, terminal output and replies: only their owner may read
 * them. Files are created `0600` and folders `0700` (where the platform has modes: on Windows `chmod` only sets the
 * read-only flag, and the profile folder's ACL already keeps other users out).
 */
export const PRIVATE_FILE_MODE = 0o600;
/** See {@link PRIVATE_FILE_MODE}. */
export const PRIVATE_DIR_MODE = 0o700;

/** Whether this platform has Unix file modes. */
export const hasFileModes = process.platform !== 'win32';

/** Creates `dir` (and missing parents) `0700`, and tightens `dir` itself if it already existed wider. */
export async function makePrivateDir(dir: string): Promise<void> {
  await fs.mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (hasFileModes) {
    await fs.chmod(dir, PRIVATE_DIR_MODE).catch(() => undefined);
  }
}

/** `makePrivateDir`, blocking. */
export function makePrivateDirSync(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (hasFileModes) {
    try {
      chmodSync(dir, PRIVATE_DIR_MODE);
    } catch {
      // Not ours to change (a shared parent): the files in it are still 0600.
    }
  }
}

/**
 * Tightens what an earlier version wrote with the default modes (0644 files in 0755 folders under umask 022):
 * `dir` becomes 0700 and each file directly in it 0600 (subfolders likewise, `depth` levels down). A missing
 * folder is fine. Returns how many entries were changed.
 */
export async function tightenFolder(dir: string, depth = 1): Promise<number> {
  if (!hasFileModes) {
    return 0;
  }
  let entries: import('node:fs').Dirent[];
  try {
    entries = await fs.readdir(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  let changed = (await tighten(dir, PRIVATE_DIR_MODE)) ? 1 : 0;
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isFile()) {
      changed += (await tighten(full, PRIVATE_FILE_MODE)) ? 1 : 0;
    } else if (entry.isDirectory() && depth > 0) {
      changed += await tightenFolder(full, depth - 1);
    }
  }
  return changed;
}

/** Tightens one file `file` (0600) if it exists; true when its mode changed. */
export async function tightenFile(file: string): Promise<boolean> {
  return hasFileModes && tighten(file, PRIVATE_FILE_MODE);
}

async function tighten(target: string, mode: number): Promise<boolean> {
  try {
    const stat = await fs.lstat(target);
    if (stat.isSymbolicLink() || (stat.mode & 0o777) === mode) {
      return false;
    }
    await fs.chmod(target, mode);
    return true;
  } catch {
    return false;
  }
}
