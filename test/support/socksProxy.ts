import * as net from 'node:net';

/** A SOCKS5 proxy on 127.0.0.1 (RFC 1928 CONNECT, optionally RFC 1929 user name and password) that records. */
export interface SocksProxy {
  url: string;
  /** `host:port` of every CONNECT asked for, as the client sent it (a name stays a name). */
  targets: string[];
  /** The user names that authenticated. */
  users: string[];
  close(): Promise<void>;
}

/** Reads exact byte counts from a socket that delivers them in arbitrary pieces. */
function reader(socket: net.Socket): (n: number) => Promise<Buffer> {
  let buffered = Buffer.alloc(0);
  let waiting: { n: number; resolve: (b: Buffer) => void } | undefined;
  const settle = () => {
    if (waiting && buffered.length >= waiting.n) {
      const { n, resolve } = waiting;
      waiting = undefined;
      const head = buffered.subarray(0, n);
      buffered = buffered.subarray(n);
      resolve(head);
    }
  };
  socket.on('data', (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    settle();
  });
  return (n) =>
    new Promise((resolve) => {
      waiting = { n, resolve };
      settle();
    });
}

async function readTarget(read: (n: number) => Promise<Buffer>): Promise<string> {
  const [, , , type] = await read(4);
  let host: string;
  if (type === 1) {
    host = [...(await read(4))].join('.');
  } else if (type === 3) {
    host = (await read((await read(1))[0])).toString('latin1');
  } else {
    const raw = await read(16);
    host = `[${(raw.toString('hex').match(/.{4}/g) ?? []).join(':')}]`;
  }
  return `${host}:${(await read(2)).readUInt16BE(0)}`;
}

/** Starts the proxy. With `credentials`, only that user name and password are let through. */
export async function startSocksProxy(credentials?: { user: string; password: string }): Promise<SocksProxy> {
  const targets: string[] = [];
  const users: string[] = [];
  const sockets = new Set<net.Socket>();
  const handle = async (client: net.Socket) => {
    const read = reader(client);
    const [, count] = await read(2);
    const methods = [...(await read(count))];
    const method = credentials ? 2 : 0;
    if (!methods.includes(method)) {
      client.end(Buffer.from([5, 0xff]));
      return;
    }
    client.write(Buffer.from([5, method]));
    if (credentials) {
      const user = (await read((await read(2))[1])).toString();
      const password = (await read((await read(1))[0])).toString();
      const ok = user === credentials.user && password === credentials.password;
      client.write(Buffer.from([1, ok ? 0 : 1]));
      if (!ok) {
        client.end();
        return;
      }
      users.push(user);
    }
    const target = await readTarget(read);
    targets.push(target);
    const [host, port] = [target.slice(0, target.lastIndexOf(':')), Number(target.slice(target.lastIndexOf(':') + 1))];
    const upstream = net.connect(port, host.replace(/^\[|\]$/g, '') === 'localhost' ? '127.0.0.1' : host);
    sockets.add(upstream);
    upstream.once('connect', () => {
      client.write(Buffer.from([5, 0, 0, 1, 0, 0, 0, 0, 0, 0]));
      client.removeAllListeners('data');
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.once('error', () => client.end(Buffer.from([5, 5, 0, 1, 0, 0, 0, 0, 0, 0])));
    client.once('close', () => upstream.destroy());
  };
  const server = net.createServer((client) => {
    sockets.add(client);
    client.on('error', () => client.destroy());
    void handle(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `socks5://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    targets,
    users,
    close: () =>
      new Promise<void>((resolve) => {
        sockets.forEach((socket) => socket.destroy());
        server.close(() => resolve());
      }),
  };
}
