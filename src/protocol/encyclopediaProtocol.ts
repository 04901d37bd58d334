/**
 * The typed contract between the extension host and the Encyclopedia webview (`axo.encyclopediaView`).
 * Messages are named `area/verb`. Each says which side sends it. The host holds every message until the webview
 * has sent `webview/ready`, then sends them in order. Nothing here ever carries an API key.
 */

import { bare, isIndex, isOneOf, isShort, type Validator } from './validate';

/** A citation as the view shows it; the view turns only http(s) URLs into links, opened by the host. */
export interface CitationView {
  title: string;
  url?: string;
}

/** One structured fact. */
export interface FactView {
  name: string;
  value: string;
}

/** One search hit. */
export interface SearchResultView {
  title: string;
  snippet?: string;
  url?: string;
}

/** What a page of the view shows: an answer, an article, or search results. */
export type EntryView =
  | {
      kind: 'answer';
      query: string;
      model: string;
      /** The model's label from the models setting ("AXO.1"), or the identifier. */
      modelLabel: string;
      /** Markdown from the service (rendered with raw HTML off, then sanitised). */
      text: string;
      citations: CitationView[];
      /** The body had none of the known fields; `text` is it as JSON. */
      unrecognised?: boolean;
    }
  | {
      kind: 'article';
      title: string;
      summary?: string;
      content: string;
      url?: string;
      facts: FactView[];
      media: string[];
      citations: CitationView[];
      unrecognised?: boolean;
    }
  | { kind: 'search'; query: string; results: SearchResultView[] };

/** Where a shown entry came from. */
export interface SourceView {
  /** Served from the cache, not fetched for this lookup. */
  cached: boolean;
  /** A cached entry shown because the service could not answer; `notice` says why. */
  stale: boolean;
  /** When the entry arrived from the service (ms since the epoch). */
  storedAt: number;
  notice?: string;
}

/** Back/forward state. */
export interface NavView {
  canGoBack: boolean;
  canGoForward: boolean;
  /** 1-based position in the session's lookups, and how many there are. */
  index: number;
  length: number;
}

/** The actions a message in the view can offer. */
export type ViewAction = 'retry' | 'setEncyclopediaKey' | 'openSettings' | 'changeModel' | 'search';

/** A button next to an error or an empty result. */
export interface ActionView {
  action: ViewAction;
  label: string;
}

/** Messages the host sends to the webview. */
export type HostToWebview =
  /** Host → webview: a lookup started; show progress and a Cancel button. */
  | { type: 'lookup/started'; requestId: number; label: string }
  /** Host → webview: show an entry (new, from history, refreshed, or again after a cancelled lookup). */
  | { type: 'lookup/show'; requestId: number; entry: EntryView; source: SourceView; nav: NavView }
  /** Host → webview: the lookup found nothing. */
  | { type: 'lookup/empty'; requestId: number; label: string; message: string; actions: ActionView[]; nav: NavView }
  /** Host → webview: the lookup failed; `message` is one clear sentence. */
  | { type: 'lookup/error'; requestId: number; label: string; message: string; actions: ActionView[]; nav: NavView }
  /** Host → webview: nothing looked up yet (or the history was emptied); show the welcome page. */
  | { type: 'view/welcome'; nav: NavView }
  /** Host → webview: an image the user asked to see, as a `data:` URI (the CSP allows no remote images). */
  | { type: 'media/loaded'; url: string; dataUri: string }
  /** Host → webview: the image could not be loaded. */
  | { type: 'media/failed'; url: string; message: string }
  /** Host → webview: `alphaAxo.chat.fontSize` in pixels, 0 for VS Code's (when the page is ready, and on change). */
  | { type: 'ui/textSize'; fontSize: number };

/** Messages the webview sends to the host. */
export type WebviewToHost =
  /** Webview → host: the page is listening; the host sends what it held. */
  | { type: 'webview/ready' }
  /** Webview → host: the user pressed Cancel on the running lookup. */
  | { type: 'lookup/cancel'; requestId: number }
  /** Webview → host: the user chose an action offered with an error or an empty result. */
  | { type: 'lookup/action'; action: ViewAction }
  /** Webview → host: fetch the shown entry again, bypassing the cache. */
  | { type: 'lookup/refresh' }
  /** Webview → host: back through the session's lookups. */
  | { type: 'history/back' }
  /** Webview → host: forward through the session's lookups. */
  | { type: 'history/forward' }
  /** Webview → host: open a link outside (the host opens http and https only). */
  | { type: 'link/open'; url: string }
  /** Webview → host: open an article by title (a search hit). */
  | { type: 'article/open'; title: string }
  /** Webview → host: open the shown entry as a Markdown document. */
  | { type: 'entry/openMarkdown' }
  /** Webview → host: open ALPHA chat with the shown entry as context. */
  | { type: 'entry/askAlpha' }
  /** Webview → host: insert a fact's value at the cursor of the last active editor; no index asks which. */
  | { type: 'fact/insert'; index?: number }
  /** Webview → host: the user clicked to see an image. */
  | { type: 'media/load'; url: string }
  /** Webview → host: run one of the lookup commands (buttons of the welcome page). */
  | { type: 'command/run'; command: 'axo.ask' | 'axo.search' | 'axo.article' };

/** The actions a page may ask for. */
const VIEW_ACTIONS: readonly ViewAction[] = ['retry', 'setEncyclopediaKey', 'openSettings', 'changeModel', 'search'];

/** The only commands the page's buttons may run: the three lookups of the welcome page. */
export const RUNNABLE_COMMANDS: readonly Extract<WebviewToHost, { type: 'command/run' }>['command'][] = [
  'axo.ask',
  'axo.search',
  'axo.article',
];

/**
 * The check of every message type the Encyclopedia page may send, field by field (the controller drops whatever
 * fails, with a log line). Whether a `media/load` URL is one the page shows depends on the host's state and is
 * checked where it is handled.
 */
export const ENCYCLOPEDIA_VALIDATORS: Record<WebviewToHost['type'], Validator> = {
  'webview/ready': bare,
  'lookup/cancel': (m) => isIndex(m.requestId),
  'lookup/action': (m) => isOneOf(m.action, VIEW_ACTIONS),
  'lookup/refresh': bare,
  'history/back': bare,
  'history/forward': bare,
  'link/open': (m) => isShort(m.url),
  'article/open': (m) => isShort(m.title),
  'entry/openMarkdown': bare,
  'entry/askAlpha': bare,
  'fact/insert': (m) => m.index === undefined || isIndex(m.index),
  'media/load': (m) => isShort(m.url),
  'command/run': (m) => isOneOf(m.command, RUNNABLE_COMMANDS),
};
