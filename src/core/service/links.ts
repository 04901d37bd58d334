/**
 * Links and image URLs that a page asks the host to act on. Pages render text from the service, so what they send
 * is checked here again: a link's scheme, a `mailto:`'s fields, and whether an image URL is one of what the page
 * was sent to show.
 */

import { hasCredentials, parseLink } from '../../shared/links';

export { CHAT_LINK_SCHEMES, WEB_LINK_SCHEMES } from '../../shared/links';

/**
 * The fields a `mailto:` link keeps (RFC 6068 header fields a mail program fills in). Everything else goes,
 * above all `attach`/`attachment`, which some mail programs honour by attaching a local file to the draft.
 */
const MAILTO_FIELDS = new Set(['to', 'cc', 'bcc', 'subject', 'body']);

/** A `mailto:` link with only its address and the fields of `MAILTO_FIELDS`. */
function cleanMailto(url: URL): string {
  const kept = url.search
    .slice(1)
    .split('&')
    .filter((pair) => {
      const name = pair.split('=')[0];
      try {
        return MAILTO_FIELDS.has(decodeURIComponent(name).trim().toLowerCase());
      } catch {
        return false;
      }
    });
  return `mailto:${url.pathname}${kept.length ? `?${kept.join('&')}` : ''}`;
}

/**
 * The URL to open for a link a page asks to open, or undefined when it may not be opened: a scheme outside
 * `schemes` (`command:`, `javascript:`, `file:`, `vscode:`…), a URL that does not parse, or one with a user name
 * or password (a way to disguise the real host). A `mailto:` keeps only to, cc, bcc, subject and body.
 */
export function openableLink(url: string, schemes: readonly string[]): string | undefined {
  const parsed = parseLink(url, schemes);
  if (!parsed) {
    return undefined;
  }
  if (parsed.protocol === 'mailto:') {
    return cleanMailto(parsed);
  }
  return hasCredentials(parsed) ? undefined : parsed.href;
}

/** Undoes Markdown's backslash escapes (`\_` → `_`), which the rendered URL no longer has. */
function unescapeMarkdown(text: string): string {
  return text.replace(/\\([!-/:-@[-`{-~])/g, '$1');
}

/** `&amp;`-style entities the Markdown source may use inside a URL, as the rendered URL has them. */
function decodeEntities(text: string): string {
  return text.replace(/&(amp|#38|#x26);/gi, '&');
}

/** Whether `url` occurs in `text` as a whole URL (bounded as Markdown bounds one), not inside a longer one. */
function containsWhole(text: string, url: string): boolean {
  for (let at = text.indexOf(url); at >= 0; at = text.indexOf(url, at + 1)) {
    const before = at === 0 ? ' ' : text[at - 1];
    const after = at + url.length === text.length ? ' ' : text[at + url.length];
    if (/[\s(<:'"]/.test(before) && /[\s)>'"\]]/.test(after)) {
      return true;
    }
  }
  return false;
}

/**
 * Whether `url` appears whole in one of `texts` (the Markdown the host sent to a page), as written or as the
 * renderer turns it into an attribute (escapes and `&amp;` undone). A page that asks for any other URL did not
 * get it from the host, so the request is refused.
 */
export function isUrlInTexts(url: string, texts: Iterable<string>): boolean {
  if (!url) {
    return false;
  }
  for (const text of texts) {
    if (containsWhole(text, url)) {
      return true;
    }
    const plain = decodeEntities(unescapeMarkdown(text));
    if (plain !== text && containsWhole(plain, url)) {
      return true;
    }
  }
  return false;
}
