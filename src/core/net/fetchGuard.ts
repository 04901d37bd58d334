import { lookup as systemLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { ServiceError } from '../service/errors';
import * as l10n from '@vscode/l10n';
import { ipLiteralOf, isForbiddenAddress } from './netAddress';

/**
 * The rule for fetches a page asks for (an image in a reply or an article): http(s) only, and never an address
 * on the user's machine or network, unless it is the service's own origin (`alphaAxo.baseUrl`, which may well be
 * a local server). Checked on every redirect hop, against the addresses the name resolves to.
 */
export interface FetchGuard {
  /** The origin (`http://host:port`) of `alphaAxo.baseUrl`, which may be private; undefined when unset. */
  allowedOrigin?: string;
}

/** Resolves every address of a host name through `lookup` (the system resolver when absent). */
export function resolveAll(hostname: string, lookup: LookupFunction = systemLookup): Promise<string[]> {
  return new Promise((resolve, reject) => {
    lookup(hostname, { all: true }, (error, addresses: string | LookupAddress[]) => {
      if (error) {
        reject(error);
        return;
      }
      resolve(Array.isArray(addresses) ? addresses.map((a) => a.address) : [addresses]);
    });
  });
}

function refused(url: URL): ServiceError {
  return new ServiceError(
    'badRequest',
    l10n.t('{0} is on this computer or a private network, so it is not loaded.', url.host),
  );
}

/**
 * Throws when `url` may not be fetched: not http(s), or its host is (or resolves to) a loopback, private or
 * link-local address and is not the allowed origin. Every resolved address must pass, since the connection may
 * use any of them.
 */
export async function checkFetchTarget(url: URL, guard: FetchGuard, lookup?: LookupFunction): Promise<void> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ServiceError('badRequest', l10n.t('Only http and https images can be shown.'));
  }
  if (guard.allowedOrigin !== undefined && url.origin === guard.allowedOrigin) {
    return;
  }
  const literal = ipLiteralOf(url);
  let addresses: string[];
  try {
    addresses = literal ? [literal] : await resolveAll(url.hostname, lookup);
  } catch (error) {
    throw new ServiceError('network', l10n.t('Cannot find the server {0} (DNS lookup failed).', url.hostname), {
      cause: error,
    });
  }
  if (!addresses.length || addresses.some(isForbiddenAddress)) {
    throw refused(url);
  }
}

/**
 * A resolver for the connections of such fetches: it answers like `lookup`, but fails for a name that resolves
 * to a forbidden address. Connecting through it closes the gap between the check and the connection (a name
 * that answers a public address to the check and a private one to the connection).
 */
export function guardedLookup(guard: FetchGuard, lookup: LookupFunction = systemLookup): LookupFunction {
  const allowedHost = guard.allowedOrigin ? hostOf(guard.allowedOrigin) : undefined;
  return (hostname, options, callback) => {
    lookup(hostname, options, (error, address: string | LookupAddress[], family?: number) => {
      if (error) {
        callback(error, address as string, family);
        return;
      }
      const all = Array.isArray(address) ? address.map((a) => a.address) : [address];
      if (hostname !== allowedHost && all.some(isForbiddenAddress)) {
        const refusal = Object.assign(refused(new URL(`http://${hostname}`)), { code: 'EADDRNOTAVAIL' });
        callback(refusal, address as string, family);
        return;
      }
      callback(null, address as string, family);
    });
  };
}

function hostOf(origin: string): string | undefined {
  const parsed = originOf(origin);
  return parsed ? new URL(parsed).hostname : undefined;
}

/** The origin of a URL setting such as `alphaAxo.baseUrl`, or undefined when it is unset or not a URL. */
export function originOf(raw: string | undefined): string | undefined {
  try {
    return raw?.trim() ? new URL(raw.trim()).origin : undefined;
  } catch {
    return undefined;
  }
}
