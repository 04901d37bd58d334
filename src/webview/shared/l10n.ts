/**
 * The webviews' translations. The host writes the current language's bundle (`vscode.l10n.bundle`, absent under
 * English) into the page as a JSON data block; `pageL10n.ts` reads it into `useTranslations` before anything is
 * drawn. `t('English message', …args)` looks the message up and fills `{0}`, `{1}`, …; without a translation
 * the English message is used. Free of the DOM, so unit tests run it in Node. `scripts/l10nExport.mjs` collects
 * every literal passed to `t(…)` under src/webview into l10n/bundle.l10n.json.
 */

/** English message → translated message. */
export type Translations = Readonly<Record<string, string>>;

let translations: Translations = {};
let language: string | undefined;

/** Fills `{0}`, `{1}`, … with `args`; a placeholder without an argument stays as it is. */
export function format(template: string, args: readonly (string | number)[]): string {
  return template.replace(/\{(\d+)\}/g, (match, index: string) => {
    const arg = args[Number(index)];
    return arg === undefined ? match : String(arg);
  });
}

/** The message in the page's language (English when the bundle lacks it), its placeholders filled. */
export function t(message: string, ...args: (string | number)[]): string {
  const translated = Object.prototype.hasOwnProperty.call(translations, message) ? translations[message] : undefined;
  return format(typeof translated === 'string' && translated !== '' ? translated : message, args);
}

/**
 * Sets the translations and the language (VS Code's, e.g. `de` or `zh-cn`). Only string values are kept; a
 * language `Intl` rejects is dropped (dates then use the browser's locale).
 */
export function useTranslations(bundle: unknown, lang?: string): void {
  const kept: Record<string, string> = {};
  if (bundle && typeof bundle === 'object' && !Array.isArray(bundle)) {
    for (const [key, value] of Object.entries(bundle)) {
      if (typeof value === 'string') {
        kept[key] = value;
      }
    }
  }
  translations = kept;
  language = undefined;
  if (lang) {
    try {
      language = Intl.getCanonicalLocales(lang)[0];
    } catch {
      language = undefined;
    }
  }
}

/** The locale dates and relative times are written in: VS Code's language, or the browser's when unknown. */
export function locale(): string | undefined {
  return language;
}
