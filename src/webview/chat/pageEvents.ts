import * as l10n from '@vscode/l10n';
import type { HostToWebview, WebviewToHost } from '../../protocol/chatProtocol';
import { h } from '../shared/dom';
import { imageAlt, loadedImage, rememberImage } from './safeHtml';
import { openHostLinksOnEnter } from '../shared/hostLinks';
import { codeAction } from './messages/codeBlocks';
import type { FindBar } from './panels/findBar';
import { installKeyboardNav, trackReplyFocus } from './keyboardNav';

/** What the page's own events act on. */
export interface PageEvents {
  root: HTMLElement;
  log: HTMLElement;
  composerInput: HTMLTextAreaElement;
  find: FindBar;
  post(message: WebviewToHost): void;
  /** Closes the history panel when it is open; true when it was. */
  closeHistory(): boolean;
  /** Stops the streaming reply; true when one was streaming. */
  stop(): boolean;
  /** Puts back the messages beside `article` in the direction of `step` when they sleep (see SleepingSlices). */
  wakeBeside(article: Element | null, step: -1 | 1): void;
}

/**
 * The chat page's events: clicks on links, images and code actions (sent to the host), files dropped on the chat,
 * the keyboard's moves between messages, and Ctrl+F in the side view.
 */
export function installPageEvents(page: PageEvents): void {
  // Links never navigate the page: openable ones go to the host, the others are inert text already. They
  // have no href, so VS Code's frame does not open them a second time (see hostLinks.ts).
  page.root.addEventListener('click', (event) => {
    const target = event.target as Element | null;
    // An image button inside a link (`[![alt](img)](url)`) loads the image and does not follow the link.
    const image = target?.closest?.<HTMLButtonElement>('button.load-image');
    if (image) {
      event.preventDefault();
      if (image.dataset.imageUrl && !image.disabled) {
        image.disabled = true;
        page.post({ type: 'image/load', url: image.dataset.imageUrl });
      }
      return;
    }
    const anchor = target?.closest?.('a');
    if (anchor) {
      event.preventDefault();
      if (anchor.dataset.url) {
        page.post({ type: 'link/open', url: anchor.dataset.url });
      }
      return;
    }
    const code = target instanceof Element ? codeAction(target) : undefined;
    if (code) {
      page.post(code);
    }
  });
  openHostLinksOnEnter(page.root, (url) => page.post({ type: 'link/open', url }));
  // Files and editor tabs dropped on the chat are attached (VS Code lets a webview take a drop with Shift held).
  page.root.addEventListener('dragover', (event) => {
    if (droppedUris(event.dataTransfer, false)) {
      event.preventDefault();
      if (event.dataTransfer) {
        event.dataTransfer.dropEffect = 'copy';
      }
    }
  });
  page.root.addEventListener('drop', (event) => {
    const uris = droppedUris(event.dataTransfer, true);
    if (uris) {
      event.preventDefault();
      page.post({ type: 'attach/drop', uris: uris.slice(0, 100) });
    }
  });
  installKeyboardNav(document, {
    log: page.log,
    composer: page.composerInput,
    closeOpen: () => (page.find.isOpen ? (page.find.close(), true) : page.closeHistory()),
    stop: () => page.stop(),
    wakeBeside: (article, step) => page.wakeBeside(article, step),
    openAsText: (messageId) => page.post({ type: 'reply/openAsText', messageId }),
  });
  trackReplyFocus(page.root, (messageId) => page.post({ type: 'reply/focus', messageId }));
  // Ctrl+F (Cmd+F) in the side view opens the page's find bar. In an editor tab VS Code has its own find widget
  // (`enableFindWidget`): the key is left to it there. Captured and stopped, so VS Code's frame does not also
  // pass it on to the workbench.
  if (document.body.dataset.surface === 'view') {
    document.addEventListener(
      'keydown',
      (event) => {
        if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 'f') {
          event.preventDefault();
          event.stopPropagation();
          page.find.open();
        }
      },
      true,
    );
  }
}

/**
 * The URIs a drag carries (VS Code's own list for editor tabs and the explorer, else the standard one), or
 * undefined when it carries none. While dragging only the types can be read: `read` false answers from them.
 */
function droppedUris(data: DataTransfer | null, read: boolean): string[] | undefined {
  if (!data) {
    return undefined;
  }
  const type = ['application/vnd.code.uri-list', 'text/uri-list'].find((t) => data.types.includes(t));
  if (!type) {
    return undefined;
  }
  if (!read) {
    return [];
  }
  const uris = data
    .getData(type)
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  return uris.length ? uris : undefined;
}

/** An image the host loaded (or could not) replaces the buttons that asked for it; a loaded one is remembered. */
export function showImage(
  root: HTMLElement,
  message: Extract<HostToWebview, { type: 'image/loaded' | 'image/failed' }>,
): void {
  if (message.type === 'image/loaded') {
    rememberImage(message.url, message.dataUri);
  }
  for (const button of Array.from(root.querySelectorAll<HTMLButtonElement>('button.load-image'))) {
    if (button.dataset.imageUrl !== message.url) {
      continue;
    }
    const alt = imageAlt(button) ?? l10n.t('image');
    button.replaceWith(
      message.type === 'image/loaded'
        ? loadedImage(message.dataUri, alt)
        : h('span', { class: 'notice error inline', role: 'status' }, message.message),
    );
  }
}
