/**
 * The long-reply rendering: how the chat page stays cheap however long a reply or a conversation grows. One
 * mechanism, in this folder; the class names it relies on are in `classNames.ts` (render.css gives them their
 * `content-visibility` rules), and the deferred work runs on `schedule.ts`.
 *
 * - **Streaming** (`streamRenderer.ts`): each frame lexes only the unfinished tail of the reply (`markdownBlocks.ts`)
 *   and draws it as the `live-block`; blocks followed by another are finished and drawn once, into
 *   `FinishedBlocks`. A chunk that used a reference label defined only later is drawn again when the definition is
 *   finished (`lateReferences.ts`), so the reply ends exactly as its whole text renders.
 * - **Chunks and sections** (`finishedBlocks.ts`): finished blocks go into chunks of about 16, chunks into sections
 *   of 16. Both are `content-visibility: auto`: off screen they are neither laid out nor painted, at the height they
 *   had when last drawn. A chunk is `plain` (code not highlighted, no toolbars, room kept for them) until it is first
 *   shown, then decorated in an idle moment.
 * - **Sleep and wake**: in a reply over 512 KB, a section scrolled well out of view goes to sleep when the page is
 *   idle: its elements leave the page and only its height stays. Coming back into view, it is drawn again from its
 *   Markdown, laid out in full once (`measuring`) until a frame has recorded its size. A reply of megabytes then keeps
 *   a few thousand elements instead of hundreds of thousands, whose tracing by the garbage collector blocked the page.
 * - **Older messages** (`olderMessages.ts`): showing a conversation draws the newest messages that fill two screens
 *   in the first task, then the older ones in slices of 10 per idle moment, above, keeping what the user reads in
 *   place (each slice is `measuring` until a frame has recorded its size, then skipped whole off screen). A long
 *   conversation's state carries only its newest messages; the page asks for the rest once they are drawn
 *   (`../olderPart.ts`, the host's `features/chat/olderMessages.ts`) in parts, and they join the slices. Past 1,000
 *   older messages, slices far out of view sleep (`sleepingSlices.ts`): their messages leave the document and are
 *   let go of (kept whole only where the user left something of theirs: an edit, an opened step, an image), and are
 *   drawn again from their views as the slice nears the view, each message at the height it had.
 * - **Discard** (`discard.ts`): leaving a conversation takes its messages off at once, except very long replies,
 *   which are hidden at once (`discarded`) and taken apart a chunk per idle moment.
 *
 * Measured by `npm run bench` (docs/performance.md): `chatRender.bench` (streaming, against a naive re-render),
 * `loadWebview.bench` (long tasks while showing, switching, streaming, reading and leaving a 5 MB reply) and
 * `lastPixel.bench` (last byte to last pixel through code-server), `bigConversationPage.bench` (5,000 messages).
 * Tested in `test/e2e/ui/chatPage.test.ts` (scrolling without jumps, sleeping and waking), `chatPageSleep.test.ts`
 * (sleeping slices) and `chatPageMarkdown.test.ts` (streamed = whole rendering).
 */

import './render.css';

export { discardMessages } from './discard';
export { holdSleep } from './finishedBlocks';
export { drawRecent, OlderMessages } from './olderMessages';
export { renderMarkdownInto, StreamRenderer, type Decorate } from './streamRenderer';
