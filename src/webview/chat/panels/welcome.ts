import * as l10n from '@vscode/l10n';
import { h } from '../../shared/dom';
import './welcome.css';

/** What an empty conversation shows: what the chat does and its keys. */
export function welcome(): HTMLElement {
  return h(
    'section',
    { class: 'welcome', 'aria-label': l10n.t('Welcome') },
    h('span', { class: 'codicon codicon-sparkle welcome-icon', 'aria-hidden': 'true' }),
    h('h2', {}, l10n.t('Chat with ALPHA')),
    h(
      'p',
      {},
      l10n.t(
        'Ask about code, ideas or facts. Select code in an editor and choose “Add Selection to Chat” to send it along.',
      ),
    ),
    h(
      'ul',
      {},
      h('li', {}, l10n.t('Enter sends, Shift+Enter starts a new line, Esc stops a reply.')),
      h('li', {}, l10n.t('Ctrl+Up and Ctrl+Down move between messages; Alt+F2 opens a reply as text.')),
      h('li', {}, l10n.t('Every code block can be copied, inserted at the cursor or opened in a new editor.')),
      h('li', {}, l10n.t('Conversations are kept: open them from the history button.')),
    ),
  );
}
