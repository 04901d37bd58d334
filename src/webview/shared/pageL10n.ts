import { useTranslations } from './l10n';

/**
 * Reads the translations the host wrote into the page (`<script type="application/json" id="l10n">`, absent under
 * English) and the language of `<html lang>`. Runs when imported, so import it before anything calls `t`.
 */
function readPage(): void {
  let bundle: unknown;
  const text = document.getElementById('l10n')?.textContent;
  if (text) {
    try {
      bundle = JSON.parse(text);
    } catch {
      bundle = undefined; // English, then.
    }
  }
  useTranslations(bundle, document.documentElement.lang || undefined);
}

readPage();
