/**
 * Media types compared as RFC 9110 says: the type and subtype are case-insensitive and parameters follow a `;`,
 * so `Text/Event-Stream; charset=UTF-8` is an event stream. Servers and proxies do write them that way.
 */

/** The `type/subtype` of a Content-Type header value, lower case, without parameters; '' when absent. */
export function mediaTypeOf(contentType: string | undefined): string {
  if (!contentType) {
    return '';
  }
  const semicolon = contentType.indexOf(';');
  return (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase();
}

/** Whether a Content-Type is `text/event-stream`, in any case, with any parameters. */
export function isEventStream(contentType: string | undefined): boolean {
  return mediaTypeOf(contentType) === 'text/event-stream';
}

/** Whether a Content-Type is JSON: `application/json` or any `…+json` type. */
export function isJsonType(contentType: string | undefined): boolean {
  const type = mediaTypeOf(contentType);
  return type === 'application/json' || type.endsWith('+json');
}

/** JSON Lines by the names servers give it (Ollama writes `application/x-ndjson`; RFC 7464's `json-seq`). */
const JSON_LINES_TYPES = new Set([
  'application/x-ndjson',
  'application/ndjson',
  'application/jsonl',
  'application/x-jsonl',
  'application/jsonlines',
  'application/x-jsonlines',
  'application/json-seq',
]);

/** Whether a Content-Type is a stream of JSON values, one per line (NDJSON, JSON Lines, JSON text sequences). */
export function isJsonLines(contentType: string | undefined): boolean {
  return JSON_LINES_TYPES.has(mediaTypeOf(contentType));
}
