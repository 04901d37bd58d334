import { promises as fs, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { ConversationSummary } from './conversationSummary';
import { revisionOf, revisionOfText, Revisions } from '../../storage/revisionFile';
import { PRIVATE_FILE_MODE } from '../../storage/privateFiles';

/** A change to the index: an entry to set, or an id to drop. */
export type IndexChange = { set: ConversationSummary } | { drop: string };

/**
 * The conversation list's file, `index.json`: titles and times, so the list opens without reading every
 * conversation. Every change is read-modify-write of the file as it is on disk now (under the folder lock the
 * store holds), never a write of a copy read earlier: another window's entries survive.
 */
export class IndexFile {
  /** The revision of the index as this window last read or wrote it. */
  revision: string | undefined;
  private tempCount = 0;
  private readonly revisions: Revisions;
  /** What this window last wrote, to apply the next change to without reading the file again. */
  private written: { revision: string; map: Map<string, ConversationSummary> } | undefined;

  constructor(
    private readonly file: string,
    private readonly isId: (id: unknown) => id is string,
    /** Names this writer's temp files (unique per process and store). */
    private readonly writer: string,
  ) {
    this.revisions = new Revisions(`index-${writer}`);
  }

  /** Whether another window wrote the index since this one last read or wrote it. */
  async changed(): Promise<boolean> {
    return (await revisionOf(this.file)) !== this.revision;
  }

  /** The entries on disk (none when the file is missing or damaged). */
  async read(): Promise<Map<string, ConversationSummary>> {
    try {
      const handle = await fs.open(this.file, 'r');
      try {
        const stat = await handle.stat();
        const text = await handle.readFile('utf8');
        this.revision = revisionOfText(text, stat);
        return this.parse(text);
      } finally {
        await handle.close();
      }
    } catch {
      return new Map();
    }
  }

  /** Applies `change` to the index on disk; returns the entries as written. */
  async apply(change: IndexChange): Promise<Map<string, ConversationSummary>> {
    // The index as this window last wrote it, unless another window wrote it since (a streaming save reads 256 bytes).
    const map =
      this.written && (await revisionOf(this.file)) === this.written.revision
        ? new Map(this.written.map)
        : await this.read();
    if (!applyTo(map, change)) {
      return map;
    }
    const temp = `${this.file}.${this.writer}.${++this.tempCount}.tmp`;
    try {
      const revision = this.revisions.next();
      await fs.writeFile(temp, serialize(map, revision), { encoding: 'utf8', mode: PRIVATE_FILE_MODE });
      await fs.rename(temp, this.file);
      this.revision = revision;
      this.written = { revision, map: new Map(map) };
    } catch (error) {
      await fs.rm(temp, { force: true }).catch(() => undefined);
      throw error;
    }
    return map;
  }

  /** Applies `change` blocking (the extension is going away). */
  applySync(change: IndexChange): void {
    let map: Map<string, ConversationSummary>;
    try {
      map = this.parse(readFileSync(this.file, 'utf8'));
    } catch {
      map = new Map();
    }
    if (!applyTo(map, change)) {
      return;
    }
    const temp = `${this.file}.${this.writer}.${++this.tempCount}.tmp`;
    try {
      const revision = this.revisions.next();
      writeFileSync(temp, serialize(map, revision), { encoding: 'utf8', mode: PRIVATE_FILE_MODE });
      renameSync(temp, this.file);
      this.revision = revision;
    } catch (error) {
      rmSync(temp, { force: true });
      throw error;
    }
  }

  private parse(text: string): Map<string, ConversationSummary> {
    const map = new Map<string, ConversationSummary>();
    try {
      const value = JSON.parse(text) as { conversations?: unknown };
      const list = Array.isArray(value.conversations) ? (value.conversations as Partial<ConversationSummary>[]) : [];
      for (const s of list) {
        if (
          this.isId(s.id) &&
          typeof s.title === 'string' &&
          typeof s.updatedAt === 'number' &&
          typeof s.messageCount === 'number'
        ) {
          const summary: ConversationSummary = {
            id: s.id,
            title: s.title,
            updatedAt: s.updatedAt,
            messageCount: s.messageCount,
          };
          if (s.pinned === true) {
            summary.pinned = true;
          }
          if (typeof s.workspace === 'string' && s.workspace) {
            summary.workspace = s.workspace;
          }
          map.set(s.id, summary);
        }
      }
    } catch {
      // A damaged index is rebuilt from the folder.
    }
    return map;
  }
}

/** Applies a change; false when it changes nothing (then the file is not written). */
function applyTo(map: Map<string, ConversationSummary>, change: IndexChange): boolean {
  if ('drop' in change) {
    return map.delete(change.drop);
  }
  const old = map.get(change.set.id);
  const s = change.set;
  if (
    old?.title === s.title &&
    old.updatedAt === s.updatedAt &&
    old.messageCount === s.messageCount &&
    old.pinned === s.pinned &&
    old.workspace === s.workspace
  ) {
    return false;
  }
  map.set(s.id, s);
  return true;
}

function serialize(map: Map<string, ConversationSummary>, revision: string): string {
  return JSON.stringify({ revision, version: 1, conversations: [...map.values()] });
}

const INDEX_FILE = 'index.json';
/** A temp file this old is left over from a crash (a live write takes milliseconds). */
const STALE_TEMP_MS = 60_000;

/**
 * Reconciles the index's entries with the folder's file `names`: entries whose file is gone are dropped, files the
 * index does not know (written by a window that went away before updating it) are read with `summarize` and added,
 * and temp files left by a crash are removed.
 */
export async function reconcile(
  map: Map<string, ConversationSummary>,
  names: string[],
  dir: string,
  isId: (id: unknown) => id is string,
  summarize: (id: string) => Promise<ConversationSummary | undefined>,
): Promise<Map<string, ConversationSummary>> {
  const onDisk = new Set<string>();
  for (const name of names) {
    const id = name.endsWith('.json') && name !== INDEX_FILE ? name.slice(0, -5) : undefined;
    if (id && isId(id)) {
      onDisk.add(id);
    } else if (name.endsWith('.tmp')) {
      await removeIfStale(path.join(dir, name));
    }
  }
  for (const id of map.keys()) {
    if (!onDisk.has(id)) {
      map.delete(id);
    }
  }
  for (const id of onDisk) {
    if (!map.has(id)) {
      const summary = await summarize(id);
      if (summary) {
        map.set(id, summary);
      }
    }
  }
  return map;
}

async function removeIfStale(file: string): Promise<void> {
  try {
    const stat = await fs.stat(file);
    if (Date.now() - stat.mtimeMs > STALE_TEMP_MS) {
      await fs.rm(file, { force: true });
    }
  } catch {
    // Another window renamed or removed it meanwhile.
  }
}
