import { readFileSync } from 'node:fs';
import type { Conversation, StoredMessage } from '../conversation/conversation';
import { parseConversation } from '../conversation/conversationParse';
import { keptSteps } from '../conversation/storedSteps';
import { CONVERSATION_VERSION } from './conversationSchema';
import type { promises as fs } from 'node:fs';
import { asciiJson, textOfBytes } from '../../storage/asciiJson';
import { readWhole } from '../../storage/chunkedFile';

/** A message's bytes as last encoded, with the values they were encoded from. */
interface Encoded {
  values: Record<string, unknown>;
  /** How many fields `values` has. */
  count: number;
  bytes: Buffer;
}

const COMMA = Buffer.from(',');
const END = Buffer.from(']}');
const BRANCHES = Buffer.from('],"branches":[');
/** The longest stretch `encodeSoon` holds the event loop. */
const SLICE_MS = 4;

/**
 * Encodes conversations as their file's bytes, keeping each message's encoding for as long as the message is
 * unchanged: while a reply streams into a long conversation, a save encodes the reply and the header, not the
 * whole history again (conversationSave.bench measures it against `JSON.stringify`). A message counts as unchanged
 * while it is the same object with the same value in every field; nested values (an error, context items) are
 * replaced when they change, never edited in place, so comparing them by identity is enough.
 */
export class ConversationEncoder {
  private readonly cache = new WeakMap<StoredMessage, Encoded>();

  /**
   * The file's bytes, as chunks to write in order (`writev`: a 32 MB history is not even copied into one buffer).
   * `JSON.parse` of them gives the conversation at the current version; they start with `revision` (revisionFile).
   * They are ASCII (`asciiJson`): the file is read back without UTF-8 decoding.
   */
  encode(conversation: Conversation, revision: string): Buffer[] {
    const { messages, branches, ...header } = conversation;
    const head = asciiJson(JSON.stringify({ revision, ...header, version: CONVERSATION_VERSION }));
    const chunks: Buffer[] = [Buffer.from(`${head.slice(0, -1)},"messages":[`)];
    this.encodeList(messages, chunks);
    if (branches?.length) {
      chunks.push(BRANCHES);
      this.encodeList(branches, chunks);
    }
    chunks.push(END);
    return chunks;
  }

  /**
   * As `encode`, but the messages not encoded yet (every one, the first time a long conversation read from disk is
   * saved) are encoded a slice at a time, the event loop free between slices: a reply streaming into a history of
   * thousands of messages is not held up by its first save.
   */
  async encodeSoon(conversation: Conversation, revision: string): Promise<Buffer[]> {
    let sliceStart = performance.now();
    for (const message of [...conversation.messages, ...(conversation.branches ?? [])]) {
      this.encodeMessage(message);
      if (performance.now() - sliceStart > SLICE_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        sliceStart = performance.now();
      }
    }
    return this.encode(conversation, revision);
  }

  private encodeList(messages: readonly StoredMessage[], chunks: Buffer[]): void {
    messages.forEach((message, index) => {
      if (index > 0) {
        chunks.push(COMMA);
      }
      const bytes = this.encodeMessage(message);
      if (message.parentId === undefined) {
        chunks.push(bytes);
      } else {
        // A branch message: its parent first, then the bytes it has on the path (`{` dropped), so a message that
        // moves between the path and the branches is not encoded again.
        chunks.push(Buffer.from(`{"parentId":${asciiJson(JSON.stringify(message.parentId))},`), bytes.subarray(1));
      }
    });
  }

  /** A message's bytes without its `parentId` (encodeList adds it), from the cache while the message is unchanged. */
  private encodeMessage(message: StoredMessage): Buffer {
    const cached = this.cache.get(message);
    if (cached && sameValues(cached, message)) {
      return cached.bytes;
    }
    const values: Record<string, unknown> = { ...message };
    delete values.parentId;
    // The file keeps each step's result within its budget; the reply on screen keeps what ALPHA was sent.
    const json = JSON.stringify(message.steps ? { ...values, steps: keptSteps(message) } : values);
    const bytes = Buffer.from(asciiJson(json), 'latin1');
    this.cache.set(message, { values, count: Object.keys(values).length, bytes });
    return bytes;
  }
}

/**
 * Whether `message` still has the values it was encoded from. Walked without building key lists: a save of a long
 * conversation checks every message, and each list would be garbage.
 */
function sameValues(cached: Encoded, message: StoredMessage): boolean {
  const record = message as unknown as Record<string, unknown>;
  let count = 0;
  for (const key in record) {
    if (key === 'parentId' || !Object.prototype.hasOwnProperty.call(record, key)) {
      continue;
    }
    // Strings compare by value; the reply's growing text is a new string each time, the rest are the same strings.
    if (cached.values[key] !== record[key] || !Object.prototype.hasOwnProperty.call(cached.values, key)) {
      return false;
    }
    count++;
  }
  return count === cached.count;
}

/** A conversation file's text read back (`keepStreaming`: see `parseConversation`); throws when it is not JSON. */
export function decodeConversation(text: string, keepStreaming = true): Conversation | undefined {
  return parseConversation(JSON.parse(text), keepStreaming);
}

/**
 * A conversation file read from its open handle, `size` from its `stat` (in one request, ASCII without decoding:
 * `readWhole`, `textOfBytes`): its text and the conversation (`keepStreaming`: see `parseConversation`); throws when it is not JSON.
 */
export async function readConversationFile(
  handle: fs.FileHandle,
  size: number,
  keepStreaming: boolean,
): Promise<{ text: string; conversation: Conversation | undefined }> {
  const text = textOfBytes(await readWhole(handle, size));
  return { text, conversation: decodeConversation(text, keepStreaming) };
}

/** Another window's file, read blocking; undefined when it is damaged (this window's copy is then written). */
export function decodeConversationFileSync(file: string): Conversation | undefined {
  try {
    return decodeConversation(textOfBytes(readFileSync(file)));
  } catch {
    return undefined;
  }
}
