import { promises as fs, existsSync, renameSync, rmSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import { describeError } from '../../service/errors';
import type { Logger } from '../../logger';
import type { Conversation } from '../conversation/conversation';
import {
  isConversationId,
  listOrder,
  summaryOf,
  type ConversationSummary,
  type StoreChange,
} from './conversationSummary';
import { ConversationEncoder, decodeConversationFileSync, readConversationFile } from './conversationEncoder';
import { IndexFile, reconcile, type IndexChange } from './conversationIndex';
import { SearchIndex } from './searchIndex';
import { differs, mergeConversations } from '../conversation/conversationMerge';
import { OperationQueue } from '../runs/operationQueue';
import { writeChunks, writeChunksSync } from '../../storage/chunkedFile';
import { FolderLock } from '../../storage/folderLock';
import { makePrivateDir, makePrivateDirSync } from '../../storage/privateFiles';
import { noFolderWatcher, watchSettled, type FolderWatcher, type Stoppable } from '../../storage/folderWatcher';
import { revisionOf, revisionOfSync, revisionOfText, Revisions } from '../../storage/revisionFile';

/** What this window last read or wrote of one conversation file: its revision and its messages' ids. */
interface Base {
  revision: string;
  ids: ReadonlySet<string>;
}

const INDEX_FILE = 'index.json';
const LOCK_FILE = '.lock';
/** File events come in bursts (temp file, rename, index): they are looked at once the burst is over. */
const SETTLE_MS = 50;
/** How long a blocking save waits for an asynchronous rename already handed to the system. */
const RENAME_WAIT_MS = 1_000;

/**
 * Conversations on disk, shared by every window: one JSON file per conversation in `dir`, each written atomically
 * (a temp file, then a rename), plus an index of titles and times. Windows write under one folder lock, and a write
 * is a compare-and-swap: when the file changed since this window read or wrote it, the other window's turns are
 * merged in first (mergeConversations), so no write drops turns it did not see. The index is read-modify-written
 * the same way, and re-read when the watcher reports another window's change. Writes of one window run one at a
 * time; the blocking save on exit wins over any asynchronous write still under way (a generation counter).
 */
export class ConversationStore implements Stoppable {
  private summaries: Map<string, ConversationSummary> | undefined;
  private loading: Promise<Map<string, ConversationSummary>> | undefined;
  private readonly queue = new OperationQueue();
  private tempCount = 0;
  /** Names this store's temp files: unique across processes and across stores of one process. */
  private readonly writer = `${process.pid}-${randomUUID().slice(0, 8)}`;
  private readonly revisions = new Revisions(this.writer);
  private readonly bases = new Map<string, Base>();
  /** Conversations this window deleted: a late save of one does not bring it back. */
  private readonly deleted = new Set<string>();
  private readonly encoder = new ConversationEncoder();
  private readonly lock: FolderLock;
  private readonly indexFile: IndexFile;
  /** The full-text search over the conversations, with its index beside them (written after saves, off their path). */
  readonly search: SearchIndex;
  /** Every save takes the next number; an asynchronous write at or below `syncGeneration` is dropped. */
  private generation = 0;
  private syncGeneration = 0;
  /** The temp file of an asynchronous rename handed to the system and not yet known to be done. */
  private renaming: string | undefined;
  private readonly listeners = new Set<(change: StoreChange) => void>();
  /** Started with the first read or write, not at construction: activation does no I/O. */
  private watching: Stoppable | undefined;

  constructor(
    readonly dir: string,
    private readonly log: Logger,
    private readonly watcher: FolderWatcher = noFolderWatcher,
  ) {
    this.lock = new FolderLock(path.join(dir, LOCK_FILE));
    this.indexFile = new IndexFile(path.join(dir, INDEX_FILE), isConversationId, this.writer);
    this.search = new SearchIndex(dir, log, (id) => this.load(id));
  }

  /** Listens for changes other windows make (seen by the watcher or `checkForChanges`). */
  onDidChange(listener: (change: StoreChange) => void): Stoppable {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** The conversations, newest first. */
  async list(): Promise<ConversationSummary[]> {
    this.watch();
    const map = await this.index();
    return [...map.values()].sort(listOrder);
  }

  /** Reads one conversation; undefined when it does not exist or cannot be read. */
  async load(id: string): Promise<Conversation | undefined> {
    this.watch();
    return isConversationId(id) ? this.read(id, false) : undefined;
  }

  /**
   * Writes a conversation (an empty one is not kept) and updates the index. When another window changed the file
   * since this one read it, writes the merge of both and returns it (the caller shows it); else undefined.
   */
  async save(conversation: Conversation): Promise<Conversation | undefined> {
    if (!isConversationId(conversation.id)) {
      throw new Error(`Invalid conversation id: ${conversation.id}`);
    }
    if (conversation.messages.length === 0 || this.deleted.has(conversation.id)) {
      return undefined;
    }
    this.watch();
    const generation = ++this.generation;
    return this.serial(async () => {
      await makePrivateDir(this.dir);
      return this.lock.run(() => this.write(conversation, generation));
    });
  }

  /**
   * The conversation merged with what another window wrote since this one last read or wrote it; undefined when
   * the file did not change (or is gone). Nothing is written.
   */
  async refresh(conversation: Conversation): Promise<Conversation | undefined> {
    // In line with this window's writes: a read between a write's rename and its bookkeeping would look foreign.
    return this.serial(async () => {
      const base = this.bases.get(conversation.id);
      const revision = await revisionOf(this.fileOf(conversation.id));
      if (revision === undefined || revision === base?.revision) {
        return undefined;
      }
      const theirs = await this.read(conversation.id, false);
      if (!theirs) {
        return undefined;
      }
      const merged = mergeConversations(base ?? { ids: new Set() }, conversation, theirs);
      return differs(conversation, merged) ? merged : undefined;
    });
  }

  /**
   * Writes a conversation at once, blocking: for the moment the extension is disposed mid-stream, when an async
   * write might never finish. No asynchronous write of this window can land after it, and another window's turns
   * written meanwhile are merged in as in `save`. A failed write leaves no temp file.
   */
  saveSync(conversation: Conversation): void {
    if (!isConversationId(conversation.id) || conversation.messages.length === 0) {
      return;
    }
    this.syncGeneration = ++this.generation;
    makePrivateDirSync(this.dir);
    this.waitForRename();
    this.lock.runSync(() => {
      const file = this.fileOf(conversation.id);
      const base = this.bases.get(conversation.id);
      const current = revisionOfSync(file);
      let latest = conversation;
      if (current !== undefined && current !== base?.revision) {
        const theirs = decodeConversationFileSync(file);
        latest = theirs ? mergeConversations(base ?? { ids: new Set() }, conversation, theirs) : conversation;
      }
      const temp = this.tempOf(file);
      const revision = this.revisions.next();
      try {
        writeChunksSync(temp, this.encoder.encode(latest, revision));
        renameSync(temp, file);
        this.remember(latest, revision);
      } catch (error) {
        rmSync(temp, { force: true });
        throw error;
      }
      this.updateIndexSync({ set: summaryOf(latest) });
    });
  }

  /** Deletes a conversation's file and its index entry. */
  async delete(id: string): Promise<void> {
    if (!isConversationId(id)) {
      return;
    }
    this.deleted.add(id);
    await this.serial(async () => {
      await makePrivateDir(this.dir);
      await this.lock.run(async () => {
        await fs.rm(this.fileOf(id), { force: true });
        this.bases.delete(id);
        await this.updateIndex({ drop: id });
        await this.search.deleted(id);
      });
    });
  }

  /** A conversation deleted here may be written again (Undo brings it back). */
  undelete(id: string): void {
    this.deleted.delete(id);
  }

  /** Waits for every write asked for so far, the search index's included. */
  async idle(): Promise<void> {
    await this.queue.idle();
    await this.search.flush();
  }

  /**
   * Looks for changes other windows made to the folder (the watcher calls this; a host without one can call it when
   * the window gains focus) and tells the listeners. `names` are the files to look at; all known ones by default.
   */
  async checkForChanges(names?: Iterable<string>): Promise<void> {
    const files = names ? [...names] : [INDEX_FILE, ...[...this.bases.keys()].map((id) => `${id}.json`)];
    const ids = new Set<string>();
    let list = false;
    for (const name of files) {
      if (name === INDEX_FILE) {
        list ||= await this.indexFile.changed();
        continue;
      }
      const id = name.slice(0, -'.json'.length);
      const revision = await revisionOf(this.fileOf(id));
      const base = this.bases.get(id);
      if (base ? revision !== base.revision : revision !== undefined && !this.summaries?.has(id)) {
        ids.add(id);
        list = true;
      }
    }
    if (list) {
      this.summaries = undefined;
      this.loading = undefined;
    }
    if (list || ids.size) {
      for (const listener of [...this.listeners]) {
        listener({ ids, list });
      }
    }
  }

  /** Stops watching the folder. */
  dispose(): void {
    this.watching?.dispose();
    this.watching = { dispose: () => undefined };
    this.listeners.clear();
  }

  private watch(): void {
    this.watching ??= watchSettled(this.watcher, this.dir, {
      settleMs: SETTLE_MS,
      accept: (name) => name.endsWith('.json') && (name === INDEX_FILE || isConversationId(name.slice(0, -5))),
      onChanges: (names) => {
        this.checkForChanges(names).catch((error: unknown) =>
          this.log.warn(`Chat: could not read another window's change: ${describeError(error)}`),
        );
      },
      onError: (error) =>
        this.log.warn(`Chat: cannot watch ${this.dir} for other windows' changes: ${describeError(error)}`),
    });
  }

  /** Writes under the lock: merges another window's changes first, skips a write the exit save superseded. */
  private async write(conversation: Conversation, generation: number): Promise<Conversation | undefined> {
    const id = conversation.id;
    const base = this.bases.get(id);
    const revision = await revisionOf(this.fileOf(id));
    let latest = conversation;
    if (revision !== undefined && revision !== base?.revision) {
      const theirs = await this.read(id, true);
      latest = theirs ? mergeConversations(base ?? { ids: new Set() }, conversation, theirs) : conversation;
    } else if (revision === undefined && base) {
      this.log.info(`Chat: conversation ${id} was deleted in another window; it is written again with this one's.`);
    }
    if (!(await this.writeFile(latest, generation))) {
      return undefined;
    }
    await this.updateIndex({ set: summaryOf(latest) });
    this.search.saved(latest);
    return latest !== conversation && differs(conversation, latest) ? latest : undefined;
  }

  /** Writes atomically; false when a later blocking save superseded this write (then nothing is written). */
  private async writeFile(conversation: Conversation, generation: number): Promise<boolean> {
    const file = this.fileOf(conversation.id);
    const temp = this.tempOf(file);
    const revision = this.revisions.next();
    try {
      await writeChunks(temp, await this.encoder.encodeSoon(conversation, revision));
      if (generation <= this.syncGeneration) {
        await fs.rm(temp, { force: true });
        return false;
      }
      // From here to the rename's end a blocking save waits (waitForRename): it must land last.
      this.renaming = temp;
      await fs.rename(temp, file);
      this.remember(conversation, revision);
      return true;
    } catch (error) {
      await fs.rm(temp, { force: true }).catch(() => undefined);
      throw error;
    } finally {
      this.renaming = undefined;
    }
  }

  private remember(conversation: Conversation, revision: string): void {
    this.bases.set(conversation.id, { revision, ids: new Set(conversation.messages.map((m) => m.id)) });
  }

  /** Blocks until an asynchronous rename already handed to the system is done (its temp file is gone). */
  private waitForRename(): void {
    const until = Date.now() + RENAME_WAIT_MS;
    while (this.renaming && existsSync(this.renaming) && Date.now() < until) {
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2);
    }
  }

  /** Reads a file and remembers it as this window's base (its revision and its messages). */
  private async read(id: string, keepStreaming: boolean): Promise<Conversation | undefined> {
    try {
      const handle = await fs.open(this.fileOf(id), 'r');
      try {
        // The revision and the text come from one open file: a rename by another window cannot split them.
        const stat = await handle.stat();
        const { text, conversation } = await readConversationFile(handle, stat.size, keepStreaming);
        if (conversation?.id !== id) {
          return undefined;
        }
        this.remember(conversation, revisionOfText(text, stat));
        // Read again (another window wrote it back after this one deleted it): this window may write it again.
        this.deleted.delete(id);
        return conversation;
      } finally {
        await handle.close();
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
        this.log.warn(`Chat: could not read conversation ${id}: ${describeError(error)}`);
      }
      return undefined;
    }
  }

  private async updateIndex(change: IndexChange): Promise<void> {
    const map = await this.indexFile.apply(change);
    if (this.summaries) {
      // Entries other windows wrote come along; files the index does not know yet stay listed.
      for (const [id, s] of this.summaries) {
        if (!map.has(id) && !('drop' in change && change.drop === id)) {
          map.set(id, s);
        }
      }
      this.summaries = map;
    }
  }

  private updateIndexSync(change: IndexChange): void {
    try {
      this.indexFile.applySync(change);
      if ('set' in change) {
        this.summaries?.set(change.set.id, change.set);
      }
    } catch (error) {
      // The folder is reconciled at the next start; the conversation itself is saved.
      this.log.warn(`Chat: could not update the conversation list: ${describeError(error)}`);
    }
  }

  private fileOf(id: string): string {
    return path.join(this.dir, `${id}.json`);
  }

  private tempOf(file: string): string {
    return `${file}.${this.writer}.${++this.tempCount}.tmp`;
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    return this.queue.run(work);
  }

  private index(): Promise<Map<string, ConversationSummary>> {
    if (this.summaries) {
      return Promise.resolve(this.summaries);
    }
    const loading = (this.loading ??= this.readIndex().then((map) => {
      if (this.loading === loading) {
        this.summaries = map;
      }
      return map;
    }));
    return loading;
  }

  /** Reads the index and reconciles it with the folder. */
  private async readIndex(): Promise<Map<string, ConversationSummary>> {
    const names = await fs.readdir(this.dir).catch(() => undefined);
    if (!names) {
      return new Map();
    }
    return reconcile(await this.indexFile.read(), names, this.dir, isConversationId, async (id) => {
      const conversation = await this.load(id);
      return conversation && summaryOf(conversation);
    });
  }
}
