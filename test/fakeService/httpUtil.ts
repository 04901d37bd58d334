import type * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ParsedBody } from './context';

/** Largest request body accepted; larger ones get 413. */
export const MAX_BODY_BYTES = 2 * 1024 * 1024;

/** A request body as read (up to MAX_BODY_BYTES kept). */
export interface ReadBody {
  text: string;
  tooLarge: boolean;
  complete: boolean;
}

/** Reads a request body, keeping at most MAX_BODY_BYTES; resolves (incomplete) if the client goes away. */
export function readBody(req: http.IncomingMessage): Promise<ReadBody> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (complete: boolean) =>
      resolve({ text: Buffer.concat(chunks).toString('utf8'), tooLarge: size > MAX_BODY_BYTES, complete });
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) {
        chunks.push(chunk);
      }
    });
    req.on('end', () => finish(true));
    req.on('close', () => finish(false));
    req.on('error', () => finish(false));
  });
}

/** JSON when it parses, text otherwise, none when empty or too large. */
export function parseBody(read: ReadBody): ParsedBody {
  if (read.tooLarge || read.text === '') {
    return { kind: 'none' };
  }
  try {
    return { kind: 'json', value: JSON.parse(read.text) as unknown };
  } catch {
    return { kind: 'text', value: read.text };
  }
}

/** A request header as one trimmed string ('' when absent). */
export function headerText(req: http.IncomingMessage, name: string): string {
  const value = req.headers[name];
  return (Array.isArray(value) ? value.join(',') : (value ?? '')).trim();
}

/** The text a `#fault:MODE` directive is looked for in: the last user message, or the `q`/`title` parameters. */ /** `http://host:port` of a listening server (wildcard hosts shown as 127.0.0.1). */
export function originOf(server: http.Server, host: string): string {
  const { port } = server.address() as AddressInfo;
  const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return `http://${shown}:${port}`;
}

/** Listens and resolves once bound. */
export function listen(server: http.Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** Closes a server, dropping open connections. */
export function stop(server: http.Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
