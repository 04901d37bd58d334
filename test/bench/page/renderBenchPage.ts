// Browser code for the chat render bench, bundled by esbuild at bench time (see chatRender.bench.ts). It runs the
// chat's real StreamRenderer and a naive renderer on the same deltas in the same page.
import DOMPurify from 'dompurify';
import { lexBlocks, renderBlocks } from '../../../src/webview/chat/render/markdownBlocks';
import type { MessageView } from '../../../src/protocol/chatProtocol';
import { messageElement, type MessageContext } from '../../../src/webview/chat/messages/messageView';
import { drawRecent, OlderMessages } from '../../../src/webview/chat/render/olderMessages';
import { StreamRenderer } from '../../../src/webview/chat/render/streamRenderer';
import { decorateCodeBlocks } from '../../../src/webview/chat/messages/codeBlocks';

/** What one renderer cost: total main-thread time and the time of each delta (append + its frame). */
export interface RenderRun {
  totalMs: number;
  perDeltaMs: number[];
  /** How many code blocks the page shows at the end (both renderers must agree). */
  codeBlocks: number;
}

/**
 * The real renderer, one frame per delta (no batching of several deltas into one frame, the worst case for it):
 * each delta is appended and its frame is run at once.
 */
function runIncremental(deltas: string[], container: HTMLElement): RenderRun {
  let pending: (() => void) | undefined;
  const renderer = new StreamRenderer(
    container,
    decorateCodeBlocks,
    () => undefined,
    (callback) => {
      pending = callback;
      return 1;
    },
    () => {
      pending = undefined;
    },
  );
  const perDeltaMs: number[] = [];
  const start = performance.now();
  for (const delta of deltas) {
    const t = performance.now();
    renderer.append(delta);
    const frame = pending;
    pending = undefined;
    frame?.();
    perDeltaMs.push(performance.now() - t);
  }
  renderer.finish();
  return { totalMs: performance.now() - start, perDeltaMs, codeBlocks: container.querySelectorAll('pre').length };
}

/** The naive baseline: on every delta, parse the whole text again, sanitise it and set innerHTML. */
function runNaive(deltas: string[], container: HTMLElement): RenderRun {
  const perDeltaMs: number[] = [];
  let text = '';
  const start = performance.now();
  for (const delta of deltas) {
    const t = performance.now();
    text += delta;
    const tokens = lexBlocks(text, {});
    container.innerHTML = DOMPurify.sanitize(renderBlocks(tokens, tokens.links));
    perDeltaMs.push(performance.now() - t);
  }
  return { totalMs: performance.now() - start, perDeltaMs, codeBlocks: container.querySelectorAll('pre').length };
}

function freshContainer(): HTMLElement {
  document.body.replaceChildren();
  const container = document.createElement('div');
  document.body.append(container);
  return container;
}

/** How long a switch took: the newest messages drawn and laid out, then every message. */
export interface SwitchTimes {
  visibleMs: number;
  allMs: number;
  articles: number;
}

/**
 * Draws a conversation as the chat page does when it switches to one (see ChatApp.drawState): the newest
 * messages that fill two screens (drawRecent) at once, the older ones through OlderMessages when the page is idle.
 */
async function drawConversation(messages: MessageView[]): Promise<SwitchTimes> {
  const start = performance.now();
  const log = freshContainer();
  log.style.cssText = 'height: 800px; overflow-y: auto; overflow-anchor: none';
  const ctx: MessageContext = {
    post: () => undefined,
    decorate: decorateCodeBlocks,
    onRendered: () => undefined,
    edit: () => undefined,
    switchBranch: () => undefined,
  };
  const draw = (m: MessageView): HTMLElement => messageElement(m, ctx, false).article;
  const cut = drawRecent(log, messages, draw);
  log.scrollTop = log.scrollHeight; // forces layout, as showing the end does
  const visibleMs = performance.now() - start;
  const older = new OlderMessages(log, messages.slice(0, cut), { draw });
  await older.done;
  void log.scrollHeight;
  return { visibleMs, allMs: performance.now() - start, articles: log.querySelectorAll('article').length };
}

(globalThis as unknown as { renderBench: unknown }).renderBench = {
  incremental: (deltas: string[]) => runIncremental(deltas, freshContainer()),
  naive: (deltas: string[]) => runNaive(deltas, freshContainer()),
  drawConversation,
};
