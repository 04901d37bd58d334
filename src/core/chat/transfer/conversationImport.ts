import * as l10n from '@vscode/l10n';
import { newId, type Conversation } from '../conversation/conversation';
import { parseConversation } from '../conversation/conversationParse';
import { importedQueue } from '../conversation/queuedPrompts';
import { EXPORT_FORMAT, EXPORT_VERSION, MAX_TRANSFER_BYTES } from './conversationExport';
import { parseMarkdownExport } from './markdownImport';
import { CONVERSATION_VERSION, migrateConversation } from '../store/conversationSchema';

/** Bounds of what an import reads, past which a file is refused (one sentence each). */
export const IMPORT_BOUNDS = {
  bytes: MAX_TRANSFER_BYTES,
  /**
   * Objects and lists inside each other: the schema needs 8 (envelope, conversation, messages, message, steps, step,
   * sources, source); a step's input may nest a little deeper.
   */
  depth: 16,
  /** Messages on the path and in branches together. */
  messages: 100_000,
  /** Entries of any other list (a message's context, sources). */
  listEntries: 10_000,
  /** Characters of one string: a prompt or reply (the chat's prompts are at most 4 MB). */
  stringChars: 16 * 1024 * 1024,
  /** Characters of an id, a model, a role. */
  shortChars: 1_024,
  /**
   * Objects and lists in the whole file, counted in the text before it is parsed: a conversation of 100,000
   * messages with their context and sources has a few hundred thousand; a file of millions of empty lists is
   * refused before `JSON.parse` builds them (about 1 GB for 22 million).
   */
  containers: 2_000_000,
} as const;

/** The most problems an import lists (the rest are counted). */
const MAX_PROBLEMS = 12;
const MESSAGE_ID = /^[A-Za-z0-9_-]{1,128}$/;
const ROLES = ['user', 'assistant'];
const STATUSES = ['streaming', 'done', 'stopped', 'interrupted', 'error'];

/** What an import read: a conversation under a new id, or every problem found, one sentence each. */
export type ImportResult = { conversation: Conversation; from: 'json' | 'markdown' } | { problems: string[] };

/**
 * Reads a file "Export Conversation as JSON" wrote (its envelope checked, then the conversation inside against the
 * store's schema, run through its migrations), or a Markdown export as far as it goes (prompts and replies). The
 * conversation gets a new id: an import never overwrites one. `bytes` is the file's size, checked before anything.
 * Its prompt queue arrives paused, with models the lineup can send (else `currentModel`): see `importedQueue`.
 */
export function importConversation(
  text: string,
  bytes = Buffer.byteLength(text, 'utf8'),
  currentModel = 'alpha',
  now = Date.now(),
): ImportResult {
  if (bytes > IMPORT_BOUNDS.bytes) {
    return {
      problems: [
        l10n.t('The file is {0} MB, more than the {1} MB an import reads.', mb(bytes), mb(IMPORT_BOUNDS.bytes)),
      ],
    };
  }
  const body = text.replace(/^\uFEFF/, '');
  if (!body.trimStart().startsWith('{')) {
    const markdown = parseMarkdownExport(body);
    return 'problems' in markdown ? markdown : { conversation: markdown.conversation, from: 'markdown' };
  }
  const shape = jsonShape(body);
  if (shape.deepest > IMPORT_BOUNDS.depth) {
    return {
      problems: [l10n.t('The file is nested deeper than {0} levels: it is not a conversation.', IMPORT_BOUNDS.depth)],
    };
  }
  if (shape.containers > IMPORT_BOUNDS.containers) {
    return {
      problems: [
        l10n.t('The file holds more than {0} objects and lists: it is not a conversation.', IMPORT_BOUNDS.containers),
      ],
    };
  }
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (error) {
    return { problems: [l10n.t('The file is not valid JSON: {0}', (error as Error).message)] };
  }
  const problems = checkEnvelope(value);
  if (problems.length) {
    return { problems: listed(problems) };
  }
  const parsed = parseConversation((value as { conversation: unknown }).conversation);
  if (!parsed) {
    return { problems: [l10n.t('The file holds no conversation.')] };
  }
  const queue = importedQueue(parsed.queue, currentModel, now);
  const { queue: _dropped, ...rest } = parsed;
  return { conversation: { ...rest, ...(queue ? { queue } : {}), id: newId() }, from: 'json' };
}

