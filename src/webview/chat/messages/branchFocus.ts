import type { Scroller } from '../scroller';

/**
 * After a branch switch, the message now in the switched place (`article`) keeps the view: it is scrolled into
 * view, not the end, and its switch button in the direction taken gets the focus (the other one when this one is
 * now at an end; the article when both are). False when the article is not on the page yet.
 */
export function focusSwitched(article: HTMLElement | undefined, step: -1 | 1, scroller: Scroller): boolean {
  if (!article?.isConnected) {
    return false;
  }
  const buttons = [
    article.querySelector<HTMLButtonElement>(step < 0 ? '.branch-previous' : '.branch-next'),
    article.querySelector<HTMLButtonElement>(step < 0 ? '.branch-next' : '.branch-previous'),
  ];
  const target = buttons.find((b) => b && !b.disabled) ?? article;
  target.focus({ preventScroll: true });
  // The switched message stays where the user is looking, not the end of the conversation.
  scroller.unpin();
  article.scrollIntoView({ block: 'nearest' });
  scroller.unpin();
  return true;
}
