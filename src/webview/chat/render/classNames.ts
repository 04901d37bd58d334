/**
 * The class names the long-reply rendering relies on, in one place: the TypeScript here sets and reads them, and
 * `render.css` gives most of them their `content-visibility` rules (STYLED: test/unit/webview/chat/renderClassNames.test.ts checks
 * that each is a selector there, so a rename on one side only fails a test).
 */
export const CLASS = {
  /** A reply's container of finished blocks. */
  blocks: 'blocks',
  /** A group of chunks the page skips whole when off screen, and may put to sleep. */
  section: 'section',
  /** A group of about 16 finished blocks, skipped when off screen. */
  chunk: 'chunk',
  /** A chunk not decorated yet (code not highlighted, no toolbars): it has not been shown. */
  plain: 'plain',
  /** Laid out in full until a frame has recorded its size (a slice of older messages, a section that woke). */
  measuring: 'measuring',
  /** A slice of older messages drawn above the newest, skipped whole when off screen. */
  olderMessages: 'older-messages',
  /** A very long reply on its way out: nothing drawn while it is taken apart. */
  discarded: 'discarded',
  /** The unfinished tail of a streaming reply, drawn again each frame. */
  liveBlock: 'live-block',
} as const;

/** The names the page's stylesheets have rules for (`plain` and `live-block` are markers the code alone reads). */
export const STYLED: readonly string[] = [
  CLASS.blocks,
  CLASS.section,
  CLASS.chunk,
  CLASS.measuring,
  CLASS.olderMessages,
  CLASS.discarded,
];
