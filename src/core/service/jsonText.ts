/**
 * JSON text of values the service sent, bounded in depth and length. `JSON.stringify` recurses once per level, so
 * a body nested a few thousand levels deep (legal JSON, and cheap to send) throws "Maximum call stack size
 * exceeded"; and a 30 MB body pretty-printed into the chat helps nobody. This writer stops at `maxDepth` levels
 * (deeper values show as `…`) and at `maxChars` characters (the text then ends with `…`), so its own recursion
 * is bounded too.
 */

/** Options of `boundedJson`. */
export interface BoundedJsonOptions {
  /** Spaces per level; 0 (default) writes on one line. */
  indent?: number;
  /** Levels written before deeper values become `…` (default 32). */
  maxDepth?: number;
  /** Characters written before the rest is left out (default 100,000). */
  maxChars?: number;
}

/** What is left out past the limits. */
const ELIDED = '…';

/** Writes `value` as JSON within the limits; `undefined` for a value JSON cannot show (undefined, a function). */
export function boundedJson(value: unknown, options: BoundedJsonOptions = {}): string | undefined {
  const writer = new Writer(options.indent ?? 0, options.maxDepth ?? 32, options.maxChars ?? 100_000);
  if (!writer.value(value, 0)) {
    return undefined;
  }
  return writer.text();
}

class Writer {
  private readonly parts: string[] = [];
  private length = 0;
  private full = false;

  constructor(
    private readonly indent: number,
    private readonly maxDepth: number,
    private readonly maxChars: number,
  ) {}

  text(): string {
    const text = this.parts.join('');
    return this.full ? `${text}${ELIDED}` : text;
  }

  /** Writes one value; false when JSON has no text for it (left out of objects, `null` in arrays). */
  value(value: unknown, depth: number): boolean {
    if (value === null || typeof value === 'string' || typeof value === 'boolean') {
      this.put(JSON.stringify(value));
    } else if (typeof value === 'number' || typeof value === 'bigint') {
      this.put(typeof value === 'number' && !Number.isFinite(value) ? 'null' : String(value));
    } else if (typeof value !== 'object') {
      return false;
    } else if (depth >= this.maxDepth) {
      this.put(Array.isArray(value) ? `[${ELIDED}]` : `{${ELIDED}}`);
    } else if (Array.isArray(value)) {
      this.array(value, depth);
    } else {
      this.object(value as Record<string, unknown>, depth);
    }
    return true;
  }

  private array(items: unknown[], depth: number): void {
    this.put('[');
    for (let i = 0; i < items.length && !this.full; i++) {
      this.put(i === 0 ? '' : ',');
      this.newline(depth + 1);
      if (!this.value(items[i], depth + 1)) {
        this.put('null');
      }
    }
    if (items.length > 0) {
      this.newline(depth);
    }
    this.put(']');
  }

  private object(entries: Record<string, unknown>, depth: number): void {
    this.put('{');
    let first = true;
    for (const key of Object.keys(entries)) {
      if (this.full) {
        break;
      }
      const item = entries[key];
      if (item === undefined || typeof item === 'function' || typeof item === 'symbol') {
        continue;
      }
      this.put(first ? '' : ',');
      first = false;
      this.newline(depth + 1);
      this.put(`${JSON.stringify(key)}:${this.indent > 0 ? ' ' : ''}`);
      this.value(item, depth + 1);
    }
    if (!first) {
      this.newline(depth);
    }
    this.put('}');
  }

  private newline(depth: number): void {
    if (this.indent > 0) {
      this.put(`\n${' '.repeat(this.indent * depth)}`);
    }
  }

  private put(text: string): void {
    if (this.full) {
      return;
    }
    if (this.length + text.length > this.maxChars) {
      this.parts.push(text.slice(0, Math.max(0, this.maxChars - this.length)));
      this.length = this.maxChars;
      this.full = true;
      return;
    }
    this.parts.push(text);
    this.length += text.length;
  }
}
