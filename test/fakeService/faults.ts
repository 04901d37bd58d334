/*
 * Fault modes of the fake service. A request gets at most one fault, taken from (first match wins):
 * the `X-Fake-Fault` header, a `#fault:MODE` directive (last user message of a chat; `q`/`title` of the
 * encyclopedia, where it is stripped before matching), or the `setFault` / `POST /__fake/fault` queue
 * (entries match by path prefix, each used `times` times). A request carrying `fake_nofault=1` gets none.
 * Unknown faults are refused (setFault throws, the control endpoint and requests answer 400).
 *
 * - status: 401 403 404 413 429 (Retry-After: 2) 429-noretry 500 502 503 (any 4xx/5xx works), with an
 *   optional body kind `:json` (default) `:html` `:empty` `:text` `:message` `:detail` `:string`.
 * - stream (POST /v1/alpha with stream): cut, stall, stall-headers, slow, bad-json, no-content, error-event,
 *   error-event:named (`event: error` and a payload of only a `message`; in JSON lines, `type: "error"`),
 *   done-then-more, crlf, cr, bom, comments, big-event, no-space; chunks:openai|anthropic|ollama|gemini (each event
 *   as that server writes it, see chunkPayload in sseStream.ts).
 * - any endpoint: bad-json (truncated JSON body), non-json (200 HTML page), redirect (302, or 307 for POST, to
 *   the same path), redirect-other-origin (same, to the second listener), stall-headers, slow-headers (1.5 s),
 *   cut / stall on JSON bodies (half the body, then destroyed / held), shape:NAME[,NAME] (like X-Fake-Shape).
 *   Stream-only faults on a non-stream request are ignored.
 * - echo-key (any endpoint, as real services do): the key the request presented comes back in the answer.
 *   `echo-key` is a 401 JSON body ("Incorrect API key provided: <key>"), `echo-key:html` a 500 HTML page quoting
 *   the key and the Authorization header, `echo-key:stream` (streamed chat only) an SSE error event quoting it
 *   after a few content events.
 *
 * How a stream is framed is not a fault but a separate choice that combines with any of them (see `Framing` in
 * sseStream.ts): the `X-Fake-Framing` header, a `#framing:NAME` directive, or the service-wide `framing` option
 * (`--framing` on the CLI, `setFraming`). `lines` sends one `data:` line per event, no blank line, and holds the
 * connection open for 3 s after `data: [DONE]`.
 */
import type * as http from 'node:http';

/** How an error body is written: see `STATUS_BODY_KINDS`. */
export type StatusBodyKind = 'json' | 'html' | 'empty' | 'text' | 'message' | 'detail' | 'string';

/** Every body kind a status fault accepts after its `:`. */
export const STATUS_BODY_KINDS: readonly StatusBodyKind[] = [
  'json',
  'html',
  'empty',
  'text',
  'message',
  'detail',
  'string',
];

/** The status faults the fake documents (any other 4xx/5xx code is accepted too). */
export const STATUS_FAULTS: readonly string[] = ['401', '403', '404', '413', '429', '429-noretry', '500', '502', '503'];

/** Faults that shape an SSE stream of `/v1/alpha` (`cut` and `stall` also act on JSON bodies). */
export const STREAM_FAULTS: readonly string[] = [
  'cut',
  'stall',
  'stall-headers',
  'slow',
  'bad-json',
  'no-content',
  'error-event',
  'error-event:named',
  'done-then-more',
  'crlf',
  'cr',
  'bom',
  'comments',
  'big-event',
  'no-space',
];

/** Faults that send the presented key back (see the file comment). */
export const ECHO_KEY_FAULTS: readonly string[] = ['echo-key', 'echo-key:html', 'echo-key:stream'];

/** The message every echo-key fault quotes the key in, as some real services word their 401. */
export function echoKeyMessage(key: string): string {
  return `Incorrect API key provided: ${key}. You can find your API key at https://example.invalid/account/keys.`;
}

/** The bearer token of an Authorization header, or a placeholder when none came. */
export function presentedKey(authorization: string | undefined): string {
  return /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1] ?? '(no key)';
}

/** The 401 JSON or 500 HTML answer of `echo-key` / `echo-key:html`, quoting `key`. */
export function echoKeyResponse(
  fault: string,
  key: string,
): { status: number; headers: http.OutgoingHttpHeaders; body: string } {
  if (fault === 'echo-key:html') {
    // No <title> or <h1>: a client that shows the page's text shows the key unless it removes it.
    const body = `<!DOCTYPE html><html><body><p>Internal error while checking the key ${key} for this request.</p><pre>Authorization: Bearer ${key}\nX-Request-Id: 8c1f</pre></body></html>`;
    return { status: 500, headers: { 'content-type': 'text/html; charset=utf-8' }, body };
  }
  const error = { message: echoKeyMessage(key), type: 'invalid_request_error', param: null, code: 'invalid_api_key' };
  return { status: 401, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ error }) };
}

/** Faults that act on any endpoint before it answers. */
export const OTHER_FAULTS: readonly string[] = [
  'bad-json',
  'non-json',
  'redirect',
  'redirect-other-origin',
  'stall-headers',
  'slow-headers',
];

