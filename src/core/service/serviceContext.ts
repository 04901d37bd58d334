import { endpointUrl, parseBaseUrl } from './baseUrl';
import { ServiceError, isAbortError, keyLabel, type KeyKind } from './errors';
import type { HttpClient } from '../net/http';
import type { HttpResponse } from '../net/responseBody';
import type { Logger } from '../logger';
import * as l10n from '@vscode/l10n';
import { mediaTypeOf } from '../net/mediaType';

/** Returns the stored key of a kind, or undefined when none is set. */
export type KeyProvider = (kind: KeyKind) => Promise<string | undefined>;

/** What both service clients need: the HTTP layer, where the service is, and the keys. */
export interface ServiceContext {
  http: HttpClient;
  /** The raw `alphaAxo.baseUrl` setting, read fresh each request. */
  baseUrl: () => string | undefined;
  keys: KeyProvider;
  log: Logger;
}

/** Resolves the key of a kind or throws `missingKey` with the action to set it. */
export async function requireKey(ctx: ServiceContext, kind: KeyKind): Promise<string> {
  const key = (await ctx.keys(kind))?.trim();
  if (!key) {
    const message =
      kind === 'chat'
        ? l10n.t('No {0} is set. Set it to use ALPHA chat.', keyLabel(kind))
        : l10n.t('No {0} is set. Set it to use the AXO encyclopedia.', keyLabel(kind));
    throw new ServiceError('missingKey', message, {
      keyKind: kind,
    });
  }
  return key;
}

/** Builds an endpoint URL from the current base URL (spaces in the query as `+` unless told `%20`). */
export function urlFor(
  ctx: ServiceContext,
  path: string,
  query?: Record<string, string | undefined>,
  spaces: '+' | '%20' = '+',
): URL {
  return endpointUrl(parseBaseUrl(ctx.baseUrl()), path, query, spaces);
}

/** Reads a JSON body; a body that is not JSON becomes a `badResponse` error quoting its start. */
export async function readJson(res: HttpResponse, keyKind: KeyKind, signal?: AbortSignal): Promise<unknown> {
  let text: string;
  try {
    text = await res.text();
  } catch (error) {
    if (isAbortError(error) || signal?.aborted) {
      throw new ServiceError('aborted', l10n.t('The request was cancelled.'), { cause: error, keyKind });
    }
    throw error instanceof ServiceError
      ? error
      : new ServiceError('network', l10n.t('The connection closed while the answer was being read.'), {
          cause: error,
          keyKind,
        });
  }
  const type = res.headers['content-type'] ?? '';
  if (mediaTypeOf(type) === 'text/plain') {
    return text;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    const start = text.replace(/\s+/g, ' ').trim().slice(0, 120);
    throw new ServiceError(
      'badResponse',
      start
        ? l10n.t(
            'The service sent something that is not JSON ({0}): "{1}"',
            type || l10n.t('no content type'),
            `${start}${text.length > 120 ? '…' : ''}`,
          )
        : l10n.t('The service sent an empty answer.'),
      { keyKind },
    );
  }
}

/** Throws a `badRequest` error with `emptyMessage` when text is empty or only white space. */
export function requireText(text: string | undefined, emptyMessage: string): string {
  const cleaned = (text ?? '').replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, '').trim();
  if (!cleaned) {
    throw new ServiceError('badRequest', emptyMessage);
  }
  return cleaned;
}
