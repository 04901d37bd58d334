import * as l10n from '@vscode/l10n';
import type { MessageView, WebviewToHost } from '../../../protocol/chatProtocol';
import { editBox } from './editBox';

/** Edits a prompt in place: Enter (or "Send") sends it again, Escape (or "Cancel") restores it. */
export function editPrompt(message: MessageView, article: HTMLElement, post: (message: WebviewToHost) => void): void {
  const body = article.querySelector<HTMLElement>('.content');
  if (!body || article.querySelector('.edit-box')) {
    return;
  }
  const cancel = () => {
    box.replaceWith(body);
    article.focus();
  };
  const { box, input } = editBox({
    label: l10n.t('Edit message'),
    value: message.content,
    submit: {
      label: l10n.t('Send'),
      icon: 'send',
      run: (text) => post({ type: 'chat/edit', messageId: message.id, text }),
    },
    cancel,
  });
  body.replaceWith(box);
  input.focus();
}
