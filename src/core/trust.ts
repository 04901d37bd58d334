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

/**
 * The runtime's stores. Read once and kept: the system store takes milliseconds to read and changes only with
 * the machine's configuration (a restart of the extension host picks a change up).
 */
export function nodeCaSource(env: NodeJS.ProcessEnv = process.env): CaSource {
  const get = (tls as unknown as { getCACertificates?: GetCaCertificates }).getCACertificates;
  let defaults: readonly string[] | undefined;
  let system: readonly string[] | undefined;
  return {
    defaults: () =>
      (defaults ??= get ? get('default') : [...tls.rootCertificates, ...readPemFile(env.NODE_EXTRA_CA_CERTS)]),
    system: () => (system ??= get ? safely(() => get('system')) : []),
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
  return [...new Set([...source.defaults(), ...system])];
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
