import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Conversation } from '../conversation/conversation';
import type { ConversationMatch, Searchable } from '../conversation/conversationSearch';
import type { ConversationSummary } from './conversationSummary';
import type { Logger } from '../../logger';
import { describeError } from '../../service/errors';
import { makePrivateDir } from '../../storage/privateFiles';
import { readWhole, writeChunks } from '../../storage/chunkedFile';
import {
  decodeSearchText,
  encodeFolded,
  foldSearchText,
  foldSoon,
  joinedText,
  searchFoldedTexts,
  searchSourceOf,
  searchTerms,
  searchTextOf,
  type FoldedText,
  type SearchSource,
} from '../conversation/searchText';

/** The index's folder inside the store's. */
export const SEARCH_FOLDER = 'search';
/** A saved conversation's entry is written once saves of it pause this long (never on a streaming save's path). */
const WRITE_DELAY_MS = 1_000;
/** An entry larger than this many times its conversation's file is not read (see `read`). */
const MAX_ENTRY_RATIO = 3;
/** Files read at once on a first search. */
const READ_CONCURRENCY = 8;

/**
 * The full-text search of the conversation list, with its index kept beside the store: `<store>/search/<id>.txt`,
 * one file per conversation holding its messages' text, its `updatedAt` and message count (searchText.ts). One file
 * per conversation, not one for all, because windows share the folder: each entry is replaced by an atomic rename,
 * so the later save of a conversation wins without a read-modify-write of every other conversation's text, a
 * deleted conversation's file goes with it, and a damaged file costs one conversation's rebuild. An entry is trusted
 * only when its `updatedAt` and message count are the listed conversation's: otherwise (missing, stale, damaged,
 * larger than its conversation's file) the conversation file is read, and the entry written again.
 */
export class SearchIndex {
  private readonly dir: string;
  /** Folded texts by id, each with the summary's `updatedAt` and count it was checked against. */
  private readonly cache = new Map<string, { updatedAt: number; messageCount: number; folded: FoldedText }>();
  /** Conversations saved and not yet written to the index: their texts as of the last save, folded when written. */
  private readonly pending = new Map<string, SearchSource>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private writing: Promise<void> = Promise.resolve();
  private tempCount = 0;
  private readonly writer = `${process.pid}-${randomUUID().slice(0, 8)}`;
  private swept = false;
  /** The shown conversation as last folded, and the state it was folded in (see `shownFold`). */
  private shown: { key: string; folded: FoldedText } | undefined;

  constructor(
    storeDir: string,
    private readonly log: Logger,
    /** Reads a conversation from the store (its file is the truth the index is rebuilt from). */
    private readonly load: (id: string) => Promise<Conversation | undefined>,
    private readonly writeDelayMs = WRITE_DELAY_MS,
  ) {
    this.dir = path.join(storeDir, SEARCH_FOLDER);
  }

  /** A conversation was saved: its entry is written once its saves pause (a streaming reply's saves postpone it). */
  saved(conversation: Conversation): void {
    this.pending.set(conversation.id, searchSourceOf(conversation));
    if (this.timer) {
      clearTimeout(this.timer);
    }
    this.timer = setTimeout(() => void this.flush(), this.writeDelayMs);
    this.timer.unref?.();
  }

  /** A conversation was deleted: its entry goes. */
  async deleted(id: string): Promise<void> {
    this.pending.delete(id);
    this.cache.delete(id);
    await fs.rm(this.fileOf(id), { force: true }).catch(() => undefined);
  }

