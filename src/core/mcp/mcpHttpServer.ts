import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../logger';
import { describeError } from '../service/errors';
import type { AxoToolRunner } from './axoToolRunner';
import { createAxoMcpServer } from './mcpServer';

/** The one path the server answers on. */
export const MCP_PATH = '/mcp';
/** Largest request body taken (bytes): a tool call is a few hundred. */
export const MAX_MCP_BODY_BYTES = 64 * 1024;
/** Most requests handled at once; more are answered 503 with `Retry-After`. */
export const MAX_MCP_CONCURRENT = 8;
/** Most sessions kept; the oldest is closed to open another. */
export const MAX_MCP_SESSIONS = 16;

/** Construction options of the server. */
export interface McpHttpServerOptions {
  runner: AxoToolRunner;
  /** The extension's version, told to clients. */
  version: string;
  log: Logger;
  maxBodyBytes?: number;
  maxConcurrent?: number;
}

/** A server listening on 127.0.0.1. */
export interface RunningMcpServer {
  /** `http://127.0.0.1:PORT/mcp`. */
  readonly url: string;
  /** The random bearer token every request must carry. */
  readonly token: string;
  /** Closes every session (aborting the lookups in flight) and stops listening. */
  close(): Promise<void>;
}

class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/**
 * Starts the MCP server of the extension host: Streamable HTTP (the SDK's transport, one per session) on 127.0.0.1
 * and a random port. Before the SDK sees a request it must: name the server itself in `Host` and, when it has one,
 * in `Origin` (DNS rebinding, web pages); carry the bearer token; be a POST, GET or DELETE on `/mcp`; have a body of
 * at most `maxBodyBytes`; and find a free slot among `maxConcurrent`.
 */
export async function startMcpHttpServer(options: McpHttpServerOptions): Promise<RunningMcpServer> {
  const token = randomBytes(32).toString('base64url');
  const expected = Buffer.from(`Bearer ${token}`);
  const maxBody = options.maxBodyBytes ?? MAX_MCP_BODY_BYTES;
  const maxConcurrent = options.maxConcurrent ?? MAX_MCP_CONCURRENT;
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  let active = 0;
  let port = 0;

  const check = (req: http.IncomingMessage): void => {
    const selves = [`127.0.0.1:${port}`, `localhost:${port}`];
    if (!selves.includes((req.headers.host ?? '').toLowerCase())) {
      throw new Refusal(403, 'Forbidden: foreign Host.');
    }
    const origin = req.headers.origin;
    if (origin !== undefined && !selves.some((self) => origin.toLowerCase() === `http://${self}`)) {
      throw new Refusal(403, 'Forbidden: foreign Origin.');
    }
    const presented = Buffer.from(req.headers.authorization ?? '');
    if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) {
      throw new Refusal(401, 'Unauthorized: a valid bearer token is required.');
    }
    if (new URL(req.url ?? '/', 'http://127.0.0.1').pathname !== MCP_PATH) {
      throw new Refusal(404, 'Not found.');
    }
    if (!['POST', 'GET', 'DELETE'].includes(req.method ?? '')) {
      throw new Refusal(405, 'Method not allowed.', { Allow: 'POST, GET, DELETE' });
    }
  };

  const transportFor = async (req: http.IncomingMessage, body: unknown): Promise<StreamableHTTPServerTransport> => {
    const id = req.headers['mcp-session-id'];
    if (typeof id === 'string') {
      const known = sessions.get(id);
      if (!known) {
        throw new Refusal(404, 'Unknown session.');
      }
      return known;
    }
    if (req.method !== 'POST' || !isInitializeRequest(body)) {
      throw new Refusal(400, 'Bad request: no session.');
    }
    if (sessions.size >= MAX_MCP_SESSIONS) {
      const [oldest] = sessions.values();
      await oldest.close();
    }
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: true,
      onsessioninitialized: (sessionId) => void sessions.set(sessionId, transport),
    });
    transport.onclose = () => {
      if (transport.sessionId) {
        sessions.delete(transport.sessionId);
      }
    };
    await createAxoMcpServer(options.runner, options.version).connect(transport);
    return transport;
  };

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    check(req);
    if (active >= maxConcurrent) {
      throw new Refusal(503, 'Busy: too many requests at once.', { 'Retry-After': '1' });
    }
    active++;
    try {
      const body = req.method === 'POST' ? await readJsonBody(req, maxBody) : undefined;
      const transport = await transportFor(req, body);
      await transport.handleRequest(req, res, body);
    } finally {
      active--;
    }
  };

  const server = http.createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      const refusal = error instanceof Refusal ? error : new Refusal(500, 'Internal error.');
      if (!(error instanceof Refusal)) {
        options.log.warn(`MCP server: ${describeError(error)}`);
      }
      if (!res.headersSent) {
        res.writeHead(refusal.status, { 'Content-Type': 'application/json', Connection: 'close', ...refusal.headers });
        res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: refusal.message }, id: null }));
      } else {
        res.destroy();
      }
      if (refusal.status === 413) {
        req.destroy();
      }
    });
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}${MCP_PATH}`,
    token,
    close: async () => {
      await Promise.allSettled([...sessions.values()].map((transport) => transport.close()));
      sessions.clear();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}

/** Reads a JSON body of at most `max` bytes (413 past it, 400 when it is not JSON). */
async function readJsonBody(req: http.IncomingMessage, max: number): Promise<unknown> {
  if (Number(req.headers['content-length'] ?? 0) > max) {
    throw new Refusal(413, `Request body over ${max} bytes.`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max) {
      throw new Refusal(413, `Request body over ${max} bytes.`);
    }
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    throw new Refusal(400, 'Parse error: the body is not JSON.');
  }
}
