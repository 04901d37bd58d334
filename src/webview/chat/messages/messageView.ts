import { showUsage } from './usage';
import type { ChatErrorAction, ContextChipView, MessageView, WebviewToHost } from '../../../protocol/chatProtocol';
import * as l10n from '@vscode/l10n';
import { clockTime, h, icon, iconButton } from '../../shared/dom';
import { errorNotice } from './errorNotice';
import type { Decorate } from '../render';
import { ReplyBody, type ReplyBodyContext } from './replyBody';
import './messageView.css';

/** What a message element needs from the page. */
export interface MessageContext {
  post(message: WebviewToHost): void;
  decorate: Decorate;
  onRendered(): void;
  /** Starts editing a prompt in place. */
  edit(message: MessageView, article: HTMLElement): void;
  /** Shows the sibling before (−1) or after (1) a message: another version of the prompt or reply. */
  switchBranch(message: MessageView, step: -1 | 1): void;
}

/** The parts of a drawn message the page updates later. */
export interface MessageElement {
  article: HTMLElement;
  body: HTMLElement;
  footer: HTMLElement;
  /** A reply's text and steps (absent for a prompt). */
  renderer?: ReplyBody;
}

/** A context chip as shown in a prompt (no remove button). */
export function chip(view: ContextChipView, remove?: () => void): HTMLElement {
  return h(
    'span',
    { class: 'chip', title: view.detail },
    icon('file-code'),
    h('span', { class: 'chip-label' }, view.label),
    view.tokens !== undefined
      ? h('span', { class: 'chip-tokens' }, l10n.t('≈{0} tokens', view.tokens.toLocaleString()))
      : undefined,
    remove
      ? iconButton(l10n.t('Remove {0}', view.label), 'close', remove, { class: 'icon-button chip-remove' })
      : undefined,
  );
}

/**
 * A message as an `article` named "You" or "ALPHA" (times and models are in its header, not in its name).
 * Prompts are plain text; replies are Markdown with their steps between (ReplyBody), drawn whole or streamed.
 */
export function messageElement(message: MessageView, ctx: MessageContext, streaming: boolean): MessageElement {
  const isUser = message.role === 'user';
  const author = isUser ? l10n.t('You') : 'ALPHA';
  const toolbar = h('div', {
    class: 'message-actions',
    role: 'toolbar',
    'aria-label': l10n.t('{0} message actions', author),
  });
  const body = h('div', { class: isUser ? 'content plain' : 'content markdown' });
  const footer = h('div', { class: 'message-footer' });
  const article = h(
    'article',
    { class: `message ${message.role}`, 'aria-label': author, tabindex: '-1', 'data-id': message.id },
    h(
      'header',
      { class: 'message-header' },
      h('span', { class: `avatar codicon codicon-${isUser ? 'account' : 'sparkle'}`, 'aria-hidden': 'true' }),
      h('span', { class: 'author' }, author),
      !isUser && message.model ? h('span', { class: 'model' }, message.model.toUpperCase()) : undefined,
      h('time', { datetime: new Date(message.createdAt).toISOString() }, clockTime(message.createdAt)),
      message.branch ? branchSwitch(message, ctx) : undefined,
      toolbar,
    ),
    message.context?.length ? h('div', { class: 'chips' }, ...message.context.map((c) => chip(c))) : undefined,
    message.notice && message.status !== 'interrupted'
      ? h('div', { class: 'notice info', role: 'note' }, icon('info'), h('span', {}, message.notice))
      : undefined,
    body,
    footer,
  );
  const element: MessageElement = { article, body, footer };
  toolbar.append(
    iconButton(l10n.t('Copy message'), 'copy', () =>
      ctx.post({ type: 'clipboard/copy', text: element.renderer?.source ?? message.content, what: 'message' }),
    ),
  );
  if (isUser) {
    body.textContent = message.content;
    toolbar.append(iconButton(l10n.t('Edit and resend'), 'edit', () => ctx.edit(message, article)));
  } else {
    element.renderer = new ReplyBody(body, message, replyContext(message, ctx), streaming);
    if (streaming) {
      footer.replaceChildren(
        h('span', { class: 'writing' }, icon('loading', true), h('span', {}, l10n.t('ALPHA is writing…'))),
      );
    }
  }
  if (!isUser && !streaming && message.sources?.length) {
    article.insertBefore(sourcesList(message, ctx), footer);
  }
  if (!isUser && !streaming) {
    toolbar.append(regenerateButton(message.id, ctx.post));
  }
  if (!streaming) {
    showOutcome(element, message, (action) => ctx.post({ type: 'chat/action', action }));
    showUsage(article, message.usage, message.speed, message.requests);
  }
  return element;
}

