import * as vscode from 'vscode';
import type { EncyclopediaStore } from '../../core/encyclopedia/encyclopediaStore';
import type { CacheResult } from '../../core/encyclopedia/lookupCache';
import { LookupHistory } from '../../core/encyclopedia/lookupHistory';
import { isEmptyValue, type LookupRequest, type LookupValue } from '../../core/encyclopedia/lookupTypes';
import { ServiceError, describeError, isAbortError } from '../../core/service/errors';
import { WEB_LINK_SCHEMES, openableLink } from '../../core/service/links';
import type { Logger } from '../../core/logger';
import { AbortSlot, DisposableOwner, abortOnCancel } from '../../host/disposables';
import { type NavView, type ViewAction, type WebviewToHost } from '../../protocol/encyclopediaProtocol';
import { EncyclopediaViewProvider } from './encyclopediaViewProvider';
import { pickModel, pickSearchResult } from './encyclopediaPrompts';
import { EntryActions } from './entryActions';
import type { PublicFetch } from '../../core/encyclopedia/imageData';
import { entryView } from './entryView';
import { lookupEmpty, lookupFailure, progressTitle, searchTextOf, type LookupProblem } from './lookupProblem';

/** One page of the session's history. */
interface Page {
  request: LookupRequest;
  value: LookupValue;
  storedAt: number;
}

/** What a finished lookup left. */
type Outcome = { kind: 'shown'; value: LookupValue } | { kind: 'empty' | 'failed' | 'cancelled' };

/**
 * Runs lookups for the commands and the view: reveals the view, shows progress with Cancel (which aborts the
 * request), shows the result, an empty result or the error (in the view and as a notification with its action),
 * and keeps the session's history for back and forward.
 */
export class EncyclopediaController extends DisposableOwner {
  readonly view: EncyclopediaViewProvider;
  private readonly actions: EntryActions;
  private readonly history = new LookupHistory<Page>();
  private readonly slot = this._register(new AbortSlot());
  private requestSeq = 0;
  private runningId = 0;
  /** The request of the last error or empty result, for Retry / Change Model / Search Instead. */
  private problemRequest: LookupRequest | undefined;

  constructor(
    extensionUri: vscode.Uri,
    private readonly store: EncyclopediaStore,
    private readonly log: Logger,
    fetchPublic: PublicFetch,
  ) {
    super();
    this.view = this._register(new EncyclopediaViewProvider(extensionUri, (m) => this.onMessage(m), log));
    this.actions = this._register(new EntryActions(log, fetchPublic));
    this.view.post({ type: 'view/welcome', nav: this.nav() });
  }

  /** Looks a request up and shows the outcome. A new lookup cancels the one running. */
  async lookup(request: LookupRequest, force = false): Promise<Outcome> {
    const requestId = ++this.requestSeq;
    const controller = this.slot.next();
    this.runningId = requestId;
    await this.view.reveal();
    try {
      await this.store.ensureLoaded();
      const hit = force ? undefined : this.store.peekFresh(request);
      const result: CacheResult<LookupValue> = hit
        ? { value: hit.value, storedAt: hit.storedAt, cached: true, stale: false, shared: false }
        : await this.fetchWithProgress(request, requestId, controller, force);
      return this.show(request, requestId, result, force);
    } catch (error) {
      return this.fail(request, requestId, error);
    } finally {
      this.slot.release(controller);
      if (this.runningId === requestId) {
        this.runningId = 0;
      }
    }
  }

  /** Searches, then offers the hits in a quick pick and opens the picked article. */
  async search(query: string): Promise<void> {
    const outcome = await this.lookup({ kind: 'search', query });
    if (outcome.kind === 'shown' && outcome.value.kind === 'search') {
      const title = await pickSearchResult(outcome.value.query, outcome.value.results);
      if (title) {
        await this.lookup({ kind: 'article', title });
      }
    }
  }

  /** Empties the cache in memory and on disk (the session's history stays). */
  async clearCache(): Promise<void> {
    await this.store.clear();
    void vscode.window.showInformationMessage(vscode.l10n.t('The encyclopedia cache is empty.'));
  }

