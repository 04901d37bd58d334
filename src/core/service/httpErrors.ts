import { ServiceError, keyLabel, type KeyKind } from './errors';
import { proxyHost } from '../net/dispatchers';
import * as l10n from '@vscode/l10n';
import { boundedJson } from './jsonText';
import { mediaTypeOf } from '../net/mediaType';
import { decodeEntities, htmlText } from './htmlText';

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Payload Too Large',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/**
 * Maps a non-2xx response to a ServiceError with one clear sentence, naming the key where it matters. `scrub`
 * removes secrets from the service's words (the raw body, then the message found in it, before it is shortened).
 */
export function errorFromResponse(
  status: number,
  headers: Record<string, string>,
  body: string,
  keyKind: KeyKind,
  scrub: (text: string) => string = (text) => text,
): ServiceError {
  const detail = messageFromBody(scrub(body), headers['content-type'], scrub);
  const code = `${status}${STATUS_TEXT[status] ? ` ${STATUS_TEXT[status]}` : ''}`;
  const said = detail ? l10n.t('The service said: "{0}".', detail) : '';
  const opts = { status, keyKind, detail };
  const key = keyLabel(keyKind);
  if (status === 401) {
    return new ServiceError('badKey', sentences(l10n.t('The service rejected your {0} ({1}).', key, code), said), opts);
  }
  if (status === 403) {
    const sentence = l10n.t('Your {0} is not allowed to do this ({1}).', key, code);
    return new ServiceError('forbidden', sentences(sentence, said), opts);
  }
  if (status === 404) {
    return new ServiceError(
      'notFound',
      sentences(l10n.t('Not found ({0}).', code), said, l10n.t('Check the model name and "alphaAxo.baseUrl".')),
      opts,
    );
  }
  if (status === 413) {
    const sentence = l10n.t('The request is too large for the service ({0}).', code);
    return new ServiceError('tooLarge', sentences(sentence, said), opts);
  }
  if (status === 429) {
    const retryAfterSeconds = parseRetryAfter(headers['retry-after']);
    const when =
      retryAfterSeconds === undefined
        ? l10n.t('Try again in a moment.')
        : l10n.t('Try again in {0} s.', retryAfterSeconds);
    const sentence = l10n.t('The service is rate limiting requests ({0}).', code);
    return new ServiceError('rateLimited', sentences(sentence, said, when), {
      ...opts,
      retryAfterSeconds,
    });
  }
  if (status >= 500) {
    const retryAfterSeconds = parseRetryAfter(headers['retry-after']);
    const message = sentences(l10n.t('The service failed ({0}).', code), said, l10n.t('Try again later.'));
    return new ServiceError('server', message, {
      ...opts,
      retryAfterSeconds,
    });
  }
  return new ServiceError('badRequest', sentences(l10n.t('The service refused the request ({0}).', code), said), opts);
}

/** Joins sentences with one space, leaving out empty ones. */
function sentences(...parts: string[]): string {
  return parts.filter((part) => part !== '').join(' ');
}

/** Parses `Retry-After` (seconds or an HTTP date) into whole seconds, capped at one hour. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (!value) {
    return undefined;
  }
  const trimmed = value.trim();
  let seconds: number;
  if (/^\d+(\.\d+)?$/.test(trimmed)) {
    seconds = Number(trimmed);
  } else {
    const date = Date.parse(trimmed);
    if (Number.isNaN(date)) {
      return undefined;
    }
    seconds = (date - now) / 1000;
  }
  return Math.min(3600, Math.max(0, Math.ceil(seconds)));
}

/**
 * Pulls a short human message out of an error body: JSON shapes, HTML, or plain text. `scrub` runs on the decoded
 * message before it is shortened, so an escaped key is caught and a key cut in half is never shown.
 */
