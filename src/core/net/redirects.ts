import * as l10n from '@vscode/l10n';
import { ServiceError, type KeyKind } from '../service/errors';

/**
 * The one redirect a service call follows: the same host, from `http` to `https`, both on their default ports (a
 * server that upgrades every plain request). The request goes again as it was, key and body included: it is still
 * the service, now over TLS.
 *
 * Any other hop is refused, and neither the key nor the body goes anywhere: the spec has no redirects, and a `303`
 * to an intranet or cloud-metadata address would have the extension fetch that address, show it as the reply and
 * send it back to the service with the next prompt (a `307`/`308` would re-send the prompt and its attachments to
 * another origin). Public fetches (images) follow their own rules: `fetchGuard`.
 *
 * Returns the URL to request next, or the error that says where the service tried to send the request.
 */
export function serviceRedirect(from: URL, location: string, status: number, keyKind: KeyKind): URL | ServiceError {
  let next: URL | undefined;
  try {
    next = new URL(location, from);
  } catch {
    next = undefined;
  }
  if (next && isHttpsUpgrade(from, next)) {
    return next;
  }
  // Where, without a query or a fragment (they may carry tokens of the other side); a location that is no URL is
  // shown as written, shortened.
  const where = next ? `${next.origin}${next.pathname}` : JSON.stringify(location.slice(0, 200));
  return new ServiceError(
    'config',
    l10n.t(
      'The service answered {0} and tried to send the request on to {1}; it was not sent there, because service requests do not follow redirects: check "alphaAxo.baseUrl".',
      status,
      where,
    ),
    { status, keyKind },
  );
}

/** The same host, from `http` to `https`, both on the default ports, with no credentials in the URL. */
function isHttpsUpgrade(from: URL, next: URL): boolean {
  return (
    from.protocol === 'http:' &&
    next.protocol === 'https:' &&
    from.hostname === next.hostname &&
    from.port === '' &&
    next.port === '' &&
    next.username === '' &&
    next.password === ''
  );
}
