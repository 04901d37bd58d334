import type { HostToWebview, MessageView, WebviewToHost } from '../../../protocol/chatProtocol';
import { regenerateButton, showOutcome, showSources, type MessageContext, type MessageElement } from './messageView';
import { showUsage } from './usage';

/** The reply being written. */
export interface Streaming {
  requestId: number;
  messageId: string;
  element: MessageElement;
}

/**
 * A step of the streaming reply began or changed: its sources (the reply's list as it now stands) are shown first, as
 * the step's links read them; then it is drawn in its place, or replaces its older view. `view` is the page's copy of
 * the reply, kept up to date. True when the step is new.
 */
export function drawStep(
  element: MessageElement,
  view: MessageView | undefined,
  message: Extract<HostToWebview, { type: 'chat/step' }>,
  ctx: MessageContext,
): boolean {
  const body = element.renderer;
  if (!body) {
    return false;
  }
  if (view && message.sources) {
    view.sources = message.sources;
    showSources(element, view, ctx);
  }
  const added = body.step(message.step);
  if (view) {
    view.steps = body.steps;
  }
  return added;
}

/**
 * The streaming reply ended (done, stopped or failed): its live text is finished, the page's copy of it takes its
 * outcome, and its footer shows how it ended, its tokens, requests and speed.
 */
export function endReply(
  element: MessageElement,
  view: MessageView | undefined,
  message: Extract<HostToWebview, { type: 'chat/done' | 'chat/error' }>,
  ctx: MessageContext,
): void {
  element.renderer?.finish();
  const outcome =
    message.type === 'chat/error'
      ? { role: 'assistant' as const, status: 'error' as const, error: message.error }
      : { role: 'assistant' as const, status: message.status };
  if (view) {
    Object.assign(view, outcome, {
      content: element.renderer?.source ?? view.content,
      usage: message.usage,
      speed: message.speed,
      requests: message.requests,
    });
  }
  showOutcome(element, outcome, (action) => ctx.post({ type: 'chat/action', action }));
  showUsage(element.article, message.usage, message.speed, message.requests);
}

/**
 * Every finished reply can be regenerated (the old one stays as a branch), but not while one is written: the buttons
 * are hidden then (`.replying` on the log, in messageView.css). The last message, a reply just ended, gets its button.
 */
export function offerRegenerate(
  log: HTMLElement,
  last: { view: MessageView; article: HTMLElement | undefined } | undefined,
  streaming: boolean,
  post: (message: WebviewToHost) => void,
): void {
  log.classList.toggle('replying', streaming);
  if (!last || last.view.role !== 'assistant' || streaming) {
    return;
  }
  const toolbar = last.article?.querySelector('.message-actions');
  if (toolbar && !toolbar.querySelector('.regenerate')) {
    toolbar.append(regenerateButton(last.view.id, post));
  }
}
