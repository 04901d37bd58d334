import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { makePrivateDir, makePrivateDirSync, PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../storage/privateFiles';
import { dirname } from 'node:path';
import type { CacheEntry } from './lookupCache';

const VERSION = 1;

interface SnapshotJson {
  version: number;
  savedAt: number;
  entries: { k: string; t: number; v: unknown }[];
}

/**
 * The cache persisted as one JSON file (in the extension's global storage, or the stdio MCP server's cache folder).
 * Written to a temporary file (`0600`, in a folder created `0700`: it holds what the user looked up) and renamed, so
 * a crash never leaves half a file; a missing, corrupt or foreign file reads as empty.
 */
export class CacheSnapshotFile<V> {
  constructor(
    readonly path: string,
    /** Checks one stored value; entries failing it are dropped (a file from another version, or edited). */
    private readonly isValue: (value: unknown) => value is V,
    /**
     * Whether a folder that exists already is made `0700` too (the extension's own storage); folders created are
     * always `0700`. Off for a folder the user may share with others (the stdio server's `AXO_CACHE_DIR`).
     */
    private readonly options: { tightenExistingFolder?: boolean } = {},
  ) {}

  /** The stored entries, oldest use first. Never throws: returns the reason it read nothing as `problem`. */
  async load(): Promise<{ entries: CacheEntry<V>[]; problem?: string }> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      const code = (error as { code?: string }).code;
      return { entries: [], problem: code === 'ENOENT' ? undefined : `cannot read the cache file (${code})` };
    }
    return this.parse(text);
  }

  /** Parses the file's text (exposed for the benchmark of a cold start). */
  parse(text: string): { entries: CacheEntry<V>[]; problem?: string } {
    let json: Partial<SnapshotJson>;
    try {
      json = JSON.parse(text) as Partial<SnapshotJson>;
    } catch {
      return { entries: [], problem: 'the cache file is not valid JSON; starting with an empty cache' };
    }
    if (json?.version !== VERSION || !Array.isArray(json.entries)) {
      return { entries: [], problem: 'the cache file has an unknown format; starting with an empty cache' };
    }
    const entries: CacheEntry<V>[] = [];
    for (const item of json.entries) {
      if (item && typeof item.k === 'string' && Number.isFinite(item.t) && this.isValue(item.v)) {
        entries.push({ key: item.k, storedAt: item.t, value: item.v });
      }
    }
    return { entries };
  }

  /** Writes the entries (replacing the file). */
  async save(entries: CacheEntry<V>[], now = Date.now()): Promise<void> {
    const dir = dirname(this.path);
    if (this.options.tightenExistingFolder === false) {
      await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    } else {
      await makePrivateDir(dir);
    }
    const temp = `${this.path}.${process.pid}.${now}.tmp`;
    await writeFile(temp, serialize(entries, now), { encoding: 'utf8', mode: PRIVATE_FILE_MODE });
    await rename(temp, this.path);
  }

  /** Writes the entries synchronously (when the extension shuts down and cannot wait). */
  saveSync(entries: CacheEntry<V>[], now = Date.now()): void {
    const dir = dirname(this.path);
    if (this.options.tightenExistingFolder === false) {
      mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    } else {
      makePrivateDirSync(dir);
    }
    const temp = `${this.path}.${process.pid}.${now}.tmp`;
    writeFileSync(temp, serialize(entries, now), { encoding: 'utf8', mode: PRIVATE_FILE_MODE });
    renameSync(temp, this.path);
  }

  /** Removes the file. */
  async delete(): Promise<void> {
    await rm(this.path, { force: true });
  }
}

function serialize<V>(entries: CacheEntry<V>[], now: number): string {
  const json: SnapshotJson = {
    version: VERSION,
    savedAt: now,
    entries: entries.map((e) => ({ k: e.key, t: e.storedAt, v: e.value })),
  };
  return JSON.stringify(json);
}