/** A parsed status fault. */
export interface StatusFault {
  status: number;
  retryAfter: boolean;
  kind: StatusBodyKind;
}

/** Parses `500`, `502:html`, `429-noretry:empty`…; undefined when the text is not a status fault. */
export function parseStatusFault(fault: string): StatusFault | undefined {
  const m = /^([45]\d\d)(-noretry)?(?::([a-z]+))?$/.exec(fault);
  if (!m) {
    return undefined;
  }
  const kind = (m[3] ?? 'json') as StatusBodyKind;
  if (!STATUS_BODY_KINDS.includes(kind)) {
    return undefined;
  }
  const status = Number(m[1]);
  return { status, retryAfter: status === 429 && !m[2], kind };
}

const MESSAGES: Record<number, [string, string, string]> = {
  400: ['Bad Request', 'Bad request', 'bad_request'],
  401: ['Unauthorized', 'Invalid API key', 'invalid_api_key'],
  403: ['Forbidden', 'This API key is not allowed to use this endpoint', 'forbidden'],
  404: ['Not Found', 'Not found', 'not_found'],
  405: ['Method Not Allowed', 'Method not allowed', 'method_not_allowed'],
  413: ['Payload Too Large', 'Request body too large (limit 2 MB)', 'payload_too_large'],
  429: ['Too Many Requests', 'Rate limit exceeded, slow down', 'rate_limit_exceeded'],
  500: ['Internal Server Error', 'The server had an error while processing your request', 'internal_error'],
  502: ['Bad Gateway', 'Bad gateway', 'bad_gateway'],
  503: ['Service Unavailable', 'The service is temporarily unavailable', 'service_unavailable'],
};

/** Reason phrase, message and code the fake uses for a status. */
export function statusTexts(status: number): { reason: string; message: string; code: string } {
  const [reason, message, code] = MESSAGES[status] ?? [`Status ${status}`, `Error ${status}`, `error_${status}`];
  return { reason, message, code };
}

/** The headers and body a status fault answers with. */
export function statusFaultResponse(fault: StatusFault): {
  headers: http.OutgoingHttpHeaders;
  body: string;
} {
  const { reason, message, code } = statusTexts(fault.status);
  const headers: http.OutgoingHttpHeaders = fault.retryAfter ? { 'retry-after': '2' } : {};
  const json = (value: unknown) => {
    headers['content-type'] = 'application/json';
    return JSON.stringify(value);
  };
  let body: string;
  switch (fault.kind) {
    case 'html':
      headers['content-type'] = 'text/html; charset=utf-8';
      body = `<!DOCTYPE html><html><body><h1>${fault.status} ${reason}</h1></body></html>`;
      break;
    case 'empty':
      body = '';
      break;
    case 'text':
      headers['content-type'] = 'text/plain; charset=utf-8';
      body = `${fault.status} ${reason}: ${message}`;
      break;
    case 'message':
      body = json({ message });
      break;
    case 'detail':
      body = json({ detail: message });
      break;
    case 'string':
      body = json({ error: message });
      break;
    default:
      body = json({ error: { message, code } });
  }
  return { headers, body };
}

/**
 * Chunk forms of other servers, chosen by the `chunks:FORM` fault: each stream event's payload as that server writes
 * it instead of the spec's `{"content": …}`, with the events around the text that server sends (sseStream.ts).
 */
export const CHUNK_FORMS: readonly string[] = ['openai', 'anthropic', 'ollama', 'gemini'];

/** Whether the fake knows a fault: a status fault, a stream or other fault, or `shape:NAME[,NAME]`. */
export function isKnownFault(fault: string): boolean {
  return (
    parseStatusFault(fault) !== undefined ||
    STREAM_FAULTS.includes(fault) ||
    OTHER_FAULTS.includes(fault) ||
    ECHO_KEY_FAULTS.includes(fault) ||
    /^shape:[a-z-]+(,[a-z-]+)*$/.test(fault) ||
    CHUNK_FORMS.some((form) => fault === `chunks:${form}`)
  );
}

/** One entry of the fault queue. */
export interface QueuedFault {
  fault: string;
  path?: string;
  times: number;
}

/** The `setFault` queue: entries match by path prefix, first match first, each consumed `times` times. */
export class FaultQueue {
  private entries: QueuedFault[] = [];

  /** Appends an entry; `times` defaults to 1. */
  add(fault: string, opts: { path?: string; times?: number } = {}): void {
    if (!isKnownFault(fault)) {
      throw new Error(`Unknown fake fault '${fault}'`);
    }
    const times = opts.times ?? 1;
    if (!Number.isInteger(times) || times < 1) {
      throw new Error(`times must be a positive integer, got ${String(opts.times)}`);
    }
    this.entries.push({ fault, path: opts.path, times });
  }

  /** Takes one use of the first entry whose path prefix matches, if any. */
  take(pathname: string): string | undefined {
    const i = this.entries.findIndex((e) => e.path === undefined || pathname.startsWith(e.path));
    if (i < 0) {
      return undefined;
    }
    const entry = this.entries[i];
    entry.times--;
    if (entry.times === 0) {
      this.entries.splice(i, 1);
    }
    return entry.fault;
  }

  /** Drops every entry. */
  clear(): void {
    this.entries = [];
  }
}
