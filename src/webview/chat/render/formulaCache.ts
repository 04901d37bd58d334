/**
 * A cache of rendered formulas bounded by entries and by the characters it holds (keys and values): the oldest entry
 * goes first. A count alone let 512 formulas of user-macro MathML hold hundreds of megabytes.
 */
export class FormulaCache<V extends { html: string }> {
  private readonly entries = new Map<string, V>();
  private held = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxChars: number,
  ) {}

  /** The value kept for `key`, if any. */
  get(key: string): V | undefined {
    return this.entries.get(key);
  }

  /** Keeps `value` for `key`, dropping the oldest entries to make room; one larger than the whole bound is not kept. */
  set(key: string, value: V): void {
    const size = key.length + value.html.length;
    this.delete(key);
    while (this.entries.size && (this.entries.size >= this.maxEntries || this.held + size > this.maxChars)) {
      this.delete(this.entries.keys().next().value as string);
    }
    if (size <= this.maxChars && this.maxEntries > 0) {
      this.entries.set(key, value);
      this.held += size;
    }
  }

  /** How many entries the cache holds and their characters. */
  size(): { entries: number; chars: number } {
    return { entries: this.entries.size, chars: this.held };
  }

  private delete(key: string): void {
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.held -= key.length + old.html.length;
    }
  }
}
