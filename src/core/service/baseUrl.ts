import { ServiceError } from './errors';
import * as l10n from '@vscode/l10n';
import { trimEndOf } from '../../shared/trimChars';

/**
 * Parses the user's `alphaAxo.baseUrl` into the service root (the URL that `/v1/...` is appended to).
 * Accepts any http(s) URL, loopback included, with or without a trailing `/` or `/v1`.
 */
export function parseBaseUrl(raw: string | undefined): URL {
  const text = (raw ?? '').trim();
  if (!text) {
    throw new ServiceError(
      'config',
      l10n.t(
        'No service URL is set. Set "alphaAxo.baseUrl" to the service\'s base URL (for example {0}).',
        'https://api.example.com',
      ),
    );
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ServiceError('config', l10n.t('The service URL "{0}" in "alphaAxo.baseUrl" is not a valid URL.', text));
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ServiceError(
      'config',
      l10n.t(
        'The service URL "{0}" in "alphaAxo.baseUrl" must start with http:// or https://, not {1}//.',
        text,
        url.protocol,
      ),
    );
  }
  if (url.username || url.password) {
    throw new ServiceError(
      'config',
      l10n.t('The service URL in "alphaAxo.baseUrl" must not contain a user name or password.'),
    );
  }
  url.search = '';
  url.hash = '';
  let path = trimEndOf(url.pathname, '/');
  if (/\/v1$/i.test(path)) {
    path = path.slice(0, -3);
  }
  url.pathname = `${path}/`;
  return url;
}

/**
 * Builds the absolute URL of an endpoint path like `v1/alpha` with percent-encoded query parameters. Spaces are
 * written as `+` by default, or as `%20` where the spec does not show `+` (`spaces: '%20'`); a literal `+` is
 * always `%2B`.
 */
export function endpointUrl(
  base: URL,
  path: string,
  query?: Record<string, string | undefined>,
  spaces: '+' | '%20' = '+',
): URL {
  const url = new URL(path.replace(/^\/+/, ''), base);
  if (query) {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) {
      if (value !== undefined) {
        params.append(name, value);
      }
    }
    // URLSearchParams writes every space as `+` and every literal `+` as `%2B`, so each `+` here is a space.
    const search = params.toString();
    url.search = spaces === '+' ? search : search.replace(/\+/g, '%20');
  }
  return url;
}
