// Free of `vscode`, so the page test can run it in Chromium.

/** Waits before each new try of a file that failed to load, in ms: three tries after the first, over 7 s. */
export const RETRY_DELAYS_MS = [1_000, 2_000, 4_000];

/** What the page says when its files could not be loaded, in the user's language (the host translates). */
export interface LoaderText {
  /** "This view could not load its files …" */
  failed: string;
  /** The button that tries once more. */
  tryAgain: string;
}

/**
 * The page's first script, inline with the page's nonce (`<script nonce>` around it): when one of the page's own
 * scripts or style sheets fails to load, it is loaded again, after 1, 2 and 4 s. VS Code serves a webview's files
 * through a service worker that answers 408 when the window has not delivered a file within 30 s (a slow remote
 * connection, a machine under heavy load): until this, the view then stayed blank until it was closed and opened.
 * When every try has failed, the page says so and offers "Try again" (three more tries).
 * A script loaded again gets the nonce of the one that failed, which the CSP requires.
 */
export function loaderScript(text: LoaderText): string {
  // `<` escaped: no text can close the script element.
  const json = JSON.stringify({ delays: RETRY_DELAYS_MS, ...text }).replace(/</g, '\\u003c');
  return `(() => {
  const config = ${json};
  const failed = [];
  let notice;
  const again = (element, tries) => {
    const copy = document.createElement(element.tagName === 'SCRIPT' ? 'script' : 'link');
    if (element.tagName === 'SCRIPT') {
      copy.nonce = element.nonce;
      copy.src = element.src;
    } else {
      copy.rel = 'stylesheet';
      copy.href = element.href;
    }
    copy.dataset.tries = String(tries);
    element.replaceWith(copy);
  };
  const showFailure = () => {
    if (notice) return;
    notice = document.createElement('div');
    notice.className = 'load-failed';
    notice.setAttribute('role', 'alert');
    const sentence = document.createElement('p');
    sentence.textContent = config.failed;
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = config.tryAgain;
    button.addEventListener('click', () => {
      notice.remove();
      notice = undefined;
      for (const element of failed.splice(0)) again(element, 0);
    });
    notice.append(sentence, button);
    document.body.prepend(notice);
  };
  addEventListener('error', (event) => {
    const element = event.target;
    const isScript = element instanceof HTMLScriptElement && element.src !== '';
    const isStyle = element instanceof HTMLLinkElement && element.rel === 'stylesheet';
    if (!isScript && !isStyle) return;
    const tries = Number(element.dataset.tries || 0);
    if (tries >= config.delays.length) {
      failed.push(element);
      showFailure();
      return;
    }
    setTimeout(() => again(element, tries + 1), config.delays[tries]);
  }, true);
})();`;
}
