import type { WebviewToHost } from '../../protocol/chatProtocol';
import { t } from '../shared/l10n';
import { h, iconButton } from './dom';
import { highlightInto } from './highlight';

/** Reads the language from marked's `language-xxx` class. */
function languageOf(code: HTMLElement): string | undefined {
  const match = /(?:^|\s)language-(\S+)/.exec(code.className);
  return match?.[1];
}

/**
 * Wraps every `<pre><code>` of a rendered fragment in a block with its actions: Copy code, Insert at cursor,
 * Replace selection (shown while the editor has one) and Open in new editor. `final` blocks are highlighted;
 * a block still streaming stays plain text (it is rendered again on the next frame).
 */
export function decorateCodeBlocks(
  root: DocumentFragment | HTMLElement,
  final: boolean,
  post: (message: WebviewToHost) => void,
): void {
  for (const pre of Array.from(root.querySelectorAll('pre'))) {
    const code = pre.querySelector('code');
    if (!code || pre.parentElement?.classList.contains('code-block')) {
      continue;
    }
    const language = languageOf(code);
    const text = code.textContent ?? '';
    if (final) {
      highlightInto(code, text, language);
    }
    // The renderer ends every block with a newline; the code itself does not have it.
    const source = (): string => (code.textContent ?? '').replace(/\n$/, '');
    const apply = (action: 'insert' | 'replace' | 'open') => () =>
      post({ type: 'code/apply', action, code: source(), language });
    const toolbar = h(
      'div',
      { class: 'code-toolbar', role: 'toolbar', 'aria-label': language ? t('Code ({0})', language) : t('Code') },
      h('span', { class: 'code-language' }, language ?? t('text')),
      h('span', { class: 'spacer' }),
      iconButton(t('Copy code'), 'copy', () => post({ type: 'clipboard/copy', text: source(), what: 'code' })),
      iconButton(t('Insert at cursor'), 'insert', apply('insert')),
      iconButton(t('Replace selection'), 'replace', apply('replace'), { class: 'icon-button needs-selection' }),
      iconButton(t('Open in new editor'), 'new-file', apply('open')),
    );
    const block = h('div', { class: 'code-block' });
    pre.replaceWith(block);
    block.append(toolbar, pre);
  }
}
