import { once } from 'node:events';
import { promises as dns } from 'node:dns';
import * as net from 'node:net';
import * as tls from 'node:tls';
import type { buildConnector } from 'undici';

/** How to reach targets through a SOCKS4 or SOCKS4a proxy. */
export interface Socks4Options {
  /** `socks4://[user@]host:port` (names resolved here) or `socks4a://…` (names resolved by the proxy). */
  proxy: URL;
  timeoutMs: number;
  /** TLS options for HTTPS targets (trusted CAs, `rejectUnauthorized`). */
  tls: tls.ConnectionOptions;
}

const GRANTED = 0x5a;

/** An undici connector that opens each connection as a SOCKS4(a) CONNECT (TLS on top for HTTPS targets). */
export function socks4Connector(options: Socks4Options): buildConnector.connector {
  return (target, callback) => {
    open(target, options).then(
      (socket) => callback(null, socket),
      (error: Error) => callback(error, null),
    );
  };
}

async function open(target: buildConnector.Options, options: Socks4Options): Promise<net.Socket> {
  const host = target.hostname.replace(/^\[|\]$/g, '');
  const port = Number(target.port) || (target.protocol === 'https:' ? 443 : 80);
  const socket = net.connect({ host: options.proxy.hostname, port: Number(options.proxy.port) || 1080 });
  // undici's connect timeout applies to its own connector only: this one keeps the same limit itself.
  socket.setTimeout(options.timeoutMs, () => socket.destroy(failure('Connect timeout', 'UND_ERR_CONNECT_TIMEOUT')));
  try {
    await once(socket, 'connect');
    socket.write(await connectRequest(host, port, options.proxy));
    const reply = await readReply(socket);
    if (reply[1] !== GRANTED) {
      throw failure(`the proxy refused the connection (SOCKS4 reply ${reply[1]})`, 'UND_ERR_SOCKS4_REJECTED');
    }
    socket.setTimeout(0);
    if (target.protocol !== 'https:') {
      return socket;
    }
    const servername = net.isIP(host) ? undefined : target.servername || host;
    const secure = tls.connect({ ...options.tls, socket, servername });
    await once(secure, 'secureConnect');
    return secure;
  } catch (error) {
    socket.destroy();
    throw error;
  }
}

/** The CONNECT request: SOCKS4 carries an IPv4 address; SOCKS4a may carry the host name after the user id. */
async function connectRequest(host: string, port: number, proxy: URL): Promise<Buffer> {
  const user = Buffer.from(`${decodeURIComponent(proxy.username)}\0`);
  const head = Buffer.from([4, 1, port >> 8, port & 0xff]);
  if (net.isIPv4(host)) {
    return Buffer.concat([head, Buffer.from(host.split('.').map(Number)), user]);
  }
  if (proxy.protocol === 'socks4a:' && !net.isIP(host)) {
    return Buffer.concat([head, Buffer.from([0, 0, 0, 1]), user, Buffer.from(`${host}\0`)]);
  }
  if (net.isIPv6(host)) {
    throw failure('SOCKS4 cannot reach IPv6 addresses', 'UND_ERR_SOCKS4_IPV6');
  }
  const { address } = await dns.lookup(host, { family: 4 });
  return Buffer.concat([head, Buffer.from(address.split('.').map(Number)), user]);
}

/** Reads the proxy's 8-byte reply, giving back anything that came after it, and leaves the socket paused. */
function readReply(socket: net.Socket): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    let received = Buffer.alloc(0);
    const done = (error?: Error) => {
      socket.off('data', onData).off('end', onEnd).off('error', done);
      socket.pause();
      if (error) {
        reject(error);
        return;
      }
      if (received.length > 8) {
        socket.unshift(received.subarray(8));
      }
      resolve(received.subarray(0, 8));
    };
    const onData = (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (received.length >= 8) {
        done();
      }
    };
    const onEnd = () => done(failure('the proxy closed the connection', 'UND_ERR_SOCKS4_CLOSED'));
    socket.on('data', onData).once('end', onEnd).once('error', done);
  });
}

function failure(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}
