import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as https from 'node:https';
import type * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';

/** A company-style certificate authority made with `openssl`, and a server certificate for 127.0.0.1 it signed. */
export interface TestPki {
  dir: string;
  /** The CA's certificate file (PEM), as NODE_EXTRA_CA_CERTS would name it. */
  caFile: string;
  caPem: string;
  serverKey: string;
  serverCert: string;
  /** Deletes the temporary folder. */
  remove(): void;
}

function openssl(dir: string, args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
}

/** Generates a fresh CA and a server certificate (127.0.0.1 and localhost) into a temporary folder. */
export function makeTestPki(name = 'Test Company Root CA'): TestPki {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'alpha-axo-pki-'));
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl(dir, ['req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', `/CN=${name}`]);
  openssl(dir, ['req', ...ec, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=127.0.0.1']);
  fs.writeFileSync(
    path.join(dir, 'ext.cnf'),
    'subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n',
  );
  openssl(dir, [
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'server.pem',
    '-days',
    '2',
    '-extfile',
    'ext.cnf',
  ]);
  const read = (file: string) => fs.readFileSync(path.join(dir, file), 'utf8');
  return {
    dir,
    caFile: path.join(dir, 'ca.pem'),
    caPem: read('ca.pem'),
    serverKey: read('server.key'),
    serverCert: read('server.pem'),
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

/** An HTTPS server on 127.0.0.1 with the PKI's server certificate; answers every request with `handler`. */
export async function startHttpsServer(
  pki: TestPki,
  handler: (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void,
): Promise<{ url: string; close(): Promise<void> }> {
  const server = https.createServer({ key: pki.serverKey, cert: pki.serverCert }, handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
