/**
 * The chat's page-wide keys. Ctrl+Up / Ctrl+Down (Cmd on macOS) move the focus between the messages of the log, the
 * last message first from the composer, and back to the composer past the newest; the composer keeps its text and
 * caret meanwhile. Escape first closes whatever is open in the page (the history list), and only with nothing open
 * stops a streaming reply.
 */

/** What the keys act on. */
export interface KeyboardNavTarget {
  log: HTMLElement;
  composer: HTMLTextAreaElement;
  /** Closes what is open in the page (the history list); true when something was. */
  closeOpen(): boolean;
  /** Stops the streaming reply; true when one was streaming. */
  stop(): boolean;
  /** Alt+F2: open the focused reply (undefined: the last one) as text, as VS Code's Accessible View does. */
  openAsText(messageId: string | undefined): void;
  /** Puts the messages beside `article` (up: -1, down: 1) back in the log if they were taken out; none focused: the last. */
  wakeBeside?(article: Element | null, step: -1 | 1): void;
}

/** The message articles of the log, in order. */
function messages(log: HTMLElement): HTMLElement[] {
  return Array.from(log.querySelectorAll<HTMLElement>('article.message'));
}

/** Moves the focus one message up (-1) or down (+1) from where it is; true when it moved. */
export function moveBetweenMessages(target: KeyboardNavTarget, step: -1 | 1): boolean {
  const current = (document.activeElement as Element | null)?.closest?.<HTMLElement>('article.message');
  target.wakeBeside?.(current ?? null, step);
  const all = messages(target.log);
  const at = current ? all.indexOf(current) : all.length;
  const next = at + step;
  if (next >= all.length) {
    if (!current) {
      return false;
    }
    target.composer.focus();
    return true;
  }
  const article = all[Math.max(0, next)];
  if (!article) {
    return false;
  }
  article.focus({ preventScroll: true });
  article.scrollIntoView({ block: 'nearest' });
  return true;
}

/** Installs the page-wide keys on `doc`; returns what removes them. */
export function installKeyboardNav(doc: Document, target: KeyboardNavTarget): () => void {
  const onKey = (event: KeyboardEvent): void => {
    if (event.defaultPrevented || event.isComposing) {
      return;
    }
    const mod = (event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey;
    if (mod && (event.key === 'ArrowUp' || event.key === 'ArrowDown')) {
      if (moveBetweenMessages(target, event.key === 'ArrowUp' ? -1 : 1)) {
        event.preventDefault();
      }
    } else if (event.key === 'Escape' && (target.closeOpen() || target.stop())) {
      event.preventDefault();
    } else if (event.key === 'F2' && event.altKey && !event.ctrlKey && !event.metaKey && !event.shiftKey) {
      event.preventDefault();
      const reply = (document.activeElement as Element | null)?.closest?.<HTMLElement>('article.message.assistant');
      target.openAsText(reply?.dataset.id);
    }
  };
  doc.addEventListener('keydown', onKey);
  return () => doc.removeEventListener('keydown', onKey);
}

/**
 * Tells the host which reply has the keyboard focus (a reply article or anything in it), so "Open Reply as Text"
 * opens that one; focus anywhere else in the page clears it (the command then opens the last reply).
 */
export function trackReplyFocus(root: HTMLElement, post: (messageId: string | undefined) => void): void {
  let current: string | undefined;
  root.addEventListener('focusin', (event) => {
    const reply = (event.target as Element | null)?.closest?.<HTMLElement>('article.message.assistant');
    const id = reply?.dataset.id;
    if (id !== current) {
      current = id;
      post(id);
    }
  });
  // Focus leaving the page (to the palette, an editor) leaves no reply focused: the command then opens the last one.
  window.addEventListener('blur', () => {
    if (current !== undefined) {
      current = undefined;
      post(undefined);
    }
  });
}