export function messageFromBody(
  body: string,
  contentType = '',
  scrub: (text: string) => string = (text) => text,
): string | undefined {
  const text = body.trim();
  if (!text) {
    return undefined;
  }
  const type = mediaTypeOf(contentType);
  if (text.startsWith('{') || text.startsWith('[') || type.includes('json')) {
    try {
      return clip(scrub(messageFromJson(JSON.parse(text))));
    } catch {
      // Not JSON after all: fall through to text.
    }
  }
  if (text.startsWith('<') || type.includes('html')) {
    return clip(scrub(decodeEntities(htmlText(text))));
  }
  return clip(scrub(text));
}

function messageFromJson(value: unknown, depth = 0): string {
  if (typeof value === 'string') {
    return value;
  }
  // Error lists nest rarely and shallowly; a body nested deeper is shown as (bounded) JSON, never overflowing.
  if (value && typeof value === 'object' && depth < 8) {
    const o = value as Record<string, unknown>;
    if (typeof o.error === 'string' && typeof o.error_description === 'string' && o.error_description.trim()) {
      // OAuth's form: a code in `error`, the sentence in `error_description`.
      return `${o.error_description} (${o.error})`;
    }
    // `errors: [{message}]` (many JSON APIs), `detail: [{msg}]` (FastAPI), `error_description` (OAuth).
    for (const field of ['error', 'message', 'detail', 'errors', 'error_description', 'msg', 'title']) {
      const inner = o[field];
      if (typeof inner === 'string' && inner.trim()) {
        return inner;
      }
      if (inner && typeof inner === 'object' && !Array.isArray(inner)) {
        const nested = inner as Record<string, unknown>;
        const message = nested.message ?? nested.detail;
        if (typeof message === 'string') {
          return typeof nested.code === 'string' ? `${message} (${nested.code})` : message;
        }
      }
      if (Array.isArray(inner) && inner.length > 0) {
        return inner
          .slice(0, 20)
          .map((item) => messageFromJson(item, depth + 1))
          .join('; ');
      }
    }
  }
  return boundedJson(value, { maxChars: 1000 }) ?? '';
}

function clip(text: string, max = 300): string | undefined {
  const one = text.replace(/\s+/g, ' ').trim();
  if (!one) {
    return undefined;
  }
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

const TLS_CODES = new Set([
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'ERR_SSL_WRONG_VERSION_NUMBER',
  'EPROTO',
]);

/** Codes for a certificate signed by an authority this machine's Node does not trust (a company's own CA). */
const UNTRUSTED_CA_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_ISSUER_CERT',
  'CERT_UNTRUSTED',
]);

/** Failures to open a socket at all: with a proxy in use, that socket is the proxy's. */
const CONNECT_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'ECONNREFUSED', 'UND_ERR_CONNECT_TIMEOUT', 'EHOSTUNREACH']);

/**
 * Maps a transport failure (DNS, refused, TLS, timeouts, a dropped socket) to a ServiceError. `proxy` is the
 * proxy the request went through, if any: failing to reach it is reported as the proxy's failure.
 */
