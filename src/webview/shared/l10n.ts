import * as l10n from '@vscode/l10n';

/**
 * The webviews' translations, through `@vscode/l10n` (its browser build): the pages call `l10n.t('English message',
 * …args)` as the host and the core do, and `npm run l10n` (`@vscode/l10n-dev`) collects every call into
 * l10n/bundle.l10n.json. The host writes the current language's bundle (`vscode.l10n.bundle`, absent under
 * English) into the page as a JSON data block; `pageL10n.ts` reads it into `useTranslations` before anything is
 * drawn. What stays here is what the library does not do: keeping only string values of that block (an empty one
 * falls back to English) and the language that dates and relative times are written in.
 */

let language: string | undefined;

/**
 * Sets the translations and the language (VS Code's, e.g. `de` or `zh-cn`). Only non-empty string values are kept;
 * a language `Intl` rejects is dropped (dates then use the browser's locale).
 */
export function useTranslations(bundle: unknown, lang?: string): void {
  const kept: Record<string, string> = {};
  if (bundle && typeof bundle === 'object' && !Array.isArray(bundle)) {
    for (const [key, value] of Object.entries(bundle)) {
      if (typeof value === 'string' && value !== '') {
        kept[key] = value;
      }
    }
  }
  l10n.config({ contents: kept });
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
