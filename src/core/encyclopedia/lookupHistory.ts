/** Back and forward through the lookups of a session, like a browser's history. */
export class LookupHistory<T> {
  private items: T[] = [];
  private index = -1;

  constructor(private readonly max = 50) {}

  /** The item shown now. */
  get current(): T | undefined {
    return this.items[this.index];
  }

  get canGoBack(): boolean {
    return this.index > 0;
  }

  get canGoForward(): boolean {
    return this.index < this.items.length - 1;
  }

  /** Position (1-based) and length, for "2 of 5". */
  get position(): { index: number; length: number } {
    return { index: this.index + 1, length: this.items.length };
  }

  /** Adds an item after the current one, dropping whatever was forward of it. */
  push(item: T): void {
    this.items = this.items.slice(0, this.index + 1);
    this.items.push(item);
    if (this.items.length > this.max) {
      this.items.shift();
    }
    this.index = this.items.length - 1;
  }

  /** Replaces the current item (a refreshed result). */
  replace(item: T): void {
    if (this.index < 0) {
      this.push(item);
    } else {
      this.items[this.index] = item;
    }
  }

  /** Steps back; returns the item now current, or undefined at the start. */
  back(): T | undefined {
    if (!this.canGoBack) {
      return undefined;
    }
    this.index--;
    return this.current;
  }

  /** Steps forward; returns the item now current, or undefined at the end. */
  forward(): T | undefined {
    if (!this.canGoForward) {
      return undefined;
    }
    this.index++;
    return this.current;
  }
}
