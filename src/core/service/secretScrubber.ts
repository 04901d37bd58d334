import { ServiceError } from './errors';

/** Keys shorter than this are not scrubbed: removing every "abcd" from a reply would wreck the text. */
export const MIN_SECRET_LENGTH = 8;

/** What a removed secret is replaced with. */
export const REDACTED = '***';

/** `Bearer <token>` (an echoed Authorization header), unless already redacted. */
const BEARER = /(\bBearer\s+)(?!\*\*\*)[^\s"'`,;<>]+/gi;

/**
 * The keys of this session, and the one place that removes them from text the service sends back.
 *
 * The host tells it every key it knows (both stored keys, the environment's, session-only keys) through `add`;
 * the HTTP client adds every key it sends, so the key in use is always known. A key is never forgotten while
 * the extension runs: a key that was just rejected or replaced is often a typo of the real one, and still the
 * user's secret.
 */
export class SecretScrubber {
  private readonly keys = new Set<string>();
  private pattern: RegExp | undefined;
  private longest = 0;

  /** Registers keys (undefined, blank and short values are ignored). Returns this, for chaining. */
  add(...values: (string | undefined)[]): this {
    let changed = false;
    for (const value of values) {
      const key = value?.trim();
      if (key && key.length >= MIN_SECRET_LENGTH && !this.keys.has(key)) {
        this.keys.add(key);
        changed = true;
      }
    }
    if (changed) {
      // Longest first, so a key that contains another is removed whole.
      const sorted = [...this.keys].sort((a, b) => b.length - a.length);
      this.pattern = new RegExp(sorted.map(escapeRegExp).join('|'), 'g');
      this.longest = sorted[0].length;
    }
    return this;
  }

  /** How many keys are registered. */
  get size(): number {
    return this.keys.size;
  }

  /**
   * Removes every registered key from text the service wrote as content (a reply, an article). `Bearer` examples
   * stay: an answer about HTTP authentication may legitimately show one.
   */
  scrubKeys(text: string): string {
    if (!this.pattern || text.length < MIN_SECRET_LENGTH) {
      return text;
    }
    return text.replace(this.pattern, REDACTED);
  }

  /**
   * `value` with `scrubKeys` applied to each of its strings, however deep (a parsed answer, an article): the raw
   * body is scrubbed before it is parsed, but a key written with JSON escapes (`\/`, `\u0073`) shows only after.
   */
  scrubValue<T>(value: T): T {
    if (!this.pattern) {
      return value;
    }
    if (typeof value === 'string') {
      return this.scrubKeys(value) as T;
    }
    if (Array.isArray(value)) {
      return value.map((item: unknown) => this.scrubValue(item)) as T;
    }
    if (value !== null && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [name, item] of Object.entries(value)) {
        out[name] = this.scrubValue(item);
      }
      return out as T;
    }
    return value;
  }

  /** Removes every registered key and anything shaped like `Bearer <token>`: for error texts and log lines. */
  scrub(text: string): string {
    return this.scrubKeys(text).replace(BEARER, `$1${REDACTED}`);
  }

  /**
   * The error with its message and the service's own words scrubbed. Anything that is not a ServiceError comes
   * back as it is (the clients throw only ServiceErrors; their texts are built from scrubbed parts already).
   */
  scrubError<T>(error: T): T | ServiceError {
    if (!(error instanceof ServiceError)) {
      return error;
    }
    const message = this.scrub(error.message);
    const detail = error.detail === undefined ? undefined : this.scrub(error.detail);
    if (message === error.message && detail === error.detail) {
      return error;
    }
    return new ServiceError(error.kind, message, {
      status: error.status,
      retryAfterSeconds: error.retryAfterSeconds,
      keyKind: error.keyKind,
      detail,
      cause: error.cause,
    });
  }

  /** A filter for text that arrives in pieces (a streamed reply), where a key may be split across pieces. */
  streamFilter(): StreamScrubber {
    return new StreamScrubber(this);
  }

  /** The length of the longest end of `text` that begins a registered key (and so may continue in the next piece). */
  partialKeyAtEnd(text: string): number {
    let best = 0;
    const max = Math.min(this.longest - 1, text.length);
    for (const key of this.keys) {
      for (let n = Math.min(key.length - 1, max); n > best; n--) {
        if (text.endsWith(key.slice(0, n))) {
          best = n;
          break;
        }
      }
    }
    return best;
  }
}

/**
 * Scrubs a text that arrives in pieces: each piece comes out with the keys removed, holding back only an end that
 * could be the start of a key until the next piece (or `end`) says whether it is one.
 */
export class StreamScrubber {
  private held = '';

  constructor(private readonly scrubber: SecretScrubber) {}

  /** The text of this piece that is safe to show now (may be empty). */
  push(piece: string): string {
    if (this.scrubber.size === 0 && this.held === '') {
      return piece;
    }
    const text = this.scrubber.scrubKeys(this.held + piece);
    const hold = this.scrubber.partialKeyAtEnd(text);
    this.held = hold > 0 ? text.slice(text.length - hold) : '';
    return hold > 0 ? text.slice(0, text.length - hold) : text;
  }

  /** What was held back, once no more pieces come: it was not a key. */
  end(): string {
    const rest = this.held;
    this.held = '';
    return rest;
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
