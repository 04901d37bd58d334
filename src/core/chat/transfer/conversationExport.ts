import * as l10n from '@vscode/l10n';
import type { Conversation, StoredMessage } from '../conversation/conversation';
import { keptSteps } from '../conversation/storedSteps';
import { CONVERSATION_VERSION } from '../store/conversationSchema';

/** The `format` an exported conversation's envelope names. */
export const EXPORT_FORMAT = 'alpha-axo.conversation';

/** The envelope's own version (the conversation inside has the store's `version`). */
export const EXPORT_VERSION = 1;

/**
 * The largest file an import reads, and so the largest export written: 64 MB (a conversation file of the store
 * holds at most a few of its 4 MB prompts and replies before this).
 */
export const MAX_TRANSFER_BYTES = 64 * 1024 * 1024;

/** An exported conversation: the envelope naming its format around the store's own conversation schema. */
export interface ExportEnvelope {
  format: typeof EXPORT_FORMAT;
  version: typeof EXPORT_VERSION;
  /** When it was exported (ISO 8601); informative only. */
  exportedAt: string;
  /**
   * The conversation exactly as the store keeps it: every message and branch, sources, context, usage, times, a
   * reply's tool steps (each result within its stored budget) and requests, the conversation's tool access.
   */
  conversation: Conversation;
}

/**
 * A conversation as the JSON file "Export Conversation as JSON" writes (indented, UTF-8), or why it cannot be
 * written: past MAX_TRANSFER_BYTES, an import could not read it back.
 */
export function exportJson(conversation: Conversation, now = new Date()): { text: string } | { error: string } {
  const envelope: ExportEnvelope = {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exportedAt: now.toISOString(),
    conversation: {
      ...conversation,
      version: CONVERSATION_VERSION,
      messages: conversation.messages.map(asStored),
      ...(conversation.branches ? { branches: conversation.branches.map(asStored) } : {}),
    },
  };
  const text = `${JSON.stringify(envelope, undefined, 1)}\n`;
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > MAX_TRANSFER_BYTES) {
    return {
      error: l10n.t(
        'The conversation is {0} MB as JSON, more than the {1} MB an import reads: export it as Markdown instead.',
        Math.ceil(bytes / 1024 / 1024),
        MAX_TRANSFER_BYTES / 1024 / 1024,
      ),
    };
  }
  return { text };
}

/** A message as the store keeps it: a reply's steps within their budget (a reply on screen has them whole). */
function asStored(message: StoredMessage): StoredMessage {
  if (!message.steps) {
    return message;
  }
  const { steps: _whole, ...rest } = message;
  const steps = keptSteps(message);
  return steps ? { ...rest, steps } : rest;
}
