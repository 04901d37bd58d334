import { pipeline, Readable } from 'node:stream';
import * as zlib from 'node:zlib';
import type { Dispatcher } from 'undici';
import * as l10n from '@vscode/l10n';
import { ServiceError, isAbortError } from '../service/errors';
import type { SecretScrubber } from '../service/secretScrubber';

/**
 * Reading a response's body: decoding its content encoding, reading it whole within a bound, draining or closing
 * what is left of it.
 */

/** A successful (2xx) response whose body has not been read yet. */
export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  body: AsyncIterable<Uint8Array>;
  /** Reads the whole body as UTF-8 text (bounded), with the session's keys removed. */
  text(): Promise<string>;
  /** The same response reading `body` instead (its body replayed after a look at its start), keys removed alike. */
  withBody(body: AsyncIterable<Uint8Array>): HttpResponse;
  /**
   * Stops reading. With `graceMs`, the rest of the body is drained for that long so the response can end by
   * itself and its keep-alive connection be reused (a stream after `[DONE]`); past that, or without it, the
   * body is destroyed, which closes the connection.
   */
  dispose(graceMs?: number): void;
}

/** The most a whole (not streamed) body may decode to. */
export const MAX_TEXT_BYTES = 32 * 1024 * 1024;

/** A 2xx response as the clients read it (see `HttpResponse`). */
export function wrapResponse(
  res: Dispatcher.ResponseData,
  headers: Record<string, string>,
  signal: AbortSignal | undefined,
  scrubber: SecretScrubber,
  body: AsyncIterable<Uint8Array> = decodedBody(res.body, headers['content-encoding']),
): HttpResponse {
  return {
    status: res.statusCode,
    headers,
    body,
    text: async () => {
      try {
        return scrubber.scrubKeys(await readText(body, MAX_TEXT_BYTES));
      } catch (error) {
        if (isAbortError(error) || signal?.aborted) {
          throw new ServiceError('aborted', l10n.t('The request was cancelled.'), { cause: error });
        }
        throw error;
      }
    },
    withBody: (other) => wrapResponse(res, headers, signal, scrubber, other),
    dispose: (graceMs = 0) => (graceMs > 0 ? drainFor(res.body, graceMs) : discard(res.body)),
  };
}

/**
 * A body as the server wrote it before its `content-encoding` (gzip, deflate or br), decoded as it arrives: the
 * client asks for no encoding, but some servers and proxies compress anyway. Bytes in any other encoding (or none)
 * pass as they are. A truncated compressed stream yields what it decoded (the reply then ends as cut off).
 */
export function decodedBody(raw: AsyncIterable<Uint8Array>, encoding: string | undefined): AsyncIterable<Uint8Array> {
  const name = encoding?.trim().toLowerCase();
  const decoder =
    name === 'gzip' || name === 'x-gzip'
      ? () => zlib.createGunzip({ finishFlush: zlib.constants.Z_SYNC_FLUSH })
      : name === 'deflate'
        ? () => zlib.createInflate({ finishFlush: zlib.constants.Z_SYNC_FLUSH })
        : name === 'br'
          ? () => zlib.createBrotliDecompress({ finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH })
          : undefined;
  if (!decoder) {
    return raw;
  }
  const out = decoder();
  // An error of the raw body (an abort, a reset) reaches the reader as that same error.
  pipeline(Readable.from(raw, { objectMode: false }), out, () => undefined);
  return out;
}

/** Bodies being drained after their reply completed: the next request waits briefly for their socket. */
export const draining = new WeakSet<Dispatcher.ResponseData['body']>();
/** How long a request waits for a draining response to end, so it can take that response's socket. */
export const DRAIN_WAIT_MS = 50;

/** Reads and drops what is left of a body for up to `graceMs`, then closes it if it has not ended. */
export function drainFor(body: Dispatcher.ResponseData['body'], graceMs: number): void {
  if (body.destroyed || body.readableEnded) {
    return;
  }
  draining.add(body);
  body.on('error', () => undefined);
  const timer = setTimeout(() => discard(body), graceMs);
  timer.unref();
  body.once('close', () => clearTimeout(timer));
  body.once('end', () => clearTimeout(timer));
  // Read rather than resume(): an async iterator may still hold a 'readable' listener, which resume() defers to.
  const drain = () => {
    while (body.read() !== null) {
      // Dropped: the reply already has everything it needs.
    }
  };
  body.on('readable', drain);
  drain();
}

/** Closes a body we no longer read; the abort error that destroying it raises is expected, not a failure. */
export function discard(body: Dispatcher.ResponseData['body']): void {
  if (!body.destroyed) {
    body.on('error', () => undefined);
    body.destroy();
  }
}

/** Reads a whole body as UTF-8 text, failing with a clear sentence past `limit` bytes. */
export async function readText(body: AsyncIterable<Uint8Array>, limit: number = MAX_TEXT_BYTES): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  let size = 0;
  for await (const chunk of body) {
    size += chunk.byteLength;
    if (size > limit) {
      throw new ServiceError('badResponse', l10n.t('The service sent more than {0} KB.', Math.round(limit / 1024)));
    }
    text += decoder.decode(chunk, { stream: true });
  }
  return text + decoder.decode();
}

/** Header names in lower case, repeated values joined. */
export function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) {
      out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
    }
  }
  return out;
}

/** A header's (first) value. */
export function headerOf(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}
