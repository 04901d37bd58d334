import { undefinedLabels, type LinkMap } from './markdownBlocks';

/** What a drawn piece waits for. */
interface Waits {
  labels: Set<string>;
  /** Drawn with a definition that was still being written: it may turn out not to be one. */
  provisional: boolean;
}

/**
 * Which drawn pieces of a streamed reply (K: a chunk of finished blocks) use reference labels not defined when they
 * were drawn. Models often write `See [the guide][1].` and define `[1]: https://…` at the end; the whole text renders
 * that as a link, so the pieces that use a label are drawn again when its definition is finished, and only those.
 */
export class LateReferences<K> {
  private readonly byLabel = new Map<string, Set<K>>();
  private readonly waits = new Map<K, Waits>();

  /**
   * Notes what a piece waits for: the labels its `prose` (see proseOf) may use that `links` (the finished
   * definitions) lacks. `lexed` is the link map the piece was lexed with, which may hold definitions still being
   * written.
   */
  note(key: K, prose: string, links: LinkMap, lexed: LinkMap): void {
    const labels = undefinedLabels(prose, links);
    if (!labels.length) {
      return;
    }
    let waits = this.waits.get(key);
    if (!waits) {
      waits = { labels: new Set(), provisional: false };
      this.waits.set(key, waits);
    }
    for (const label of labels) {
      waits.labels.add(label);
      waits.provisional ||= Object.hasOwn(lexed, label);
      let keys = this.byLabel.get(label);
      if (!keys) {
        keys = new Set();
        this.byLabel.set(label, keys);
      }
      keys.add(key);
    }
  }

  /** The pieces to draw again now that these labels are defined (each is forgotten: note it again once drawn). */
  defined(labels: readonly string[]): K[] {
    const keys = new Set<K>();
    for (const label of labels) {
      for (const key of this.byLabel.get(label) ?? []) {
        keys.add(key);
      }
    }
    for (const key of keys) {
      this.forget(key);
    }
    return [...keys];
  }

  /**
   * The pieces drawn with a definition that was still being written (the reply ended: it is final now, so they are
   * drawn again; each is forgotten).
   */
  unsettled(): K[] {
    const keys = [...this.waits].filter(([, waits]) => waits.provisional).map(([key]) => key);
    for (const key of keys) {
      this.forget(key);
    }
    return keys;
  }

  /** Forgets a piece (drawn again, or taken off the page). */
  forget(key: K): void {
    const waits = this.waits.get(key);
    if (!waits) {
      return;
    }
    this.waits.delete(key);
    for (const label of waits.labels) {
      const keys = this.byLabel.get(label);
      keys?.delete(key);
      if (keys?.size === 0) {
        this.byLabel.delete(label);
      }
    }
  }

  /** Forgets every piece. */
  clear(): void {
    this.byLabel.clear();
    this.waits.clear();
  }
}
