// Free of `vscode`, so unit tests can run it.

/**
 * The current language's translations for the page's `l10n.t()` (`@vscode/l10n`, fed by src/webview/shared/l10n.ts):
 * a JSON data block, which
 * the browser does not run (the CSP's script nonce does not apply to it). Nothing under English, where VS Code
 * has no bundle and the page keeps its English literals. `<` is escaped so no text can close the element.
 */
export function translationsBlock(bundle: Record<string, string> | undefined): string {
  if (!bundle || Object.keys(bundle).length === 0) {
    return '';
  }
  const json = JSON.stringify(bundle).replace(/</g, '\\u003c');
  return `\n<script type="application/json" id="l10n">${json}</script>`;
}
