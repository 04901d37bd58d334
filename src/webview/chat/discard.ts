import { whenIdle, type Schedule } from './olderMessages';

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
    // A reply's blocks, or those of the replies in a slice of older messages.
    const long = Array.from(element.querySelectorAll('.content > .blocks')).filter((b) => b.childElementCount > 1);
    if (long.length === 0) {
      element.remove();
      continue;
    }
    element.classList.add('discarded');
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
