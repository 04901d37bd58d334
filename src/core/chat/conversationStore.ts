import { promises as fs, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { describeError } from '../errors';
import type { Logger } from '../logger';
import { parseConversation, type Conversation } from './conversation';

/** One line of the conversation list. */
export interface ConversationSummary {
  id: string;
  title: string;
  updatedAt: number;
  messageCount: number;
}

const INDEX_FILE = 'index.json';
const ID = /^[A-Za-z0-9_-]{1,64}$/;
/** A temp file this old is left over from a crash (a live write takes milliseconds). */
const STALE_TEMP_MS = 60_000;

/** Whether `id` is a safe conversation id (it names a file; ids from a webview are checked with this). */
export function isConversationId(id: unknown): id is string {
  return typeof id === 'string' && ID.test(id);
}

/** The summary of a conversation. */
export function summaryOf(c: Conversation): ConversationSummary {
  return { id: c.id, title: c.title, updatedAt: c.updatedAt, messageCount: c.messages.length };
}

/**
 * Conversations on disk: one JSON file per conversation in `dir`, each written atomically (a temp file, then a
 * rename, so a crash leaves the old or the new file, never half of one), plus an index of titles and times so the
 * list opens without reading every conversation. The index is only a cache: files it does not know (written by
 * another window) are read and added, and entries whose file is gone are dropped. Writes run one at a time.
 */
export class ConversationStore {
  private summaries: Map<string, ConversationSummary> | undefined;
  private loading: Promise<Map<string, ConversationSummary>> | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private tempCount = 0;

  constructor(
    readonly dir: string,
    private readonly log: Logger,
  ) {}

  /** The conversations, newest first. */
  async list(): Promise<ConversationSummary[]> {
    const map = await this.index();
    return [...map.values()].sort((a, b) => b.updatedAt - a.updatedAt);
  }

  /** Reads one conversation; undefined when it does not exist or cannot be read. */
  async load(id: string): Promise<Conversation | undefined> {
    if (!isConversationId(id)) {
      return undefined;
    }
    try {
      const text = await fs.readFile(this.fileOf(id), 'utf8');
      const conversation = parseConversation(JSON.parse(text));
      return conversation?.id === id ? conversation : undefined;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
        this.log.warn(`Chat: could not read conversation ${id}: ${describeError(error)}`);
      }
      return undefined;
    }
  }

  /** Writes a conversation (an empty one is not kept) and updates the index. */
  async save(conversation: Conversation): Promise<void> {
    if (!isConversationId(conversation.id)) {
      throw new Error(`Invalid conversation id: ${conversation.id}`);
    }
    if (conversation.messages.length === 0) {
      return this.delete(conversation.id);
    }
    const text = JSON.stringify(conversation);
    const summary = summaryOf(conversation);
    await this.serial(async () => {
      await this.writeAtomic(this.fileOf(conversation.id), text);
      (await this.index()).set(summary.id, summary);
      await this.writeIndex();
    });
  }

  /**
   * Writes a conversation at once, blocking: for the moment the extension is disposed mid-stream, when an async
   * write might never finish. The index is brought up to date at the next start (the folder is reconciled).
   */
  saveSync(conversation: Conversation): void {
    if (!isConversationId(conversation.id) || conversation.messages.length === 0) {
      return;
    }
    const file = this.fileOf(conversation.id);
    const temp = `${file}.${process.pid}.${++this.tempCount}.tmp`;
    mkdirSync(this.dir, { recursive: true });
    writeFileSync(temp, JSON.stringify(conversation), 'utf8');
    renameSync(temp, file);
    this.summaries?.set(conversation.id, summaryOf(conversation));
  }

  /** Deletes a conversation's file and its index entry. */
  async delete(id: string): Promise<void> {
    if (!isConversationId(id)) {
      return;
    }
    await this.serial(async () => {
      await fs.rm(this.fileOf(id), { force: true });
      if ((await this.index()).delete(id)) {
        await this.writeIndex();
      }
    });
  }

  /** Waits for every write asked for so far. */
  async idle(): Promise<void> {
    await this.queue.catch(() => undefined);
  }

  private fileOf(id: string): string {
    return path.join(this.dir, `${id}.json`);
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.catch(() => undefined).then(work);
    this.queue = next;
    return next;
  }

  private async writeAtomic(file: string, text: string): Promise<void> {
    await fs.mkdir(this.dir, { recursive: true });
    const temp = `${file}.${process.pid}.${++this.tempCount}.tmp`;
    try {
      await fs.writeFile(temp, text, 'utf8');
      await fs.rename(temp, file);
    } catch (error) {
      await fs.rm(temp, { force: true }).catch(() => undefined);
      throw error;
    }
  }

  private async writeIndex(): Promise<void> {
    const conversations = [...(this.summaries?.values() ?? [])];
    await this.writeAtomic(path.join(this.dir, INDEX_FILE), JSON.stringify({ version: 1, conversations }));
  }

  private index(): Promise<Map<string, ConversationSummary>> {
    if (this.summaries) {
      return Promise.resolve(this.summaries);
    }
    this.loading ??= this.readIndex().then((map) => (this.summaries = map));
    return this.loading;
  }

  /** Reads the index and reconciles it with the folder. */
  private async readIndex(): Promise<Map<string, ConversationSummary>> {
    let names: string[];
    try {
      names = await fs.readdir(this.dir);
    } catch {
      return new Map();
    }
    const map = new Map<string, ConversationSummary>();
    for (const s of await this.readIndexFile()) {
      map.set(s.id, s);
    }
    const onDisk = new Set<string>();
    for (const name of names) {
      const id = name.endsWith('.json') && name !== INDEX_FILE ? name.slice(0, -5) : undefined;
      if (id && isConversationId(id)) {
        onDisk.add(id);
      } else if (name.endsWith('.tmp')) {
        await this.removeIfStale(path.join(this.dir, name));
      }
    }
    for (const id of map.keys()) {
      if (!onDisk.has(id)) {
        map.delete(id);
      }
    }
    for (const id of onDisk) {
      if (!map.has(id)) {
        const conversation = await this.load(id);
        if (conversation) {
          map.set(id, summaryOf(conversation));
        }
      }
    }
    return map;
  }

  private async readIndexFile(): Promise<ConversationSummary[]> {
    try {
      const value = JSON.parse(await fs.readFile(path.join(this.dir, INDEX_FILE), 'utf8')) as {
        conversations?: unknown;
      };
      const list = Array.isArray(value.conversations) ? (value.conversations as Partial<ConversationSummary>[]) : [];
      return list.filter(
        (s): s is ConversationSummary =>
          isConversationId(s.id) &&
          typeof s.title === 'string' &&
          typeof s.updatedAt === 'number' &&
          typeof s.messageCount === 'number',
      );
    } catch {
      return [];
    }
  }

  private async removeIfStale(file: string): Promise<void> {
    try {
      const stat = await fs.stat(file);
      if (Date.now() - stat.mtimeMs > STALE_TEMP_MS) {
        await fs.rm(file, { force: true });
      }
    } catch {
      // Another window renamed or removed it meanwhile.
    }
  }
}
