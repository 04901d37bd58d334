import * as fs from 'node:fs';
import * as tls from 'node:tls';

/** Where the certificate authorities the extension trusts come from; tests put their own here. */
export interface CaSource {
  /** Node's default roots: its bundled ones plus the file named by `NODE_EXTRA_CA_CERTS`, as PEM. */
  defaults(): readonly string[];
  /** The operating system's trusted roots as PEM; empty where the runtime cannot read them (Node 20). */
  system(): readonly string[];
}

/** `tls.getCACertificates` from Node 22.15 / 23.10 on; absent from Node 20's types and runtime. */
type GetCaCertificates = (type: 'default' | 'system' | 'bundled' | 'extra') => string[];

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** Where Linux distributions keep the system's trusted roots as one PEM bundle (what OpenSSL and curl read). */
const LINUX_BUNDLES = [
  '/etc/ssl/certs/ca-certificates.crt', // Debian, Ubuntu, Arch, Gentoo
  '/etc/pki/tls/certs/ca-bundle.crt', // Fedora, RHEL
  '/etc/ssl/ca-bundle.pem', // openSUSE
  '/etc/ssl/cert.pem', // Alpine
];

/** What `nodeCaSource` reads; tests replace the parts that depend on the machine. */
export interface NodeCaOptions {
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  /** Node's own reader of the stores; the runtime's when present, `null` to act as Node 20 does. */
  getCACertificates?: GetCaCertificates | null;
}

/**
 * The runtime's stores. The system's comes from `tls.getCACertificates('system')` where Node has it; on a Node
 * without it (Node 20), Linux's system bundle is read instead (`SSL_CERT_FILE`, else the distribution's file),
 * which holds a company CA added with `update-ca-certificates`; macOS and Windows then have none. Read once and
 * kept: the stores change only with the machine's configuration (a restart of the extension host picks that up).
 */
export function nodeCaSource(options: NodeCaOptions = {}): CaSource {
  const env = options.env ?? process.env;
  const platform = options.platform ?? process.platform;
  const runtime = (tls as unknown as { getCACertificates?: GetCaCertificates }).getCACertificates;
  const get = options.getCACertificates === undefined ? runtime : (options.getCACertificates ?? undefined);
  let defaults: readonly string[] | undefined;
  let system: readonly string[] | undefined;
  const readSystem = (): string[] => {
    if (get) {
      return safely(() => get('system'));
    }
    if (platform !== 'linux') {
      return [];
    }
    const file = [env.SSL_CERT_FILE, ...LINUX_BUNDLES].find((path) => path && fs.existsSync(path));
    return readPemFile(file);
  };
  return {
    defaults: () =>
      (defaults ??= get ? get('default') : [...tls.rootCertificates, ...readPemFile(env.NODE_EXTRA_CA_CERTS)]),
    system: () => (system ??= readSystem()),
  };
}

/**
 * The CA list to hand to TLS, or undefined to keep Node's default store. A `ca` option *replaces* Node's store,
 * so when the system's roots are added, Node's own roots and `NODE_EXTRA_CA_CERTS` go in with them: trust only
 * ever grows.
 */
export function trustedCertificates(source: CaSource, useSystem: boolean): string[] | undefined {
  const system = useSystem ? source.system() : [];
  if (system.length === 0) {
    return undefined;
  }
  const defaults = source.defaults();
  // The system's bundle mostly repeats Node's roots, written with other white space: compare the bodies.
  const known = new Set(defaults.map(bodyOf));
  const added = system.filter((pem) => !known.has(bodyOf(pem)) && known.add(bodyOf(pem)));
  return added.length === 0 ? undefined : [...defaults, ...added];
}

function bodyOf(pem: string): string {
  return pem.replace(/-----[^-]+-----|\s+/g, '');
}

/** The certificates of a PEM file; none when the variable is unset or the file cannot be read (as Node does). */
function readPemFile(file: string | undefined): string[] {
  if (!file) {
    return [];
  }
  return safely(() => fs.readFileSync(file, 'utf8').match(PEM_CERTIFICATE) ?? []);
}

function safely(read: () => string[]): string[] {
  try {
    return read();
  } catch {
    return [];
  }
}
