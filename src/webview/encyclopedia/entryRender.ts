import type { CitationView, EntryView, FactView, WebviewToHost } from '../../protocol/encyclopediaProtocol';
import { makeHostLink } from '../shared/hostLinks';
import * as l10n from '@vscode/l10n';
import { h, icon, textButton } from '../shared/dom';
import { isWebUrl } from '../../shared/links';
import { renderMarkdown } from './markdown';

/** Sends a message to the host. */
export type Post = (message: WebviewToHost) => void;

/** A link opened by the host, or plain text when the URL is not http(s). */
export function externalLink(text: string, url: string | undefined): HTMLElement {
  return isWebUrl(url) ? makeHostLink(h('a', {}, text), url) : h('span', { class: 'inert-link' }, text);
}

function citations(list: CitationView[]): HTMLElement | undefined {
  if (!list.length) {
    return undefined;
  }
  return h(
    'section',
    { 'aria-labelledby': 'sources-heading' },
    h('h2', { id: 'sources-heading' }, l10n.t('Sources')),
    h('ol', { class: 'citations' }, ...list.map((c) => h('li', {}, externalLink(c.title, c.url)))),
  );
}

function factsTable(facts: FactView[], post: Post): HTMLElement {
  const rows = facts.map((f, index) =>
    h(
      'tr',
      {},
      h('th', { scope: 'row' }, f.name),
      h('td', {}, f.value),
      h(
        'td',
        { class: 'row-action' },
        h(
          'button',
          {
            type: 'button',
            class: 'icon-button',
            'aria-label': l10n.t('Insert fact: {0}', f.name),
            title: l10n.t('Insert “{0}” at the cursor', f.value),
            onClick: () => post({ type: 'fact/insert', index }),
          },
          icon('insert'),
        ),
      ),
    ),
  );
  return h(
    'table',
    { class: 'facts' },
    h('caption', {}, l10n.t('Facts')),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', { scope: 'col' }, l10n.t('Fact')),
        h('th', { scope: 'col' }, l10n.t('Value')),
        h('td', { class: 'row-action' }),
      ),
    ),
    h('tbody', {}, ...rows),
  );
}

/** The name shown for a media URL: its file name. */
function mediaName(url: string): string {
  try {
    return decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '') || url;
  } catch {
    return url;
  }
}

function mediaList(media: string[], post: Post): HTMLElement | undefined {
  if (!media.length) {
    return undefined;
  }
  const items = media.map((url) => {
    const name = mediaName(url);
    const show = textButton(l10n.t('Show image'), 'eye', () => {
      show.disabled = true;
      show.querySelector('span:last-child')!.textContent = l10n.t('Loading…');
      post({ type: 'media/load', url });
    });
    show.setAttribute('aria-label', l10n.t('Show image {0}', name));
    show.dataset.mediaUrl = url;
    return h('li', { class: 'media-item' }, externalLink(name, url), isWebUrl(url) ? show : undefined);
  });
  return h(
    'section',
    { 'aria-labelledby': 'media-heading' },
    h('h2', { id: 'media-heading' }, l10n.t('Media')),
    h('p', { class: 'hint' }, l10n.t('Images load only when you ask for them.')),
    h('ul', { class: 'media' }, ...items),
  );
}

function body(text: string, unrecognised?: boolean): HTMLElement {
  const div = h('div', { class: 'content' });
  if (unrecognised) {
    div.append(
      h(
        'p',
        { class: 'hint' },
        l10n.t('The service answered in a form this extension does not know; here it is as it came:'),
      ),
    );
  }
  div.append(renderMarkdown(text));
  return div;
}

/** The page of an entry: an article with its facts table, an answer with its sources, or search hits. */
export function renderEntry(entry: EntryView, post: Post): HTMLElement {
  if (entry.kind === 'article') {
    const summary = entry.summary?.trim() && entry.summary.trim() !== entry.content.trim() ? entry.summary : undefined;
    return h(
      'article',
      { 'aria-labelledby': 'entry-title' },
      h('h1', { id: 'entry-title' }, entry.title),
      summary ? h('p', { class: 'summary' }, summary) : undefined,
      entry.facts.length ? factsTable(entry.facts, post) : undefined,
      entry.content.trim() ? body(entry.content, entry.unrecognised) : undefined,
      mediaList(entry.media, post),
      citations(entry.citations),
      isWebUrl(entry.url)
        ? h(
            'p',
            { class: 'source-link' },
            icon('link-external'),
            ' ',
            externalLink(l10n.t('Read the article on the web'), entry.url),
          )
        : undefined,
    );
  }
  if (entry.kind === 'answer') {
    return h(
      'article',
      { 'aria-labelledby': 'entry-title' },
      h('h1', { id: 'entry-title' }, entry.query),
      h('p', { class: 'meta' }, l10n.t('Answer from {0}', entry.modelLabel)),
      body(entry.text, entry.unrecognised),
      citations(entry.citations),
    );
  }
  const results = entry.results.map((r) =>
    h(
      'li',
      {},
      h(
        'button',
        { type: 'button', class: 'link-button', onClick: () => post({ type: 'article/open', title: r.title }) },
        r.title,
      ),
      r.snippet ? h('p', { class: 'snippet' }, r.snippet) : undefined,
    ),
  );
  return h(
    'section',
    { 'aria-labelledby': 'entry-title' },
    h('h1', { id: 'entry-title' }, l10n.t('Results for “{0}”', entry.query)),
    h('ul', { class: 'results' }, ...results),
  );
}
