import { ServiceError, describeError } from '../../core/errors';
import { cleanText, describeRequest, type LookupRequest, type LookupValue } from '../../core/encyclopedia/lookupTypes';
import { ACTION_LABELS } from '../../host/errorActions';
import type { ActionView, ViewAction } from '../../protocol/encyclopediaProtocol';
import { modelLabel } from './encyclopediaConfig';

/** A failed or empty lookup, as one sentence and the buttons that fit. */
export interface LookupProblem {
  message: string;
  actions: ActionView[];
}

const LABELS: Record<ViewAction, string> = {
  retry: ACTION_LABELS.retry,
  setEncyclopediaKey: ACTION_LABELS.setEncyclopediaKey,
  openSettings: ACTION_LABELS.openSettings,
  changeModel: 'Change Model',
  search: 'Search Instead',
};

function actions(...list: ViewAction[]): ActionView[] {
  return list.map((action) => ({ action, label: LABELS[action] }));
}

/** The sentence and buttons for a lookup that failed. */
export function lookupFailure(error: unknown, request: LookupRequest): LookupProblem {
  if (!(error instanceof ServiceError)) {
    return { message: `The lookup failed: ${describeError(error)}`, actions: actions('retry') };
  }
  if (error.kind === 'notFound' && request.kind === 'ask') {
    const said = error.detail ? ` The service said: "${error.detail}".` : '';
    const label = modelLabel(request.model);
    const named = label === request.model ? `"${label}"` : `${label} ("${request.model}")`;
    return {
      message:
        `The encyclopedia answered 404 Not Found to the model ${named}.${said} ` +
        'The service may not know this model identifier: choose another model, or check ' +
        '"alphaAxo.encyclopedia.models" and "alphaAxo.baseUrl".',
      actions: actions('changeModel', 'openSettings'),
    };
  }
  if (error.kind === 'notFound' && request.kind === 'article') {
    return {
      message: `The encyclopedia has no article titled ${describeRequest(request)}.`,
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
        message: `The encyclopedia has no answer to ${what}.`,
        actions: actions('search', 'changeModel'),
      };
    case 'search':
      return { message: `No results for ${what}.`, actions: [] };
    case 'article':
      return {
        message: `The article ${what} is empty: the encyclopedia sent no text, facts or media.`,
        actions: actions('search'),
      };
  }
}

/** The words of a request for a progress title: `Asking AXO.1 “…”`. */
export function progressTitle(request: LookupRequest): string {
  switch (request.kind) {
    case 'ask':
      return `AXO: Asking ${modelLabel(request.model)} ${describeRequest(request)}`;
    case 'search':
      return `AXO: Searching for ${describeRequest(request)}`;
    case 'article':
      return `AXO: Opening the article ${describeRequest(request)}`;
  }
}

/** The text to search for when the user picks "Search Instead". */
export function searchTextOf(request: LookupRequest): string {
  return cleanText(request.kind === 'article' ? request.title : request.query);
}
