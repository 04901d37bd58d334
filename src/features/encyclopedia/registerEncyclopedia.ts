import * as path from 'node:path';
import * as vscode from 'vscode';
import { originOf } from '../../core/net/fetchGuard';
import { CacheSnapshotFile } from '../../core/encyclopedia/cacheSnapshotFile';
import { EncyclopediaStore } from '../../core/encyclopedia/encyclopediaStore';
import { cleanText, isLookupValue } from '../../core/encyclopedia/lookupTypes';
import type { Services } from '../../host/services';
import { cacheTtlMs } from './encyclopediaConfig';
import { EncyclopediaController } from './encyclopediaController';
import { EncyclopediaHoverProvider } from './encyclopediaHoverProvider';
import { prefillText, promptAsk, promptText } from './encyclopediaPrompts';
import { ENCYCLOPEDIA_VIEW_ID } from './encyclopediaViewProvider';

/** The cache file in the extension's global storage. */
const CACHE_FILE = 'encyclopediaCache.json';

/**
 * The encyclopedia's store, built with the other services (the chat's grounding reads it too); reads nothing now:
 * the persisted cache is read at the first lookup, hover or grounded prompt.
 */
export function createEncyclopediaStore(
  context: vscode.ExtensionContext,
  axo: Services['axo'],
  log: Services['log'],
): EncyclopediaStore {
  const file = new CacheSnapshotFile(path.join(context.globalStorageUri.fsPath, CACHE_FILE), isLookupValue);
  return new EncyclopediaStore({ client: axo, file, ttlMs: cacheTtlMs, log });
}

/** Reads a string field of a command argument, if the argument is an object holding one. */
function argString(args: unknown, name: string): string | undefined {
  const value = args && typeof args === 'object' ? (args as Record<string, unknown>)[name] : undefined;
  return typeof value === 'string' && value.trim() ? cleanText(value) : undefined;
}

/**
 * Registers the encyclopedia: the commands `axo.ask`, `axo.search`, `axo.article`, `axo.lookUpSelection` and
 * `axo.clearCache`, the Encyclopedia side view, and hovers in every editor. Does no I/O now: the persisted cache
 * is read at the first lookup or hover.
 */
export function registerEncyclopedia(services: Services): void {
  const { context, log, settings, encyclopedia: store } = services;
  const controller = new EncyclopediaController(context.extensionUri, store, log, (url, options) =>
    services.http.fetchPublic(url, { ...options, allowedOrigin: originOf(settings.baseUrl) }),
  );
  const hovers = new EncyclopediaHoverProvider(store, log);

  const ask = async (args?: unknown) => {
    const query = argString(args, 'query');
    const model = argString(args, 'model') ?? settings.encyclopediaModel;
    const asked = query ? { query, model } : await promptAsk(model);
    if (asked) {
      await controller.lookup({ kind: 'ask', ...asked });
    }
  };
  const search = async (args?: unknown) => {
    const query =
      argString(args, 'query') ??
      (await promptText(
        vscode.l10n.t('AXO: Search the Encyclopedia'),
        vscode.l10n.t('Search terms, e.g. photosynthesis'),
        vscode.l10n.t('Pick a result to open its article.'),
      ));
    if (query) {
      await controller.search(query);
    }
  };
  const article = async (args?: unknown) => {
    const title =
      argString(args, 'title') ??
      (await promptText(
        vscode.l10n.t('AXO: Open Article'),
        vscode.l10n.t('Article title, e.g. Alan Turing'),
        vscode.l10n.t('The exact title of an encyclopedia article.'),
      ));
    if (title) {
      await controller.lookup({ kind: 'article', title });
    }
  };
  const lookUpSelection = async () => {
    const text = prefillText();
    await (text ? controller.lookup({ kind: 'ask', query: text, model: settings.encyclopediaModel }) : ask());
  };
  const clearCache = async () => {
    hovers.forgetMisses();
    await controller.clearCache();
  };

  context.subscriptions.push(
    controller,
    { dispose: () => store.dispose() },
    vscode.window.registerWebviewViewProvider(ENCYCLOPEDIA_VIEW_ID, controller.view),
    vscode.languages.registerHoverProvider({ scheme: '*' }, hovers),
    vscode.commands.registerCommand('axo.ask', ask),
    vscode.commands.registerCommand('axo.search', search),
    vscode.commands.registerCommand('axo.article', article),
    vscode.commands.registerCommand('axo.lookUpSelection', lookUpSelection),
    vscode.commands.registerCommand('axo.clearCache', clearCache),
  );
}
