/**
 * The one rule for which URLs become links, shared by the host (`src/core`, `src/features`) and the webviews: pure
 * code, no DOM and no `vscode`. A page renders text from the service, so it applies the rule to decide what is a
 * link, and the host applies it again before it opens or fetches anything a page asks for.
 */

/** The schemes of web pages: what the encyclopedia opens, what images and sources may use. */
export const WEB_LINK_SCHEMES: readonly string[] = ['http:', 'https:'];

/** The schemes the chat opens: web pages and mail links (replies may hold them). */
export const CHAT_LINK_SCHEMES: readonly string[] = [...WEB_LINK_SCHEMES, 'mailto:'];

/**
 * `url` parsed, when it is absolute and its scheme is one of `schemes` (web pages by default); undefined for
 * anything else: `command:`, `javascript:`, `file:`, `vscode:`, a relative URL, text that does not parse.
 */
export function parseLink(
  url: string | null | undefined,
  schemes: readonly string[] = WEB_LINK_SCHEMES,
): URL | undefined {
  if (!url) {
    return undefined;
  }
  try {
    const parsed = new URL(url.trim());
    return schemes.includes(parsed.protocol) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** Whether `url` is an absolute http(s) URL. */
export function isWebUrl(url: string | null | undefined): url is string {
  return parseLink(url) !== undefined;
}

/** The normalised http(s) URL, or undefined when `url` is not one. */
export function webUrl(url: string | null | undefined): string | undefined {
  return parseLink(url)?.href;
}

/** Whether a parsed URL carries a user name or password: a way to disguise the real host (`https://bank@evil/`). */
export function hasCredentials(url: URL): boolean {
  return url.username !== '' || url.password !== '';
}
