import * as vscode from 'vscode';
import { ServiceError, describeError } from '../../core/service/errors';
import { cleanText, describeRequest, type LookupRequest, type LookupValue } from '../../core/encyclopedia/lookupTypes';
import { ACTION_LABELS } from '../../host/errorActions';
import type { ActionView, ViewAction } from '../../protocol/encyclopediaProtocol';
import { modelLabel } from './encyclopediaConfig';

/** A failed or empty lookup, as one sentence and the buttons that fit. */
export interface LookupProblem {
  message: string;
  actions: ActionView[];
}

function label(action: ViewAction): string {
  switch (action) {
    case 'changeModel':
      return vscode.l10n.t('Change Model');
    case 'search':
      return vscode.l10n.t('Search Instead');
    default:
      return ACTION_LABELS[action];
  }
}

function actions(...list: ViewAction[]): ActionView[] {
  return list.map((action) => ({ action, label: label(action) }));
}

/** The sentence and buttons for a lookup that failed. */
export function lookupFailure(error: unknown, request: LookupRequest): LookupProblem {
  if (!(error instanceof ServiceError)) {
    return { message: vscode.l10n.t('The lookup failed: {0}', describeError(error)), actions: actions('retry') };
  }
  if (error.kind === 'notFound' && request.kind === 'ask') {
    const said = error.detail ? `${vscode.l10n.t('The service said: "{0}".', error.detail)} ` : '';
    const name = modelLabel(request.model);
    const named = name === request.model ? `"${name}"` : `${name} ("${request.model}")`;
    return {
      message:
        `${vscode.l10n.t('The encyclopedia answered 404 Not Found to the model {0}.', named)} ${said}` +
        vscode.l10n.t(
          'The service may not know this model identifier: choose another model, or check "alphaAxo.encyclopedia.models" and "alphaAxo.baseUrl".',
        ),
      actions: actions('changeModel', 'openSettings'),
    };
  }
  if (error.kind === 'notFound' && request.kind === 'article') {
    return {
      message: vscode.l10n.t('The encyclopedia has no article titled {0}.', describeRequest(request)),
      actions: actions('search'),
    };
  }
  const action = error.action;
  if (action === 'setEncyclopediaKey' || action === 'setChatKey') {
    return { message: error.message, actions: actions('setEncyclopediaKey') };
  }
  if (action === 'openSettings') {
    return { message: error.message, actions: actions('openSettings') };
  }
  return { message: error.message, actions: action === 'retry' ? actions('retry') : [] };
}

/** The sentence and buttons for a lookup that came back empty. */
export function lookupEmpty(value: LookupValue, request: LookupRequest): LookupProblem {
  const what = describeRequest(request);
  switch (value.kind) {
    case 'answer':
      return {
        message: vscode.l10n.t('The encyclopedia has no answer to {0}.', what),
        actions: actions('search', 'changeModel'),
      };
    case 'search':
      return { message: vscode.l10n.t('No results for {0}.', what), actions: [] };
    case 'article':
      return {
        message: vscode.l10n.t('The article {0} is empty: the encyclopedia sent no text, facts or media.', what),
        actions: actions('search'),
      };
  }
}

/** The words of a request for a progress title: `Asking AXO.1 “…”`. */
export function progressTitle(request: LookupRequest): string {
  switch (request.kind) {
    case 'ask':
      return vscode.l10n.t('AXO: Asking {0} {1}', modelLabel(request.model), describeRequest(request));
    case 'search':
      return vscode.l10n.t('AXO: Searching for {0}', describeRequest(request));
    case 'article':
      return vscode.l10n.t('AXO: Opening the article {0}', describeRequest(request));
  }
}

/** The text to search for when the user picks "Search Instead". */
export function searchTextOf(request: LookupRequest): string {
  return cleanText(request.kind === 'article' ? request.title : request.query);
}