export function errorFromTransport(
  error: unknown,
  url: URL,
  timeoutMs: number,
  keyKind: KeyKind,
  proxy?: string,
): ServiceError {
  if (error instanceof ServiceError) {
    return error;
  }
  const code = transportCode(error);
  const where = url.host;
  if (proxy && code && (CONNECT_CODES.has(code) || code.startsWith('UND_ERR_SOCKS'))) {
    return proxyFailure(error, code, proxy, where, timeoutMs, keyKind);
  }
  const tlsMessage = code ? certificateMessage(code, where) : undefined;
  if (tlsMessage) {
    return new ServiceError('tls', tlsMessage, { cause: error, keyKind });
  }
  const proxyStatus = /Proxy response \((\d{3})\)/.exec(messageOf(error))?.[1];
  if (proxyStatus) {
    const message =
      proxyStatus === '407'
        ? l10n.t(
            'The proxy refused to connect to {0} (407: the proxy wants other credentials). Check "http.proxy".',
            where,
          )
        : l10n.t('The proxy refused to connect to {0} ({1}). Check "http.proxy".', where, proxyStatus);
    return new ServiceError('network', message, {
      cause: error,
      keyKind,
    });
  }
  const seconds = Math.round(timeoutMs / 1000);
  const opts = { cause: error, keyKind };
  switch (code) {
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new ServiceError('network', l10n.t('Cannot find the server {0} (DNS lookup failed).', url.hostname), opts);
    case 'ECONNREFUSED':
      return new ServiceError(
        'network',
        l10n.t('The server at {0} refused the connection. Is the service running?', where),
        opts,
      );
    case 'UND_ERR_CONNECT_TIMEOUT':
      return new ServiceError('timeout', l10n.t('Could not connect to {0} within {1} s.', where, seconds), opts);
    case 'UND_ERR_HEADERS_TIMEOUT':
      return new ServiceError(
        'timeout',
        l10n.t('The service at {0} did not answer within {1} s.', where, seconds),
        opts,
      );
    case 'UND_ERR_BODY_TIMEOUT':
      return new ServiceError('timeout', l10n.t('The service stopped sending for {0} s.', seconds), opts);
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
    case 'EPIPE':
      return new ServiceError('network', l10n.t('The connection to {0} was closed unexpectedly.', where), opts);
    default:
      return new ServiceError('network', l10n.t('Could not reach {0}: {1}.', where, messageOf(error)), opts);
  }
}

/** The sentence for a TLS failure: what is wrong with the certificate and, for an unknown CA, how to trust it. */
function certificateMessage(code: string, where: string): string | undefined {
  if (UNTRUSTED_CA_CODES.has(code)) {
    return l10n.t(
      'The certificate of {0} is not trusted ({1}): if your company uses its own certificate authority, turn on "http.systemCertificates" with it in the system store, or point NODE_EXTRA_CA_CERTS at its PEM file and restart VS Code.',
      where,
      code,
    );
  }
  if (code === 'CERT_HAS_EXPIRED') {
    return l10n.t('The certificate of {0} has expired ({1}).', where, code);
  }
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    return l10n.t('The certificate of {0} is for another host name ({1}). Check "alphaAxo.baseUrl".', where, code);
  }
  if (TLS_CODES.has(code) || code.startsWith('ERR_TLS') || code.startsWith('ERR_SSL')) {
    return l10n.t('The secure connection to {0} failed ({1}).', where, code);
  }
  return undefined;
}

function proxyFailure(
  error: unknown,
  code: string,
  proxy: string,
  where: string,
  timeoutMs: number,
  keyKind: KeyKind,
): ServiceError {
  const host = proxyHost(proxy);
  const opts = { cause: error, keyKind };
  switch (code) {
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new ServiceError(
        'network',
        l10n.t('Cannot find the proxy {0} (DNS lookup failed). Check "http.proxy".', host),
        opts,
      );
    case 'ECONNREFUSED':
    case 'EHOSTUNREACH':
      return new ServiceError(
        'network',
        l10n.t('The proxy {0} refused the connection. Check "http.proxy".', host),
        opts,
      );
    case 'UND_ERR_CONNECT_TIMEOUT':
      return new ServiceError(
        'timeout',
        l10n.t(
          'Could not connect to the proxy {0} within {1} s. Check "http.proxy".',
          host,
          Math.round(timeoutMs / 1000),
        ),
        opts,
      );
    case 'UND_ERR_SOCKS5_AUTH_REJECTED':
    case 'UND_ERR_SOCKS5_AUTH_FAILED':
      return new ServiceError(
        'network',
        l10n.t('The SOCKS proxy {0} refused the credentials. Check "http.proxy" and "http.proxyAuthorization".', host),
        opts,
      );
    default:
      return new ServiceError(
        'network',
        l10n.t('The SOCKS proxy {0} could not connect to {1} ({2}).', host, where, messageOf(error)),
        opts,
      );
  }
}

function transportCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') {
      return code;
    }
    const errors = (current as { errors?: unknown[] }).errors;
    current = Array.isArray(errors) && errors.length ? errors[0] : (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message.replace(/\.$/, '') : String(error);
}
