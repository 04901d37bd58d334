import type { ChatErrorAction, ChatErrorView } from '../../../protocol/chatProtocol';
import * as l10n from '@vscode/l10n';
import { h, icon, textButton } from '../../shared/dom';
import './errorNotice.css';

/**
 * An error inside the conversation: its sentence and its action. A key or settings problem also offers Retry.
 * After a 429 with Retry-After, Retry counts down and is enabled when the wait is over (the only timer of the
 * page, and it stops by itself).
 */
export function errorNotice(error: ChatErrorView, run: (action: ChatErrorAction) => void): HTMLElement {
  const buttons: HTMLButtonElement[] = [];
  if (error.action !== 'none' && error.actionLabel) {
    const iconName = error.action === 'setChatKey' ? 'key' : error.action === 'retry' ? 'refresh' : 'settings-gear';
    buttons.push(textButton(error.actionLabel, iconName, () => run(error.action)));
  }
  if (error.action === 'setChatKey' || error.action === 'openSettings') {
    buttons.push(textButton(l10n.t('Retry'), 'refresh', () => run('retry'), { class: 'text-button secondary' }));
  }
  const notice = h(
    'div',
    // Not an alert: the page's assertive live region says a new error once; one drawn from history stays silent.
    { class: `notice error kind-${error.kind}`, role: 'note' },
    icon(error.kind === 'cut' ? 'debug-disconnect' : 'error'),
    h('span', { class: 'notice-text' }, error.message),
    buttons.length ? h('div', { class: 'actions' }, ...buttons) : undefined,
  );
  const retry = error.action === 'retry' ? buttons[0] : undefined;
  if (retry && error.retryAfterSeconds) {
    countDown(retry, error.at + error.retryAfterSeconds * 1000);
  }
  return notice;
}

function countDown(button: HTMLButtonElement, until: number): void {
  const label = button.querySelector('span:last-child') as HTMLElement;
  const tick = (first: boolean): void => {
    const left = Math.ceil((until - Date.now()) / 1000);
    if (left <= 0) {
      button.disabled = false;
      label.textContent = l10n.t('Retry');
      return;
    }
    if (!first && !button.isConnected) {
      return; // The page was redrawn; the new notice counts for itself.
    }
    button.disabled = true;
    label.textContent = l10n.t('Retry in {0} s', left);
    setTimeout(() => tick(false), Math.min(1000, until - Date.now() - (left - 1) * 1000));
  };
  tick(true);
}