  /** Writes every entry waiting. */
  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    const due = [...this.pending.values()];
    this.pending.clear();
    const run = this.writing.then(async () => {
      for (const source of due) {
        // Folded a slice at a time: a history of thousands of messages does not hold the event loop.
        const folded = await foldSoon(source);
        if (await this.write(folded)) {
          this.cache.set(folded.id, { updatedAt: folded.updatedAt, messageCount: folded.messageCount, folded });
        }
      }
    });
    this.writing = run.catch(() => undefined);
    await this.writing;
  }

  /**
   * The listed conversations matching `query`, in the list's order (see searchFoldedTexts). `current` (the one shown,
   * which may change under a search while a reply streams) is folded as it is in memory.
   */
  async search(
    query: string,
    summaries: readonly ConversationSummary[],
    current?: Searchable & { updatedAt: number },
  ): Promise<ConversationMatch[]> {
    if (searchTerms(query).length === 0) {
      return [];
    }
    const folded = new Array<FoldedText | undefined>(summaries.length);
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < summaries.length; i = next++) {
        const s = summaries[i];
        folded[i] = s.id === current?.id ? this.shownFold(current) : await this.entry(s);
      }
    };
    await Promise.all(Array.from({ length: READ_CONCURRENCY }, worker));
    const listed = new Set(summaries.map((s) => s.id));
    for (const id of this.cache.keys()) {
      if (!listed.has(id)) {
        this.cache.delete(id);
      }
    }
    if (!this.swept) {
      this.swept = true;
      await this.sweep(listed);
    }
    return searchFoldedTexts(
      query,
      folded.filter((f): f is FoldedText => f !== undefined),
    );
  }

  /**
   * The shown conversation folded as it is in memory, folded again only when it changed: its time, title, number of
   * messages and of other versions, and its last message (a reply streams into it, its steps come) say so. A query
   * typed into the list does not fold a long conversation again for each letter (5,000 messages: 50–140 ms).
   */
  private shownFold(current: Searchable & { updatedAt: number }): FoldedText {
    const last = current.messages.at(-1);
    const steps = last?.steps;
    const key = JSON.stringify([
      current.id,
      current.updatedAt,
      current.title,
      current.messages.length,
      current.branches?.length ?? 0,
      last?.id,
      last?.content.length,
      last?.status,
      steps?.length ?? 0,
      steps?.at(-1)?.title,
    ]);
    if (this.shown?.key !== key) {
      this.shown = { key, folded: foldSearchText(searchTextOf(current)) };
    }
    return this.shown.folded;
  }

  /** The folded text of a listed conversation: from memory, else its index file, else its conversation file. */
  private async entry(s: ConversationSummary): Promise<FoldedText | undefined> {
    const cached = this.cache.get(s.id);
    if (cached?.updatedAt === s.updatedAt && cached.messageCount === s.messageCount) {
      return cached.folded;
    }
    let folded = await this.read(s);
    if (!folded) {
      const later = this.pending.get(s.id);
      const conversation = later ? undefined : await this.load(s.id);
      const text = later ? joinedText(later) : conversation && searchTextOf(conversation);
      if (!text) {
        return undefined;
      }
      this.pending.delete(s.id);
      folded = foldSearchText(text);
      await this.write(folded);
    }
    this.cache.set(s.id, { updatedAt: s.updatedAt, messageCount: s.messageCount, folded });
    return folded;
  }

  /** The entry on disk when it is whole and current; undefined otherwise (then it is rebuilt). */
  private async read(s: ConversationSummary): Promise<FoldedText | undefined> {
    try {
      const conversation = await fs.stat(this.conversationFile(s.id));
      const handle = await fs.open(this.fileOf(s.id), 'r');
      try {
        // The size and the bytes come from one open file. The texts as written are never longer than the
        // conversation's file (which holds them, escaped), and folding at most adds half (a lower case that takes
        // more bytes): a larger entry is not read, and one whose texts outgrow the conversation is not trusted.
        const entry = await handle.stat();
        if (!entry.isFile() || entry.size > MAX_ENTRY_RATIO * conversation.size) {
          return undefined;
        }
        const text = decodeSearchText(await readWhole(handle, entry.size), s.id);
        return text?.updatedAt === s.updatedAt &&
          text.messageCount === s.messageCount &&
          text.body.length <= conversation.size
          ? text
          : undefined;
      } finally {
        await handle.close();
      }
    } catch {
      return undefined;
    }
  }

  /** Writes one entry atomically; a failure is logged (the entry is rebuilt when next needed). Says if it wrote. */
  private async write(text: FoldedText): Promise<boolean> {
    const file = this.fileOf(text.id);
    const temp = `${file}.${this.writer}.${++this.tempCount}.tmp`;
    try {
      // No entry for a conversation whose file is gone (deleted, or the whole folder removed meanwhile).
      if (!(await exists(this.conversationFile(text.id)))) {
        return false;
      }
      await makePrivateDir(this.dir);
      await writeChunks(temp, encodeFolded(text));
      await fs.rename(temp, file);
      return true;
    } catch (error) {
      await fs.rm(temp, { force: true }).catch(() => undefined);
      this.log.warn(`Chat: could not write the search index of ${text.id}: ${describeError(error)}`);
      return false;
    }
  }

  /** Removes entries of conversations no longer listed (deleted by a window that went away before removing them). */
  private async sweep(listed: ReadonlySet<string>): Promise<void> {
    const names = await fs.readdir(this.dir).catch(() => [] as string[]);
    for (const name of names) {
      if (name.endsWith('.txt') && !listed.has(name.slice(0, -4)) && !this.pending.has(name.slice(0, -4))) {
        await fs.rm(path.join(this.dir, name), { force: true }).catch(() => undefined);
      }
    }
  }

  private conversationFile(id: string): string {
    return path.join(this.dir, '..', `${id}.json`);
  }

  private fileOf(id: string): string {
    return path.join(this.dir, `${id}.txt`);
  }
}

async function exists(file: string): Promise<boolean> {
  return fs.stat(file).then(
    () => true,
    () => false,
  );
}
