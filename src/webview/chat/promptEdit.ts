import * as l10n from '@vscode/l10n';
import type { MessageView, WebviewToHost } from '../../protocol/chatProtocol';
import { h, icon } from '../shared/dom';

/** Edits a prompt in place: Enter (or "Send") sends it again, Escape (or "Cancel") restores it. */
export function editPrompt(message: MessageView, article: HTMLElement, post: (message: WebviewToHost) => void): void {
  const body = article.querySelector<HTMLElement>('.content');
  if (!body || article.querySelector('.edit-box')) {
    return;
  }
  const input = h('textarea', { class: 'input edit-box', 'aria-label': l10n.t('Edit message'), rows: 3 });
  input.value = message.content;
  const cancel = () => {
    box.replaceWith(body);
    article.focus();
  };
  const send = () => post({ type: 'chat/edit', messageId: message.id, text: input.value });
  const box = h(
    'div',
    { class: 'edit' },
    input,
    h(
      'div',
      { class: 'actions' },
      h('button', { type: 'button', class: 'text-button', onClick: send }, icon('send'), h('span', {}, l10n.t('Send'))),
      h('button', { type: 'button', class: 'text-button secondary', onClick: cancel }, h('span', {}, l10n.t('Cancel'))),
    ),
  );
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      send();
    } else if (e.key === 'Escape') {
      e.stopPropagation();
      cancel();
    }
  });
  body.replaceWith(box);
  input.focus();
}
