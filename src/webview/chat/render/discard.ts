import { CLASS } from './classNames';
import { whenIdle, type Schedule } from './schedule';

/** How long one idle slice may spend taking pieces out of the page. */
const SLICE_BUDGET_MS = 8;

/**
 * Takes drawn messages out of the log. Most go at once; a reply so long that its rendered blocks were grouped in
 * several sections (a reply of megabytes: hundreds of thousands of elements, whose removal in one go blocks the page
 * for a second or more) is hidden at once (`.discarded`: no content drawn, no height, hidden from assistive
 * technology) and taken out a chunk at a time when the page is idle.
 */
export function discardMessages(elements: readonly Element[], schedule: Schedule = whenIdle): void {
  const pieces: Element[] = [];
  for (const element of elements) {
    const long = longReplyBlocks(element);
    if (long.length === 0) {
      element.remove();
      continue;
    }
    element.classList.add(CLASS.discarded);
    element.setAttribute('aria-hidden', 'true');
    for (const blocks of long) {
      for (const section of Array.from(blocks.children)) {
        pieces.push(...Array.from(section.children), section);
      }
    }
    pieces.push(element);
  }
  let next = 0;
  const slice = (): void => {
    const deadline = performance.now() + SLICE_BUDGET_MS;
    while (next < pieces.length && performance.now() < deadline) {
      pieces[next++].remove();
    }
    if (next < pieces.length) {
      schedule(slice);
    }
  };
  if (pieces.length) {
    schedule(slice);
  }
}

/**
 * The block containers of the very long replies (more than one section) in a drawn message or a slice of older
 * messages. Each reply is looked into with a query that stops at its first match (its blocks come right after its
 * header): a query over the whole subtree would visit every element of a reply of megabytes.
 */
function longReplyBlocks(element: Element): Element[] {
  const replies = element.classList.contains(CLASS.olderMessages) ? Array.from(element.children) : [element];
  return replies
    .map((reply) => reply.querySelector(`:scope > .content > .${CLASS.blocks}`))
    .filter((blocks): blocks is Element => blocks !== null && blocks.childElementCount > 1);
}
