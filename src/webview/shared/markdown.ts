import { Marked, type MarkedOptions, type Tokens } from 'marked';

/** Escapes text for HTML. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The Markdown both pages read: GitHub flavour, no soft line breaks as `<br>`, synchronous. */
export const MARKDOWN_OPTIONS = { gfm: true, breaks: false, async: false } as const satisfies MarkedOptions;

/**
 * A Markdown renderer for service text (untrusted): raw HTML is shown as text, and images go through `image`,
 * each page's own rule (the chat: a click-to-load placeholder; the encyclopedia: a link), never as `<img>`.
 * The HTML it makes is still to be sanitised.
 */
export function createMarked(image: (href: string, text: string) => string): Marked {
  return new Marked({
    ...MARKDOWN_OPTIONS,
    renderer: {
      html: ({ text }: Tokens.HTML | Tokens.Tag) => escapeHtml(text),
      image: ({ href, text }: Tokens.Image) => image(href, text),
    },
  });
}
