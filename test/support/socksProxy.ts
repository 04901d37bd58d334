import * as net from 'node:net';

/**
 * A SOCKS proxy on 127.0.0.1 that records: SOCKS5 (RFC 1928 CONNECT, optionally RFC 1929 user name and password)
 * and SOCKS4 / SOCKS4a CONNECT on the same port.
 */
export interface SocksProxy {
  url: string;
  /** `host:port` of every CONNECT asked for, as the client sent it (a name stays a name). */
  targets: string[];
  /** The user names that authenticated (SOCKS5) or were sent as user id (SOCKS4). */
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
  /** Connects to the target and pipes both ways, answering with `granted` or `refused`. */
  const relay = (client: net.Socket, target: string, granted: Buffer, refused: Buffer) => {
    targets.push(target);
    const split = target.lastIndexOf(':');
    const host = target.slice(0, split).replace(/^\[|\]$/g, '');
    const upstream = net.connect(Number(target.slice(split + 1)), host === 'localhost' ? '127.0.0.1' : host);
    sockets.add(upstream);
    upstream.once('connect', () => {
      client.write(granted);
      client.removeAllListeners('data');
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.once('error', () => client.end(refused));
    client.once('close', () => upstream.destroy());
  };
  /** SOCKS4: an IPv4 address and a user id; SOCKS4a: 0.0.0.x, then the host name after the user id. */
  const handle4 = async (client: net.Socket, read: (n: number) => Promise<Buffer>) => {
    const head = await read(7);
    const port = head.readUInt16BE(1);
    const ip = [...head.subarray(3, 7)];
    const text = async () => {
      let value = '';
      for (let byte = (await read(1))[0]; byte !== 0; byte = (await read(1))[0]) {
        value += String.fromCharCode(byte);
      }
      return value;
    };
    const user = await text();
    if (user) {
      users.push(user);
    }
    const host = ip[0] === 0 && ip[3] !== 0 ? await text() : ip.join('.');
    const reply = (code: number) => Buffer.from([0, code, 0, 0, 0, 0, 0, 0]);
    relay(client, `${host}:${port}`, reply(0x5a), reply(0x5b));
  };
  const handle = async (client: net.Socket) => {
    const read = reader(client);
    const [version] = await read(1);
    if (version === 4) {
      await handle4(client, read);
      return;
    }
    const [count] = await read(1);
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
    relay(client, target, Buffer.from([5, 0, 0, 1, 0, 0, 0, 0, 0, 0]), Buffer.from([5, 5, 0, 1, 0, 0, 0, 0, 0, 0]));
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
