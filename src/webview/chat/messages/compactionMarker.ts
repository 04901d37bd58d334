import * as l10n from '@vscode/l10n';
import type { CompactionView, WebviewToHost } from '../../../protocol/chatProtocol';
import { h, icon } from '../../shared/dom';
import './compactionMarker.css';

/**
 * The marker of a compaction: after the last message it summarised (at the top of the log while that message is
 * not drawn yet, as every older message is above the first one drawn), it says that requests send a summary
 * instead of the messages above, shows the summary on demand, and offers Undo. Drawn again with the state.
 */
export function placeCompactionMarker(
  log: HTMLElement,
  view: CompactionView | undefined,
  post: (message: WebviewToHost) => void,
): void {
  log.querySelector(':scope > .compaction-marker')?.remove();
  if (!view) {
    return;
  }
  const marker = h(
    'div',
    { class: 'compaction-marker', role: 'note', 'aria-label': l10n.t('Compacted') },
    h(
      'div',
      { class: 'compaction-line' },
      icon('fold'),
      h(
        'span',
        {},
        l10n.t('The {0} messages above are sent as a summary from here on; they stay here.', view.messages),
      ),
      h(
        'button',
        { type: 'button', class: 'compaction-undo', onClick: () => post({ type: 'chat/uncompact', id: view.id }) },
        l10n.t('Undo'),
      ),
    ),
    h('details', {}, h('summary', {}, l10n.t('Summary')), h('div', { class: 'compaction-summary' }, view.summary)),
  );
  const after = [...log.querySelectorAll<HTMLElement>(':scope > article[data-id]')].find(
    (a) => a.dataset.id === view.throughId,
  );
  if (after) {
    after.after(marker);
  } else {
    log.prepend(marker);
  }
}
