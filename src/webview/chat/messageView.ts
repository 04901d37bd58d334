import type { ChatErrorAction, ContextChipView, MessageView, WebviewToHost } from '../../protocol/chatProtocol';
import { t } from '../shared/l10n';
import { clockTime, h, icon, iconButton } from './dom';
import { errorNotice } from './errorNotice';
import { renderMarkdownInto, StreamRenderer, type Decorate } from './streamRenderer';

/** Replies longer than this are drawn over several frames rather than in one go. */
const LONG_REPLY_CHARS = 65_536;

/** What a message element needs from the page. */
export interface MessageContext {
  post(message: WebviewToHost): void;
  decorate: Decorate;
  onRendered(): void;
  /** Starts editing a prompt in place. */
  edit(message: MessageView, article: HTMLElement): void;
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
    remove ? iconButton(t('Remove {0}', view.label), 'close', remove, { class: 'icon-button chip-remove' }) : undefined,
  );
}

/**
 * A message as an `article` named "You" or "ALPHA" (times and models are in its header, not in its name).
 * Prompts are plain text; replies are Markdown, rendered whole, or streamed through a StreamRenderer.
 */
export function messageElement(message: MessageView, ctx: MessageContext, streaming: boolean): MessageElement {
  const isUser = message.role === 'user';
  const author = isUser ? t('You') : 'ALPHA';
  const toolbar = h('div', {
    class: 'message-actions',
    role: 'toolbar',
    'aria-label': t('{0} message actions', author),
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
    iconButton(t('Copy message'), 'copy', () =>
      ctx.post({ type: 'clipboard/copy', text: element.renderer?.source ?? message.content, what: 'message' }),
    ),
  );
  if (isUser) {
    body.textContent = message.content;
    toolbar.append(iconButton(t('Edit and resend'), 'edit', () => ctx.edit(message, article)));
  } else if (streaming) {
    element.renderer = new StreamRenderer(body, ctx.decorate, ctx.onRendered);
    element.renderer.reset(message.content);
    footer.replaceChildren(
      h('span', { class: 'writing' }, icon('loading', true), h('span', {}, t('ALPHA is writing…'))),
    );
  } else if (message.content.length > LONG_REPLY_CHARS) {
    // A very long reply from history is drawn like a stream that already ended: in frames of bounded work.
    element.renderer = new StreamRenderer(body, ctx.decorate, ctx.onRendered);
    element.renderer.reset(message.content);
    element.renderer.finish();
  } else {
    renderMarkdownInto(body, message.content, ctx.decorate);
  }
  if (!streaming) {
    showOutcome(element, message, (action) => ctx.post({ type: 'chat/action', action }));
  }
  return element;
}

/** Shows how a reply ended: "Stopped", interrupted by a reload, or its error with the fitting action. */
export function showOutcome(
  element: MessageElement,
  message: Pick<MessageView, 'status' | 'error' | 'notice' | 'role'>,
  run: (action: ChatErrorAction) => void,
): void {
  const parts: HTMLElement[] = [];
  if (message.status === 'interrupted') {
    const text = message.notice ?? t('Interrupted before the reply was complete.');
    parts.push(h('div', { class: 'notice interrupted', role: 'note' }, icon('warning'), h('span', {}, text)));
  }
  if (message.status === 'stopped') {
    parts.push(h('div', { class: 'notice stopped' }, icon('debug-stop'), h('span', {}, t('Stopped.'))));
  }
  if (message.status === 'error' && message.error) {
    parts.push(errorNotice(message.error, run));
  }
  element.footer.replaceChildren(...parts);
}
