/**
 * The words of an HTML error page (a proxy's or a gateway's), found with plain searches in linear time. Patterns such
 * as `/<[^>]*>/g` or `<title[^>]*>([\s\S]*?)<\/title>` rescan the rest of the page from every `<` (or `<title`) that
 * never closes: seconds of a blocked thread on an error body of 64 KB.
 */

/** The text of the page's `<title>`, else of its first `<h1>`, else of the whole page without scripts and styles. */
export function htmlText(html: string): string {
  const lower = asciiLowerCase(html);
  const heading = elementText(html, lower, 'title') ?? elementText(html, lower, 'h1');
  return withoutTags(heading ?? withoutElements(html, lower, ['script', 'style']));
}

/** ASCII letters in lower case only, so every index stays where it was (`toLowerCase` may change the length). */
function asciiLowerCase(text: string): string {
  return text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}

/** Whether `<name` at `at` is that tag's start (not the start of a longer name such as `<h10` or `<titles`). */
function isTagAt(lower: string, at: number, name: string): boolean {
  const next = lower.charAt(at + name.length + 1);
  return next === '>' || next === '/' || /\s/.test(next);
}

/** The next start of the tag `name` at or after `from`, or -1. */
function nextTag(lower: string, name: string, from: number): number {
  for (let at = lower.indexOf(`<${name}`, from); at !== -1; at = lower.indexOf(`<${name}`, at + 1)) {
    if (isTagAt(lower, at, name)) {
      return at;
    }
  }
  return -1;
}

/** The content of the first element `name` that is closed, or undefined. */
function elementText(html: string, lower: string, name: string): string | undefined {
  const open = nextTag(lower, name, 0);
  const start = open === -1 ? -1 : lower.indexOf('>', open);
  const end = start === -1 ? -1 : lower.indexOf(`</${name}>`, start);
  return end === -1 ? undefined : html.slice(start + 1, end);
}

/** The page without the elements `names` (and their content), each replaced by a space; an unclosed one stays. */
function withoutElements(html: string, lower: string, names: readonly string[]): string {
  let out = '';
  let from = 0;
  // The next start of each element, searched again only once `from` has passed it.
  const next = new Map(names.map((name) => [name, nextTag(lower, name, 0)]));
  for (;;) {
    let name: string | undefined;
    for (const [candidate, at] of next) {
      if (at !== -1 && (name === undefined || at < (next.get(name) ?? -1))) {
        name = candidate;
      }
    }
    if (name === undefined) {
      return out + html.slice(from);
    }
    const open = next.get(name) ?? -1;
    const close = lower.indexOf(`</${name}>`, open);
    if (close === -1) {
      next.set(name, -1); // no later one closes either
      continue;
    }
    out += `${html.slice(from, open)} `;
    from = close + name.length + 3;
    for (const [candidate, at] of next) {
      if (at !== -1 && at < from) {
        next.set(candidate, nextTag(lower, candidate, from));
      }
    }
  }
}

/** The text without its tags (`<…>`), each replaced by a space; a `<` that never closes stays as text. */
function withoutTags(html: string): string {
  let out = '';
  let from = 0;
  for (;;) {
    const open = html.indexOf('<', from);
    const close = open === -1 ? -1 : html.indexOf('>', open);
    if (close === -1) {
      return out + html.slice(from);
    }
    out += `${html.slice(from, open)} `;
    from = close + 1;
  }
}

/** The named character references error pages use; any other stays as written. */
const NAMED: Record<string, string> = { lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', amp: '&' };

/**
 * The text with character references decoded: named (`NAMED`), decimal (`&#115;`) and hexadecimal (`&#x73;`). A page
 * may write a key with them, so text is decoded before it is scrubbed. One pass, so `&amp;#115;` stays `&#115;`.
 */
export function decodeEntities(text: string): string {
  return text.replace(
    /&(?:#(\d{1,7})|#[xX]([\da-fA-F]{1,6})|([a-zA-Z]{2,6}));/g,
    (whole, dec?: string, hex?: string, name?: string) => {
      if (name !== undefined) {
        return NAMED[name.toLowerCase()] ?? whole;
      }
      const code = dec !== undefined ? Number(dec) : parseInt(hex ?? '', 16);
      return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : whole;
    },
  );
}
