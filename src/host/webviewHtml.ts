import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { loaderScript } from './webviewLoader';
import { translationsBlock } from './webviewTranslations';

/** What a webview page loads. */
export interface WebviewPage {
  /** Bundle name under dist/webview (without extension), e.g. `chat`. */
  bundle: string;
  title: string;
  /** Whether the bundle has a CSS file next to it (esbuild writes one when the entry imports CSS). */
  hasCss?: boolean;
  /** Where the page is shown (`view` in a side view, `editor` in an editor tab), as `<body data-surface>`. */
  surface?: 'view' | 'editor';
}

/** The folders a webview may load from: the bundles and the static media, nothing else. */
export function webviewRoots(extensionUri: vscode.Uri): vscode.Uri[] {
  return [vscode.Uri.joinPath(extensionUri, 'dist', 'webview'), vscode.Uri.joinPath(extensionUri, 'media')];
}

/** Options every webview of the extension uses (scripts on, roots limited). */
export function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return { enableScripts: true, enableCommandUris: false, localResourceRoots: webviewRoots(extensionUri) };
}

/**
 * The page of a webview: CSP `default-src 'none'`, scripts only from dist/ with a per-load nonce, styles and
 * fonts from dist/ or media/, images only from the webview's own resources (remote images need the user's
 * click, which the page turns into a data: or https: load it asks the host for). Its first script loads again a file
 * of the page that failed to load (webviewLoader.ts).
 */
export function webviewHtml(webview: vscode.Webview, extensionUri: vscode.Uri, page: WebviewPage): string {
  const nonce = randomBytes(16).toString('base64');
  const asset = (...path: string[]) => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, ...path)).toString();
  const csp = [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${webview.cspSource}`,
    `font-src ${webview.cspSource}`,
    `img-src ${webview.cspSource} data:`,
  ].join('; ');
  const css = page.hasCss ? `<link rel="stylesheet" href="${asset('dist', 'webview', `${page.bundle}.css`)}">` : '';
  const translations = translationsBlock(vscode.l10n.bundle);
  const loader = loaderScript({
    failed: vscode.l10n.t(
      'This view could not load its files (VS Code did not deliver them in time). Try again, or reload the window.',
    ),
    tryAgain: vscode.l10n.t('Try again'),
  });
  return `<!DOCTYPE html>
<html lang="${escapeAttr(vscode.env.language || 'en')}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<script nonce="${nonce}">${loader}</script>
<link rel="stylesheet" href="${asset('dist', 'webview', 'codicon.css')}">
${css}
<title>${escapeAttr(page.title)}</title>${translations}
</head>
<body${page.surface ? ` data-surface="${page.surface}"` : ''}>
<div id="root"></div>
<script nonce="${nonce}" src="${asset('dist', 'webview', `${page.bundle}.js`)}"></script>
</body>
</html>`;
}

function escapeAttr(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
