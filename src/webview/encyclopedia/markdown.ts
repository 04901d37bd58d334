import DOMPurify from 'dompurify';
import { createMarked, escapeHtml } from '../shared/markdown';
import { makeHostLink } from '../shared/hostLinks';
import { isWebUrl } from '../../shared/links';

// Images become links (shown only when clicked).
const marked = createMarked((href, text) => `<a href="${escapeHtml(href)}">${escapeHtml(text || href)}</a>`);

/**
 * Renders untrusted Markdown into a fragment: raw HTML off, sanitised by DOMPurify, and every link that is not
 * http(s) (`command:`, `javascript:`, relative) turned into inert text. Links carry `data-url` and no `href`
 * (see hostLinks.ts); the page's click
 * handler asks the host to open them.
 */
export function renderMarkdown(source: string): DocumentFragment {
  const html = marked.parse(source, { async: false });
  const fragment = DOMPurify.sanitize(html, {
    RETURN_DOM_FRAGMENT: true,
    FORBID_TAGS: ['img', 'style', 'form', 'input', 'button', 'textarea', 'select', 'iframe', 'svg', 'math'],
    FORBID_ATTR: ['style', 'class', 'id'],
  });
  for (const a of Array.from(fragment.querySelectorAll('a'))) {
    const href = a.getAttribute('href');
    if (isWebUrl(href)) {
      makeHostLink(a, href);
    } else {
      const span = document.createElement('span');
      span.className = 'inert-link';
      span.textContent = a.textContent;
      a.replaceWith(span);
    }
  }
  return fragment;
}