/**
 * What a reply's body needs: its source markers linked (a finished reply's), its steps' source links and Review.
 * `message` is the page's view of the reply: sources that arrive with a step are read from it when drawn.
 */
function replyContext(message: MessageView, ctx: MessageContext): ReplyBodyContext {
  const count = message.sources?.length ?? 0;
  return {
    decorate: ctx.decorate,
    onRendered: ctx.onRendered,
    linkMarkers: count ? (piece) => linkMarkers(piece, count, (n) => openSource(ctx, message, n)) : undefined,
    review: (stepId) => ctx.post({ type: 'step/review', messageId: message.id, stepId }),
    sourceLink: (n) => {
      const source = Number.isInteger(n) && n >= 1 ? message.sources?.[n - 1] : undefined;
      if (!source) {
        return undefined;
      }
      const link = sourceLink(`[${n}]`, 'citation', source.title, () => openSource(ctx, message, n));
      link.setAttribute('aria-label', l10n.t('Source {0}', n));
      return link;
    },
  };
}

/** A reply's Regenerate: it is written again, and the old one stays as a branch. Hidden while a reply streams. */
export function regenerateButton(messageId: string, post: (message: WebviewToHost) => void): HTMLElement {
  return iconButton(l10n.t('Regenerate'), 'refresh', () => post({ type: 'chat/regenerate', messageId }), {
    class: 'icon-button regenerate',
  });
}

/**
 * "‹ 2 / 3 ›": which version of an edited prompt or a regenerated reply is shown, with buttons to the others. A group
 * named by what it holds ("Version 2 of 3"); the article's own name stays "You" or "ALPHA".
 */
function branchSwitch(message: MessageView, ctx: MessageContext): HTMLElement | undefined {
  const branch = message.branch;
  if (!branch) {
    return undefined;
  }
  const { index, count } = branch;
  const step = (delta: -1 | 1, label: string, iconName: string, className: string, disabled: boolean) =>
    iconButton(label, iconName, () => ctx.switchBranch(message, delta), {
      class: `icon-button ${className}`,
      ...(disabled ? { disabled: true } : {}),
    });
  return h(
    'div',
    { class: 'branch-switch', role: 'group', 'aria-label': l10n.t('Version {0} of {1}', index, count) },
    step(-1, l10n.t('Previous version'), 'chevron-left', 'branch-previous', index <= 1),
    h('span', { class: 'branch-index', 'aria-hidden': 'true' }, `${index} / ${count}`),
    step(1, l10n.t('Next version'), 'chevron-right', 'branch-next', index >= count),
  );
}

/** Shows how a reply ended: "Stopped", interrupted by a reload, or its error with the fitting action. */
export function showOutcome(
  element: MessageElement,
  message: Pick<MessageView, 'status' | 'error' | 'notice' | 'role'>,
  run: (action: ChatErrorAction) => void,
): void {
  const parts: HTMLElement[] = [];
  if (message.status === 'interrupted') {
    const text = message.notice ?? l10n.t('Interrupted before the reply was complete.');
    parts.push(h('div', { class: 'notice interrupted', role: 'note' }, icon('warning'), h('span', {}, text)));
  }
  if (message.status === 'stopped') {
    parts.push(h('div', { class: 'notice stopped' }, icon('debug-stop'), h('span', {}, l10n.t('Stopped.'))));
  }
  if (message.status === 'error' && message.error) {
    parts.push(errorNotice(message.error, run));
  }
  element.footer.replaceChildren(...parts);
}