/**
 * Every problem of the envelope and the conversation in it. The format and version are checked first, from the
 * top-level object alone; only then is the document walked for its bounds (nothing deeper is looked at past them).
 */
export function checkEnvelope(value: unknown): string[] {
  if (!isRecord(value)) {
    return [l10n.t('The file is not a conversation exported by ALPHA: it holds no JSON object.')];
  }
  if (value.format !== EXPORT_FORMAT) {
    return [l10n.t('The file is not a conversation exported by ALPHA: its "format" is not "{0}".', EXPORT_FORMAT)];
  }
  if (typeof value.version !== 'number' || value.version > EXPORT_VERSION || !Number.isInteger(value.version)) {
    return [l10n.t('The file was written by a newer version of ALPHA & AXO: update the extension to import it.')];
  }
  const bounds = checkBounds(value);
  return bounds.length ? bounds : checkConversation(value.conversation);
}

/**
 * Depth, string lengths and list lengths, walked without recursion (a deep file must not overflow the stack). A
 * value's path is written only for the sentence that names it: each step keeps its parent and key.
 */
function checkBounds(root: unknown): string[] {
  type Step = { value: unknown; depth: number; parent?: Step; key: string };
  const pathOf = (step: Step): string => {
    const keys: string[] = [];
    for (let at: Step | undefined = step; at; at = at.parent) {
      keys.push(at.key);
    }
    return keys.reverse().join('');
  };
  const stack: Step[] = [{ value: root, depth: 1, key: 'file' }];
  while (stack.length) {
    const step = stack.pop() as Step;
    const { value, depth } = step;
    if (typeof value === 'string' && value.length > IMPORT_BOUNDS.stringChars) {
      return [l10n.t('{0} is longer than {1} characters.', pathOf(step), IMPORT_BOUNDS.stringChars)];
    }
    if (typeof value !== 'object' || value === null) {
      continue;
    }
    if (depth > IMPORT_BOUNDS.depth) {
      return [l10n.t('The file is nested deeper than {0} levels: it is not a conversation.', IMPORT_BOUNDS.depth)];
    }
    const keys = Array.isArray(value) ? undefined : Object.keys(value);
    const length = keys ? keys.length : (value as unknown[]).length;
    const listOfMessages = step.key === '.messages' || step.key === '.branches';
    const limit = listOfMessages ? IMPORT_BOUNDS.messages : IMPORT_BOUNDS.listEntries;
    if (length > limit) {
      return [l10n.t('{0} has more than {1} entries.', pathOf(step), limit)];
    }
    for (let i = 0; i < length; i++) {
      const key = keys ? keys[i] : undefined;
      const child = key === undefined ? (value as unknown[])[i] : (value as Record<string, unknown>)[key];
      const name = key === undefined ? `[${i}]` : `.${key.length > 40 ? `${key.slice(0, 40)}…` : key}`;
      stack.push({ value: child, depth: depth + 1, parent: step, key: name });
    }
  }
  return [];
}

/**
 * The conversation against the store's schema, after the store's migrations brought it to the current version:
 * kinds, ids, roles, and that every branch follows a message it has.
 */
function checkConversation(raw: unknown): string[] {
  if (!isRecord(raw)) {
    return [l10n.t('{0} is missing or is not {1}.', 'conversation', l10n.t('an object'))];
  }
  const version = raw.version;
  if (version !== undefined && (typeof version !== 'number' || !Number.isInteger(version) || version < 1)) {
    return [l10n.t('{0} is missing or is not {1}.', 'conversation.version', l10n.t('a whole number'))];
  } else if (typeof version === 'number' && version > CONVERSATION_VERSION) {
    return [l10n.t('The file was written by a newer version of ALPHA & AXO: update the extension to import it.')];
  }
  const value = migrateConversation({ ...raw });
  const problems: string[] = [];
  expect(problems, 'conversation.title', value.title, 'string', true);
  expect(problems, 'conversation.createdAt', value.createdAt, 'number', true);
  expect(problems, 'conversation.updatedAt', value.updatedAt, 'number', true);
  const messages = Array.isArray(value.messages) ? value.messages : undefined;
  if (!messages) {
    problems.push(l10n.t('{0} is missing or is not {1}.', 'conversation.messages', l10n.t('a list')));
  } else if (messages.length === 0) {
    problems.push(l10n.t('The file holds no messages.'));
  }
  const branches = value.branches === undefined ? [] : Array.isArray(value.branches) ? value.branches : undefined;
  if (!branches) {
    problems.push(l10n.t('{0} is missing or is not {1}.', 'conversation.branches', l10n.t('a list')));
  }
  const ids = new Set<string>();
  (messages ?? []).forEach((m: unknown, i) => checkMessage(problems, `conversation.messages[${i}]`, m, ids, false));
  (branches ?? []).forEach((m: unknown, i) => checkMessage(problems, `conversation.branches[${i}]`, m, ids, true));
  (branches ?? []).forEach((m: unknown, i) => {
    const parent = isRecord(m) ? m.parentId : undefined;
    if (typeof parent === 'string' && !ids.has(parent)) {
      problems.push(
        l10n.t('{0} follows the message {1}, which the file does not have.', `conversation.branches[${i}]`, parent),
      );
    }
  });
  return problems;
}

