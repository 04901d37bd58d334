/**
 * When the rendering's deferred work runs. Everything that may wait (older messages, decorating chunks shown,
 * sleeping sections, taking long replies apart) waits for an idle moment; what must follow a rendered frame waits
 * for one. Tests and benches pass their own `Schedule`.
 */

/** Runs deferred work: `callback` later, when the schedule says. */
export type Schedule = (callback: () => void) => void;

/** Runs `callback` when the page is idle (within 200 ms, in any case). */
export const whenIdle: Schedule = (callback) => {
  if (typeof requestIdleCallback === 'function') {
    requestIdleCallback(() => callback(), { timeout: 200 });
  } else {
    setTimeout(callback, 0);
  }
};

/**
 * Runs `callback` after the page has drawn a frame: an element laid out in full ('measuring') records the size it
 * keeps while skipped (`contain-intrinsic-size: auto`) only when a frame is rendered, and an idle callback may run
 * before one (its 200 ms timeout fires as a task on a busy page). Taking 'measuring' off earlier left the element at
 * its placeholder size, which it then changed when scrolled into view: a jump.
 */
export function afterFrame(callback: () => void): void {
  if (typeof requestAnimationFrame === 'function') {
    requestAnimationFrame(() => setTimeout(callback, 0));
  } else {
    setTimeout(callback, 0);
  }
}
