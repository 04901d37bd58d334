import type { WebviewToHost } from '../../../protocol/chatProtocol';
import * as l10n from '@vscode/l10n';
import { h, icon } from '../../shared/dom';
import { highlightInto } from './highlight';
import './codeBlocks.css';

/** What a code block's buttons do; the page handles their clicks in one listener (`codeAction`). */
type CodeAction = 'copy' | 'insert' | 'replace' | 'open';

/** Reads the language from marked's `language-xxx` class. */
function languageOf(code: HTMLElement): string | undefined {
  const match = /(?:^|\s)language-(\S+)/.exec(code.className);
  return match?.[1];
}

/** A button of a code block's toolbar; its click is read by `codeAction`, so a block holds no listener of its own. */
function actionButton(label: string, iconName: string, action: CodeAction, className = 'icon-button'): HTMLElement {
  return h(
    'button',
    { type: 'button', class: className, 'aria-label': label, title: label, 'data-code-action': action },
    icon(iconName),
  );
}

/**
 * How far a rendered piece is decorated: `plain` (finished, not shown yet: each code block is wrapped and keeps the
 * room its toolbar will take, so decorating it later moves nothing on the page), `live` (still being written:
 * actions, no highlighting) or `final` (highlighted, with actions).
 */
export type DecorateStage = 'plain' | 'live' | 'final';

/**
 * Wraps every `<pre><code>` of a rendered piece in a code block and, unless `plain`, gives it its actions: Copy code,
 * Insert at cursor, Replace selection (shown while the editor has one) and Open in new editor; `final` blocks are
 * highlighted. The buttons carry their action as data (see `codeAction`): a reply of megabytes has tens of thousands
 * of them, and listeners of their own would each keep a closure alive for the garbage collector to trace.
 */
export function decorateCodeBlocks(root: DocumentFragment | HTMLElement, stage: DecorateStage): void {
  for (const pre of Array.from(root.querySelectorAll('pre'))) {
    if (!pre.parentElement?.classList.contains('code-block')) {
      // Only while the piece is not on the page yet (or the first time it is decorated): the block stays in place after.
      const block = h('div', { class: 'code-block bare' });
      pre.replaceWith(block);
      block.append(pre);
    }
    // A long line scrolls sideways: the block takes the focus so the arrow keys can scroll it.
    pre.tabIndex = 0;
  }
  if (stage === 'plain') {
    return;
  }
  for (const block of Array.from(root.querySelectorAll('.code-block.bare'))) {
    const code = block.querySelector<HTMLElement>(':scope > pre > code');
    if (!code) {
      continue;
    }
    const language = languageOf(code);
    if (stage === 'final') {
      highlightInto(code, code.textContent ?? '', language);
    }
    const toolbar = h(
      'div',
      {
        class: 'code-toolbar',
        role: 'toolbar',
        'aria-label': language ? l10n.t('Code ({0})', language) : l10n.t('Code'),
      },
      h('span', { class: 'code-language' }, language ?? l10n.t('text')),
      h('span', { class: 'spacer' }),
      actionButton(l10n.t('Copy code'), 'copy', 'copy'),
      actionButton(l10n.t('Insert at cursor'), 'insert', 'insert'),
      actionButton(l10n.t('Replace selection'), 'replace', 'replace', 'icon-button needs-selection'),
      actionButton(l10n.t('Open in new editor'), 'new-file', 'open'),
    );
    block.classList.remove('bare');
    block.prepend(toolbar);
  }
}

/** The message a click on a code block's button sends to the host, or undefined when the click was elsewhere. */
export function codeAction(target: Element): WebviewToHost | undefined {
  const button = target.closest<HTMLElement>('button[data-code-action]');
  const code = button?.closest('.code-block')?.querySelector<HTMLElement>('pre > code');
  if (!button || !code) {
    return undefined;
  }
  // The renderer ends every block with a newline; the code itself does not have it.
  const source = (code.textContent ?? '').replace(/\n$/, '');
  const language = languageOf(code);
  const action = button.dataset.codeAction as CodeAction;
  return action === 'copy'
    ? { type: 'clipboard/copy', text: source, what: 'code' }
    : { type: 'code/apply', action, code: source, language };
}
