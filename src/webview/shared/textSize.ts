/**
 * `alphaAxo.chat.fontSize` in a page: a size in pixels sets `--alpha-font-size`, which the page's CSS prefers to
 * VS Code's `--vscode-font-size`; 0 removes it, so the page follows VS Code again. Code keeps the editor's size.
 */
export function applyTextSize(root: HTMLElement, fontSize: number): void {
  if (Number.isFinite(fontSize) && fontSize > 0) {
    root.style.setProperty('--alpha-font-size', `${fontSize}px`);
  } else {
    root.style.removeProperty('--alpha-font-size');
  }
}
