import DOMPurify from 'dompurify';
import { CHAT_LINK_SCHEMES, isWebUrl, parseLink } from '../../shared/links';
import { makeHostLink } from '../shared/hostLinks';
import * as l10n from '@vscode/l10n';
import { h, icon } from '../shared/dom';
import { allowMathml } from './mathSanitizer';
import './safeHtml.css';

/** The page's own sanitiser (its MathML hook stays off every other DOMPurify user). */
const purifier = DOMPurify(window);
const MATHML = allowMathml(purifier);
// Set once: DOMPurify parses a configuration given to each call anew (a fifth of its time on a streamed reply).
purifier.setConfig({
  RETURN_DOM_FRAGMENT: true,
  ADD_TAGS: MATHML.ADD_TAGS,
  ADD_ATTR: MATHML.ADD_ATTR,
  FORBID_TAGS: [
    ...MATHML.FORBID_TAGS,
    'img',
    'style',
    'form',
    'input',
    'button',
    'textarea',
    'select',
    'iframe',
    'svg',
    'video',
    'audio',
  ],
  FORBID_ATTR: ['style', 'id', 'srcset', 'src', 'action', 'formaction', 'xlink:href'],
});

/** Whether a URL from model output may become a link (opened by the host): http, https, mailto. */
export function isOpenableUrl(url: string | null | undefined): url is string {
  return parseLink(url, CHAT_LINK_SCHEMES) !== undefined;
}

/** The alt text of each "Load image" button, for the image that replaces it (kept out of the DOM). */
const imageAlts = new WeakMap<Element, string>();

/** The alt text of a "Load image" button made by `safeFragment`. */
export function imageAlt(button: Element): string | undefined {
  return imageAlts.get(button);
}

/** How many loaded images the page remembers, and how many characters of `data:` URIs in all. */
const REMEMBERED_IMAGES = 16;
const REMEMBERED_CHARS = 24 * 1024 * 1024;

/**
 * The images the user loaded, by URL, the oldest first: a message drawn again (the conversation redrawn after another
 * window's change, a slice of older messages or a section of a long reply woken, a switch back) shows the image, not
 * the button again; an answer that came while its button was off the page is shown when it is drawn. Bounded: the
 * host sends images of up to 8 MB (11 M characters as `data:` URIs), and the page's heap is the conversation's.
 */
const loadedImages = new Map<string, string>();
let rememberedChars = 0;

/** Remembers an image the host loaded for `url`, as the `data:` URI it sent (the oldest go when there are too many). */
export function rememberImage(url: string, dataUri: string): void {
  rememberedChars -= loadedImages.get(url)?.length ?? 0;
  loadedImages.delete(url);
  loadedImages.set(url, dataUri);
  rememberedChars += dataUri.length;
  for (const [oldest, uri] of loadedImages) {
    if (loadedImages.size <= REMEMBERED_IMAGES && rememberedChars <= REMEMBERED_CHARS) {
      break;
    }
    loadedImages.delete(oldest);
    rememberedChars -= uri.length;
  }
}

/** A loaded image (the host's `data:` URI) as the element that takes its button's place. */
export function loadedImage(dataUri: string, alt: string): HTMLElement {
  return h('img', { src: dataUri, alt, class: 'loaded-image' });
}

/**
 * Sanitises rendered Markdown into a fragment: DOMPurify drops scripts, handlers, frames, forms, styles, SVG and
 * images, and lets through only the MathML math.ts renders (mathSanitizer.ts); then links become host-opened links (`data-url`, no `href`: see hostLinks.ts) or inert text, and image placeholders become
 * "Load image" buttons (nothing remote loads until the user clicks).
 */
export function safeFragment(html: string): DocumentFragment {
  const fragment = purifier.sanitize(html) as unknown as DocumentFragment;
  for (const a of Array.from(fragment.querySelectorAll('a'))) {
    const href = a.getAttribute('href');
    if (isOpenableUrl(href)) {
      makeHostLink(a, href);
    } else {
      a.replaceWith(
        h(
          'span',
          { class: 'inert-link', title: l10n.t('Link not opened: only http, https and mailto links are') },
          a.textContent ?? '',
        ),
      );
    }
  }
  for (const span of Array.from(fragment.querySelectorAll<HTMLElement>('span.image-placeholder'))) {
    const src = span.dataset.src;
    const alt = span.dataset.alt || l10n.t('image');
    const loaded = src === undefined ? undefined : loadedImages.get(src);
    if (loaded !== undefined) {
      span.replaceWith(loadedImage(loaded, alt));
    } else if (isWebUrl(src)) {
      const button = h(
        'button',
        { type: 'button', class: 'load-image', 'data-image-url': src, title: l10n.t('Load {0}', src) },
        icon('file-media'),
        h('span', {}, l10n.t('Load image: {0}', alt)),
      );
      imageAlts.set(button, alt);
      span.replaceWith(button);
    } else {
      span.replaceWith(h('span', { class: 'inert-link' }, alt));
    }
  }
  return fragment;
}