function checkMessage(problems: string[], path: string, value: unknown, ids: Set<string>, branch: boolean): void {
  if (!isRecord(value)) {
    problems.push(l10n.t('{0} is missing or is not {1}.', path, l10n.t('an object')));
    return;
  }
  if (typeof value.id !== 'string' || !MESSAGE_ID.test(value.id)) {
    problems.push(l10n.t('{0}.id is not a valid id (letters, digits, - and _, at most 128).', path));
  } else if (ids.has(value.id)) {
    problems.push(l10n.t('{0}.id "{1}" appears twice: every message needs its own id.', path, value.id));
  } else {
    ids.add(value.id);
  }
  if (typeof value.role !== 'string' || !ROLES.includes(value.role)) {
    problems.push(l10n.t('{0}.role is not one of {1}.', path, ROLES.join(', ')));
  }
  expect(problems, `${path}.content`, value.content, 'string', false);
  expect(problems, `${path}.createdAt`, value.createdAt, 'number', true);
  if (value.status !== undefined && (typeof value.status !== 'string' || !STATUSES.includes(value.status))) {
    problems.push(l10n.t('{0}.status is not one of {1}.', path, STATUSES.join(', ')));
  }
  for (const key of ['notice', 'model'] as const) {
    expect(problems, `${path}.${key}`, value[key], 'string', true);
  }
  for (const key of ['context', 'sources', 'steps'] as const) {
    if (value[key] !== undefined && !Array.isArray(value[key])) {
      problems.push(l10n.t('{0} is missing or is not {1}.', `${path}.${key}`, l10n.t('a list')));
    }
  }
  if (branch && (typeof value.parentId !== 'string' || !MESSAGE_ID.test(value.parentId))) {
    if (value.parentId !== undefined) {
      problems.push(l10n.t('{0}.parentId is not a valid id (letters, digits, - and _, at most 128).', path));
    }
  }
}

/** Adds a problem when `value` is not of `kind` (absent is fine when `optional`). */
function expect(problems: string[], path: string, value: unknown, kind: 'string' | 'number', optional: boolean): void {
  if (optional && value === undefined) {
    return;
  }
  const ok = kind === 'string' ? typeof value === 'string' : typeof value === 'number' && Number.isFinite(value);
  if (!ok) {
    problems.push(
      l10n.t('{0} is missing or is not {1}.', path, kind === 'string' ? l10n.t('a string') : l10n.t('a number')),
    );
  }
}

/** At most MAX_PROBLEMS problems, and how many more there were. */
function listed(problems: string[]): string[] {
  if (problems.length <= MAX_PROBLEMS) {
    return problems;
  }
  return [...problems.slice(0, MAX_PROBLEMS), l10n.t('… and {0} more problems.', problems.length - MAX_PROBLEMS)];
}

/** How deep JSON text nests objects and lists, and how many it has, read before parsing (strings do not count). */
function jsonShape(text: string): { deepest: number; containers: number } {
  let depth = 0;
  let deepest = 0;
  let containers = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) {
        i++; // the escaped character
      } else if (c === 0x22) {
        inString = false;
      }
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b || c === 0x5b) {
      containers++;
      deepest = Math.max(deepest, ++depth);
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return { deepest, containers };
}

function mb(bytes: number): number {
  return Math.ceil(bytes / 1024 / 1024);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
