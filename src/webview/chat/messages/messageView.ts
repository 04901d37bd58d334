import { showUsage } from './usage';
import type { ChatErrorAction, ContextChipView, MessageView, WebviewToHost } from '../../../protocol/chatProtocol';
import * as l10n from '@vscode/l10n';
import { clockTime, h, icon, iconButton } from '../../shared/dom';
import { errorNotice } from './errorNotice';
import { renderMarkdownInto, StreamRenderer, type Decorate } from '../render';
import './messageView.css';

/** Replies longer than this are drawn over several frames rather than in one go. */
const LONG_REPLY_CHARS = 65_536;
/**
 * Replies with more formula delimiters than this (`$`, `\(`, `\[`: about half as many formulas) are drawn over
 * several frames too: a formula costs about a millisecond and a half to render and lay out, so 200 of them drawn at
 * once were a task of 264 ms (mathRender.bench).
 */
const MANY_FORMULA_DELIMITERS = 80;

/** Whether `text` holds more than MANY_FORMULA_DELIMITERS formula delimiters (counted up to there). */
function manyFormulas(text: string): boolean {
  let count = 0;
  for (let i = text.indexOf('$'), j = text.indexOf('\\'); i >= 0 || j >= 0;) {
    if (j < 0 || (i >= 0 && i < j)) {
      count++;
      i = text.indexOf('$', i + 1);
    } else {
      const next = text[j + 1];
      if (next === '(' || next === '[') {
        count++;
      }
      j = text.indexOf('\\', j + 2);
    }
    if (count > MANY_FORMULA_DELIMITERS) {
      return true;
    }
  }
  return false;
}

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
  renderer?: StreamRenderer;
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
 * Prompts are plain text; replies are Markdown, rendered whole, or streamed through a StreamRenderer.
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
  } else if (streaming) {
    element.renderer = new StreamRenderer(body, ctx.decorate, ctx.onRendered);
    element.renderer.reset(message.content);
    footer.replaceChildren(
      h('span', { class: 'writing' }, icon('loading', true), h('span', {}, l10n.t('ALPHA is writing…'))),
    );
  } else if (message.content.length > LONG_REPLY_CHARS || manyFormulas(message.content)) {
    // A very long reply from history, or one with many formulas, is drawn like a stream that already ended: in frames
    // of bounded work. Its source markers are linked in each piece as it is drawn (a section drawn again too).
    const count = message.sources?.length ?? 0;
    const decorate: Decorate = count
      ? (piece, stage) => {
          ctx.decorate(piece, stage);
          linkMarkers(piece, count, (n) => openSource(ctx, message, n));
        }
      : ctx.decorate;
    element.renderer = new StreamRenderer(body, decorate, ctx.onRendered);
    element.renderer.reset(message.content);
    element.renderer.finish();
  } else {
    renderMarkdownInto(body, message.content, ctx.decorate);
    if (message.sources?.length) {
      linkMarkers(body, message.sources.length, (n) => openSource(ctx, message, n));
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
    showUsage(article, message.usage, message.speed);
  }
  return element;
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