/** Asks the host to open source `n` (1-based) of a reply. */
function openSource(ctx: MessageContext, message: MessageView, n: number): void {
  ctx.post({ type: 'source/open', messageId: message.id, index: n - 1 });
}

/** Shows (or replaces) a reply's "Sources" list, before its footer (sources a step added while it streams). */
export function showSources(element: MessageElement, message: MessageView, ctx: MessageContext): void {
  element.article.querySelector(':scope > .sources')?.remove();
  if (message.sources?.length) {
    element.article.insertBefore(sourcesList(message, ctx), element.footer);
  }
}

/** The "Sources" list of a grounded reply, numbered as its `[1]` markers; each opens through the host. */
function sourcesList(message: MessageView, ctx: MessageContext): HTMLElement {
  const items = (message.sources ?? []).map((source, i) =>
    h(
      'li',
      { class: `source kind-${source.kind}` },
      source.kind === 'none'
        ? h('span', { class: 'source-title' }, source.title)
        : sourceLink(
            source.title,
            'source-title',
            source.kind === 'web' ? source.url : l10n.t('Open in the Encyclopedia view'),
            () => openSource(ctx, message, i + 1),
          ),
      source.kind === 'web' && source.url ? h('span', { class: 'source-url' }, hostOf(source.url)) : undefined,
    ),
  );
  const heading = h('h3', { class: 'sources-heading' }, l10n.t('Sources'));
  return h('section', { class: 'sources', 'aria-label': l10n.t('Sources') }, heading, h('ol', {}, ...items));
}

/**
 * A link the page handles itself: no `href` (VS Code's frame would open it too, see hostLinks.ts), focusable,
 * opened by a click or Enter.
 */
function sourceLink(text: string, className: string, title: string | undefined, open: () => void): HTMLElement {
  const activate = (e: Event) => {
    if (e instanceof KeyboardEvent && (e.key !== 'Enter' || e.isComposing)) {
      return;
    }
    e.preventDefault();
    open();
  };
  return h('a', { class: className, role: 'link', tabindex: 0, title, onClick: activate, onKeydown: activate }, text);
}

/** Text-node parents whose `[1]` is code or already a link, not a citation marker. */
const NOT_MARKERS = 'code, pre, a, kbd, samp';

/**
 * Turns plain `[n]` markers (1 ≤ n ≤ `count`) in rendered text into links to source n. Only text nodes are
 * changed, never inside code or links, so nothing the reply says can become markup here.
 */
export function linkMarkers(root: Node, count: number, open: (n: number) => void): void {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const nodes: Text[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (/\[\d{1,3}\]/.test(node.nodeValue ?? '') && !node.parentElement?.closest(NOT_MARKERS)) {
      nodes.push(node as Text);
    }
  }
  for (const node of nodes) {
    const text = node.nodeValue ?? '';
    const parts: (string | HTMLElement)[] = [];
    let last = 0;
    for (const match of text.matchAll(/\[(\d{1,3})\]/g)) {
      const n = Number(match[1]);
      if (n < 1 || n > count) {
        continue;
      }
      parts.push(text.slice(last, match.index));
      const link = sourceLink(`[${n}]`, 'citation', undefined, () => open(n));
      link.setAttribute('aria-label', l10n.t('Source {0}', n));
      parts.push(link);
      last = match.index + match[0].length;
    }
    if (parts.length) {
      parts.push(text.slice(last));
      node.replaceWith(...parts);
    }
  }
}

/** The host part of a URL, shown after a web source's title; the whole text when it does not parse. */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** Shows (or replaces) the info notice of a reply that is being written. */
export function showNotice(element: MessageElement, notice: string): void {
  element.article.querySelector(':scope > .notice.info')?.remove();
  element.article.insertBefore(
    h('div', { class: 'notice info', role: 'note' }, icon('info'), h('span', {}, notice)),
    element.body,
  );
}
