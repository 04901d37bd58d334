/**
 * Links in the pages are opened by the host, never by the page or by VS Code's webview frame. The frame opens
 * every clicked `<a>` that has an `href` itself (it posts `did-click-link`, whatever the page's handlers did with
 * the click), so a link that also asked our host opened two browser tabs. Our links therefore carry their URL in
 * `data-url` and have no `href`: only the page's handler sees them, and it asks the host, which applies the
 * scheme rules (http, https, mailto for the chat). `role` and `tabindex` keep them links for the keyboard and
 * for screen readers.
 */

/** Makes `a` a host-opened link to `url`: no `href`, the URL in `data-url` and the tooltip, focusable. */
export function makeHostLink(a: HTMLAnchorElement, url: string): HTMLAnchorElement {
  a.removeAttribute('href');
  a.removeAttribute('target');
  a.dataset.url = url;
  a.title = url;
  a.setAttribute('role', 'link');
  a.tabIndex = 0;
  return a;
}

/** The host-opened link an event happened in, if any. */
export function hostLinkOf(event: Event): HTMLAnchorElement | undefined {
  const target = event.target as Element | null;
  return target?.closest?.<HTMLAnchorElement>('a[data-url]') ?? undefined;
}

/**
 * Opens host links on Enter, as a browser does for a link with an `href` (a click reaches the page's click
 * handler already).
 */
export function openHostLinksOnEnter(root: EventTarget, open: (url: string) => void): void {
  root.addEventListener('keydown', (event) => {
    const key = event as KeyboardEvent;
    const link = key.key === 'Enter' && !key.isComposing ? hostLinkOf(key) : undefined;
    if (link?.dataset.url && key.target === link) {
      key.preventDefault();
      open(link.dataset.url);
    }
  });
}