  private async fetchWithProgress(
    request: LookupRequest,
    requestId: number,
    controller: AbortController,
    force: boolean,
  ): Promise<CacheResult<LookupValue>> {
    const title = progressTitle(request);
    this.view.post({ type: 'lookup/started', requestId, label: requestLabel(request) });
    return vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `${title}…`, cancellable: true },
      async (_progress, token) => {
        const link = abortOnCancel(token, controller);
        try {
          return await this.store.lookup(request, { signal: controller.signal, force });
        } finally {
          link.dispose();
        }
      },
    );
  }

  private show(request: LookupRequest, requestId: number, result: CacheResult<LookupValue>, refresh: boolean): Outcome {
    if (isEmptyValue(result.value)) {
      this.problemRequest = request;
      const problem = lookupEmpty(result.value, request);
      this.view.post({ type: 'lookup/empty', requestId, label: requestLabel(request), ...problem, nav: this.nav() });
      void this.notify('info', problem, request);
      return { kind: 'empty' };
    }
    const page: Page = { request, value: result.value, storedAt: result.storedAt };
    if (refresh) {
      this.history.replace(page);
    } else {
      this.history.push(page);
    }
    const notice = result.stale
      ? vscode.l10n.t(
          'The service could not be reached, so this is the cached result: {0}',
          describeError(result.error),
        )
      : undefined;
    this.view.post({
      type: 'lookup/show',
      requestId,
      entry: entryView(result.value),
      source: { cached: result.cached, stale: result.stale, storedAt: result.storedAt, notice },
      nav: this.nav(),
    });
    if (notice) {
      void vscode.window.showWarningMessage(`AXO: ${notice}`);
    }
    return { kind: 'shown', value: result.value };
  }

  private async fail(request: LookupRequest, requestId: number, error: unknown): Promise<Outcome> {
    if (isAbortError(error)) {
      this.log.info('Encyclopedia lookup cancelled.');
      if (this.runningId === requestId) {
        this.showCurrent(requestId);
      }
      return { kind: 'cancelled' };
    }
    this.problemRequest = request;
    const problem = lookupFailure(error, request);
    this.log.warn(`Encyclopedia lookup failed: ${problem.message}`);
    this.view.post({ type: 'lookup/error', requestId, label: requestLabel(request), ...problem, nav: this.nav() });
    if (error instanceof ServiceError && error.kind === 'missingKey') {
      // No key yet: ask for it right away, then try again.
      const stored = await vscode.commands.executeCommand<boolean>('axo.setApiKey');
      if (stored) {
        return this.lookup(request);
      }
      return { kind: 'failed' };
    }
    void this.notify('error', problem, request);
    return { kind: 'failed' };
  }

  /** A notification with the problem's first action as a button. */
  private async notify(level: 'info' | 'error', problem: LookupProblem, request: LookupRequest): Promise<void> {
    const buttons = problem.actions.slice(0, 2).map((a) => a.label);
    const text = `AXO: ${problem.message}`;
    const choice = await (level === 'info'
      ? vscode.window.showInformationMessage(text, ...buttons)
      : vscode.window.showErrorMessage(text, ...buttons));
    const action = problem.actions.find((a) => a.label === choice)?.action;
    if (action) {
      await this.runAction(action, request);
    }
  }

  private async runAction(action: ViewAction, request: LookupRequest | undefined): Promise<void> {
    if (!request) {
      return;
    }
    switch (action) {
      case 'retry':
        await this.lookup(request);
        break;
      case 'setEncyclopediaKey':
        if (await vscode.commands.executeCommand<boolean>('axo.setApiKey')) {
          await this.lookup(request);
        }
        break;
      case 'openSettings':
        await vscode.commands.executeCommand('workbench.action.openSettings', 'alphaAxo.encyclopedia');
        break;
      case 'changeModel': {
        const model = request.kind === 'ask' ? await pickModel(request.model) : undefined;
        if (model && request.kind === 'ask') {
          await this.lookup({ ...request, model });
        }
        break;
      }
      case 'search':
        await this.search(searchTextOf(request));
        break;
      default:
        break;
    }
  }

  private showCurrent(requestId = 0): void {
    const page = this.history.current;
    if (!page) {
      this.view.post({ type: 'view/welcome', nav: this.nav() });
      return;
    }
    this.view.post({
      type: 'lookup/show',
      requestId,
      entry: entryView(page.value),
      source: { cached: true, stale: false, storedAt: page.storedAt },
      nav: this.nav(),
    });
  }

  private nav(): NavView {
    const { index, length } = this.history.position;
    return { canGoBack: this.history.canGoBack, canGoForward: this.history.canGoForward, index, length };
  }

  /**
   * Handles one message from the page, its fields checked by the webview channel (`ENCYCLOPEDIA_VALIDATORS`), here
   * against what the page shows; whatever fails is dropped with a log warning.
   */
  async onMessage(message: WebviewToHost): Promise<void> {
    const page = this.history.current;
    switch (message.type) {
      case 'lookup/cancel':
        if (message.requestId === this.runningId) {
          this.slot.abort();
        }
        break;
      case 'lookup/action':
        await this.runAction(message.action, this.problemRequest ?? page?.request);
        break;
      case 'lookup/refresh':
        if (page) {
          await this.lookup(page.request, true);
        }
        break;
      case 'history/back':
      case 'history/forward':
        if (message.type === 'history/back' ? this.history.back() : this.history.forward()) {
          this.slot.abort();
          this.showCurrent();
        }
        break;
      case 'link/open':
        await this.openLink(message.url);
        break;
      case 'article/open':
        await this.lookup({ kind: 'article', title: message.title });
        break;
      case 'entry/openMarkdown':
        await (page ? this.actions.openMarkdown(page.value) : Promise.resolve());
        break;
      case 'entry/askAlpha':
        await (page ? this.actions.askAlpha(page.value) : Promise.resolve());
        break;
      case 'fact/insert':
        await (page ? this.actions.insertFact(page.value, message.index) : Promise.resolve());
        break;
      case 'media/load':
        await this.loadMedia(message.url);
        break;
      case 'command/run':
        // The validator let through only the three lookups (`RUNNABLE_COMMANDS`).
        await vscode.commands.executeCommand(message.command);
        break;
      default:
        break;
    }
  }

  private async openLink(url: string): Promise<void> {
    const safe = openableLink(url, WEB_LINK_SCHEMES);
    if (!safe) {
      this.log.warn('Encyclopedia view: dropped link/open of a link that is not http(s).');
      return;
    }
    await this.actions.openLink(safe);
  }

  private async loadMedia(url: string): Promise<void> {
    if (!this.view.shownMedia().includes(url)) {
      this.log.warn('Encyclopedia view: dropped media/load of a URL that is not in the article shown.');
      return;
    }
    await this.actions.loadImage(url, (m) => this.view.post(m));
  }
}

/** "Asking AXO “…”", for the view's headings. */
function requestLabel(request: LookupRequest): string {
  return progressTitle(request).replace(/^AXO: /, '');
}
