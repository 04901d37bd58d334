import * as http from 'node:http';
import * as net from 'node:net';

/** What the proxy saw of one request. */
export interface ProxiedRequest {
  method: string;
  target: string;
  proxyAuthorization?: string;
}

/** A real forward proxy on 127.0.0.1 (CONNECT tunnels and absolute-form requests) that records what passes. */
export interface RecordingProxy {
  url: string;
  seen: ProxiedRequest[];
  close(): Promise<void>;
}

/** Starts the proxy. With `requireAuth`, requests without that exact Proxy-Authorization get 407. */
export async function startRecordingProxy(requireAuth?: string): Promise<RecordingProxy> {
  const seen: ProxiedRequest[] = [];
  const sockets = new Set<net.Socket>();
  const allowed = (req: http.IncomingMessage) => !requireAuth || req.headers['proxy-authorization'] === requireAuth;
  const server = http.createServer((req, res) => {
    seen.push({
      method: req.method ?? '',
      target: req.url ?? '',
      proxyAuthorization: req.headers['proxy-authorization'],
    });
    if (!allowed(req)) {
      res.writeHead(407, { 'proxy-authenticate': 'Basic realm="test"' }).end();
      return;
    }
    const target = new URL(req.url ?? '');
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    const upstream = http.request(target, { method: req.method, headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    seen.push({ method: 'CONNECT', target: req.url ?? '', proxyAuthorization: req.headers['proxy-authorization'] });
    if (!allowed(req)) {
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test"\r\n\r\n');
      return;
    }
    const [host, port] = (req.url ?? '').split(':');
    const upstream = net.connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  server.on('connection', (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) {
          socket.destroy();
        }
        server.close(() => resolve());
      }),
  };
}
