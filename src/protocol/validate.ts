/**
 * Field-by-field checks of what a webview page sends. A page renders text from the service, so a message may be
 * shaped by a hostile reply: each message type has one validator, kept in a `Record<WebviewToHost['type'],
 * Validator>` per view so the compiler reports a type without one. A message that fails is dropped whole.
 */

/** A message from a page, before it is trusted: an object with a string `type`. */
export type Untrusted = Record<string, unknown> & { type: string };

/** Whether every field of one message type is what the protocol says (and nothing beyond its bounds). */
export type Validator = (message: Untrusted) => boolean;

/** The longest text a page may send in one field (a prompt, a code block to copy): 4 MB. */
export const MAX_TEXT = 4 * 1024 * 1024;

/** The longest identifier, URL or title a page may send. */
export const MAX_SHORT = 8 * 1024;

/** A string of at most `max` characters. */
export function isText(value: unknown, max = MAX_TEXT): value is string {
  return typeof value === 'string' && value.length <= max;
}

/** A non-empty string of at most `MAX_SHORT` characters (ids, URLs, titles). */
export function isShort(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_SHORT;
}

/** A safe non-negative integer (request ids, list indexes). */
export function isIndex(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/** One of the listed values. */
export function isOneOf<T extends string>(value: unknown, allowed: readonly T[]): value is T {
  return typeof value === 'string' && (allowed as readonly string[]).includes(value);
}

/** A validator for a message that carries nothing but its type. */
export const bare: Validator = () => true;

/** Why a message was dropped, for the log (never the message's content, which may be long or sensitive). */
export type Verdict<T> = { ok: true; message: T } | { ok: false; reason: string };

/**
 * Checks a page's message against a view's table: an object, a known `type`, and fields its validator accepts.
 * The type is named in the reason only when it is a known one (an unknown type may be anything).
 */
export function checkMessage<T extends { type: string }>(
  table: Record<T['type'], Validator>,
  raw: unknown,
): Verdict<T> {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
    return { ok: false, reason: 'not an object' };
  }
  const type = (raw as { type?: unknown }).type;
  if (typeof type !== 'string' || !Object.prototype.hasOwnProperty.call(table, type)) {
    return { ok: false, reason: 'an unknown message type' };
  }
  const validator = table[type as T['type']];
  return validator(raw as Untrusted)
    ? { ok: true, message: raw as unknown as T }
    : { ok: false, reason: `${type} with fields out of bounds` };
}
