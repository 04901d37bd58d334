/**
 * The versions of the conversation file format and the steps between them. A file says which version wrote it
 * (`version`; files written before versions existed have none and are version 1); reading runs the steps from that
 * version up to the current one, in order, before the file is parsed. A new format adds one step at the end of
 * `UPGRADES`: `CONVERSATION_VERSION` follows by itself, and every older file keeps reading.
 */

/** A conversation file as JSON, before parsing. */
export type RawConversation = Record<string, unknown>;

/** Turns a file of version N into one of version N + 1 (it may change `raw` in place and return it). */
type Upgrade = (raw: RawConversation) => RawConversation;

/**
 * Version 1 → 2: every message gets an id. Merging two windows' writes matches messages by id, so an id must be the
 * same wherever the file is read: one derived from the conversation id and the message's place, not a random one.
 */
function giveMessagesIds(raw: RawConversation): RawConversation {
  if (Array.isArray(raw.messages)) {
    const base = typeof raw.id === 'string' ? raw.id : 'conversation';
    raw.messages = raw.messages.map((m: unknown, index) =>
      isRecord(m) && typeof m.id !== 'string' ? { ...m, id: `${base}-${index + 1}` } : m,
    );
  }
  return raw;
}

/**
 * Version 2 → 3: a conversation keeps branches. `messages` stays the path shown, so a build that reads version 2
 * sees the conversation as it was shown; the messages off it are in `branches`, each with its `parentId`. A file of
 * version 2 has none; a `parentId` on one of its messages (never written by a build) would misplace it, so it goes.
 */
function addBranches(raw: RawConversation): RawConversation {
  if (Array.isArray(raw.messages)) {
    raw.messages = raw.messages.map((m: unknown) => {
      if (!isRecord(m) || !('parentId' in m)) {
        return m;
      }
      const rest = { ...m };
      delete rest.parentId;
      return rest;
    });
  }
  raw.branches = [];
  return raw;
}

/**
 * Version 3 → 4: a reply keeps what its request trimmed (`trim`: see TrimRecord in conversation.ts), attachments
 * are stored whole (only requests are trimmed), and a conversation keeps its summaries (`compactions`: see
 * compaction.ts). Version 3 wrote none of these fields; one found there came from elsewhere and would be shown as a
 * trim that never happened, or send a summary nobody asked for, so it goes. Attachments a version 3 build cut stay as they were
 * stored (their label says "(trimmed)"): what was cut is not on disk to restore.
 */
function addTrimsAndCompactions(raw: RawConversation): RawConversation {
  const strip = (list: unknown): unknown =>
    Array.isArray(list)
      ? list.map((m: unknown) => {
          if (!isRecord(m) || !('trim' in m)) {
            return m;
          }
          const rest = { ...m };
          delete rest.trim;
          return rest;
        })
      : list;
  raw.messages = strip(raw.messages);
  if ('branches' in raw) {
    raw.branches = strip(raw.branches);
  }
  delete raw.compactions;
  return raw;
}

/**
 * Version 4 → 5: a reply keeps its tool calls (`steps`, each with what it sent ALPHA within the stored budget: see
 * storedSteps.ts) and how many billed requests it took (`requests`); a conversation keeps what ALPHA may use in it
 * (`toolAccess`). Version 4 wrote none of these. One found there came from elsewhere: it would show calls that were
 * never made, requests that were never billed, or let ALPHA use what nobody chose for the conversation; so it goes.
 * Everything else of a version 4 file stays as it is: its replies called no tools and took one request each.
 */
function addToolSteps(raw: RawConversation): RawConversation {
  const strip = (list: unknown): unknown =>
    Array.isArray(list)
      ? list.map((m: unknown) => {
          if (!isRecord(m) || !('steps' in m || 'requests' in m)) {
            return m;
          }
          const rest = { ...m };
          delete rest.steps;
          delete rest.requests;
          return rest;
        })
      : list;
  raw.messages = strip(raw.messages);
  if ('branches' in raw) {
    raw.branches = strip(raw.branches);
  }
  delete raw.toolAccess;
  return raw;
}

/** `UPGRADES[i]` turns version i + 1 into version i + 2. Append here; never change a step that has shipped. */
const UPGRADES: readonly Upgrade[] = [giveMessagesIds, addBranches, addTrimsAndCompactions, addToolSteps];

/** The version this build writes. */
export const CONVERSATION_VERSION = UPGRADES.length + 1;

/** The version a file says it has: 1 when it says none (files from before versions), or a whole number. */
export function versionOf(raw: RawConversation): number {
  const v = raw.version;
  return typeof v === 'number' && Number.isInteger(v) && v >= 1 ? v : 1;
}

/**
 * Brings a conversation file read from disk up to the current version. A file from a newer version (written by a
 * later build) is left as it is and read as far as this build understands it.
 */
export function migrateConversation(raw: RawConversation): RawConversation {
  let version = versionOf(raw);
  let value = raw;
  while (version < CONVERSATION_VERSION) {
    value = UPGRADES[version - 1]({ ...value });
    version++;
    value.version = version;
  }
  return value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
