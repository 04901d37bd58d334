import '../shared/pageL10n';
import type {
  ActionView,
  HostToWebview,
  NavView,
  SourceView,
  WebviewToHost,
} from '../../protocol/encyclopediaProtocol';
import { openHostLinksOnEnter } from '../shared/hostLinks';
import * as l10n from '@vscode/l10n';
import { locale } from '../shared/l10n';
import { applyTextSize } from '../shared/textSize';
import { h, icon, iconButton, relativeTime, textButton } from '../shared/dom';
import { renderEntry } from './entryRender';
import '../shared/base.css';
import './encyclopedia.css';

interface VsCodeApi {
  postMessage(message: WebviewToHost): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const post = (message: WebviewToHost) => vscode.postMessage(message);
const root = document.getElementById('root') as HTMLElement;
document.body.dataset.view = 'encyclopedia';

/** The toolbar: back, forward, refresh, and the actions on the shown entry. */
function toolbar(nav: NavView, entryActions: 'none' | 'entry' | 'article'): HTMLElement {
  const bar = h(
    'div',
    { role: 'toolbar', 'aria-label': l10n.t('Encyclopedia'), class: 'toolbar' },
    iconButton(l10n.t('Back'), 'arrow-left', () => post({ type: 'history/back' }), { disabled: !nav.canGoBack }),
    iconButton(l10n.t('Forward'), 'arrow-right', () => post({ type: 'history/forward' }), {
      disabled: !nav.canGoForward,
    }),
    nav.length
      ? h(
          'span',
          { class: 'position', 'aria-label': l10n.t('Lookup {0} of {1}', nav.index, nav.length) },
          `${nav.index}/${nav.length}`,
        )
      : undefined,
  );
  if (entryActions !== 'none') {
    bar.append(
      iconButton(l10n.t('Refresh'), 'refresh', () => post({ type: 'lookup/refresh' })),
      h('span', { class: 'spacer' }),
      textButton(l10n.t('Open as Markdown'), 'markdown', () => post({ type: 'entry/openMarkdown' })),
      entryActions === 'article'
        ? textButton(l10n.t('Insert fact'), 'insert', () => post({ type: 'fact/insert' }))
        : '',
      textButton(l10n.t('Ask ALPHA about this'), 'comment-discussion', () => post({ type: 'entry/askAlpha' })),
    );
  }
  return bar;
}

function sourceBadge(source: SourceView): HTMLElement | undefined {
  if (source.stale) {
    return h(
      'div',
      { class: 'notice stale', role: 'status' },
      icon('cloud-offline'),
      h('span', {}, l10n.t('Cached result from {0}. {1}', relativeTime(source.storedAt), source.notice ?? '')),
    );
  }
  if (source.cached) {
    const when = new Date(source.storedAt).toLocaleString(locale());
    return h(
      'div',
      { class: 'badge', title: l10n.t('Fetched {0}', when) },
      icon('database'),
      h('span', {}, l10n.t('Cached · {0}', relativeTime(source.storedAt))),
    );
  }
  return undefined;
}

function actionButtons(actions: ActionView[]): HTMLElement {
  return h(
    'div',
    { class: 'actions' },
    ...actions.map((a) =>
      textButton(a.label, a.action === 'retry' ? 'refresh' : 'arrow-right', () =>
        post({ type: 'lookup/action', action: a.action }),
      ),
    ),
  );
}

function welcome(): HTMLElement {
  return h(
    'section',
    { class: 'welcome', 'aria-labelledby': 'welcome-title' },
    h('h1', { id: 'welcome-title' }, l10n.t('AXO Encyclopedia')),
    h(
      'p',
      {},
      l10n.t(
        'Ask a factual question, search, or open an article. Select text in an editor and choose “Look Up in AXO” from its context menu. Terms you look up show their facts when you hover them in any editor.',
      ),
    ),
    h(
      'div',
      { class: 'actions' },
      textButton(l10n.t('Ask…'), 'question', () => post({ type: 'command/run', command: 'axo.ask' })),
      textButton(l10n.t('Search…'), 'search', () => post({ type: 'command/run', command: 'axo.search' })),
      textButton(l10n.t('Open Article…'), 'book', () => post({ type: 'command/run', command: 'axo.article' })),
    ),
  );
}

function replace(...children: (Node | undefined)[]): void {
  root.replaceChildren(...children.filter((c): c is Node => c !== undefined));
}

function render(message: HostToWebview): void {
  switch (message.type) {
    case 'view/welcome':
      replace(toolbar(message.nav, 'none'), welcome());
      break;
    case 'lookup/started':
      replace(
        h(
          'div',
          { class: 'loading', role: 'status', 'aria-live': 'polite' },
          icon('loading', true),
          h('span', {}, `${message.label}…`),
          textButton(l10n.t('Cancel'), 'close', () => post({ type: 'lookup/cancel', requestId: message.requestId })),
        ),
      );
      break;
    case 'lookup/show':
      replace(
        toolbar(message.nav, message.entry.kind === 'article' && message.entry.facts.length ? 'article' : 'entry'),
        sourceBadge(message.source),
        h('main', {}, renderEntry(message.entry, post)),
      );
      break;
    case 'lookup/empty':
      replace(
        toolbar(message.nav, 'none'),
        h('div', { class: 'notice empty', role: 'status' }, icon('info'), h('span', {}, message.message)),
        actionButtons(message.actions),
      );
      break;
    case 'lookup/error':
      replace(
        toolbar(message.nav, 'none'),
        h('div', { class: 'notice error', role: 'alert' }, icon('error'), h('span', {}, message.message)),
        actionButtons(message.actions),
      );
      break;
    case 'media/loaded':
    case 'media/failed':
      showMedia(message);
      break;
    case 'ui/textSize':
      applyTextSize(document.documentElement, message.fontSize);
      break;
    default: {
      // Every HostToWebview type has a case: a type added to the protocol without one fails to compile here.
      const unhandled: never = message;
      return unhandled;
    }
  }
}

function showMedia(message: Extract<HostToWebview, { type: 'media/loaded' | 'media/failed' }>): void {
  for (const button of Array.from(root.querySelectorAll<HTMLButtonElement>('button[data-media-url]'))) {
    if (button.dataset.mediaUrl !== message.url) {
      continue;
    }
    const item = button.closest('li');
    if (message.type === 'media/loaded') {
      const name = item?.querySelector('a, .inert-link')?.textContent ?? l10n.t('Image');
      button.replaceWith(h('img', { src: message.dataUri, alt: name, class: 'media-image' }));
    } else {
      button.replaceWith(h('span', { class: 'hint', role: 'status' }, message.message));
    }
  }
}

// Links never navigate the webview: http(s) links go to the host, which opens them outside; others are inert.
// They have no href, so VS Code's frame does not open them a second time (see hostLinks.ts).
document.addEventListener('click', (event) => {
  const anchor = (event.target as Element | null)?.closest?.('a');
  if (!anchor) {
    return;
  }
  event.preventDefault();
  const url = anchor.dataset.url;
  if (url) {
    post({ type: 'link/open', url });
  }
});
openHostLinksOnEnter(document, (url) => post({ type: 'link/open', url }));

window.addEventListener('message', (event: MessageEvent<HostToWebview>) => {
  const message = event.data;
  if (message && typeof message === 'object' && typeof message.type === 'string') {
    render(message);
  }
});

post({ type: 'webview/ready' });
