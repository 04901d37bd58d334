/**
 * File names that look like they hold a secret: private keys, certificates with keys, key stores, credentials and
 * environment files. Attaching one asks first: its text would be sent to the service and stored in the
 * conversation. (docs/chat.md lists these, under Attachments.)
 */
const SECRET_NAMES = new Set([
  'id_rsa',
  'id_dsa',
  'id_ecdsa',
  'id_ed25519',
  'credentials',
  'credentials.json',
  'credentials.xml',
  'secrets.json',
  'secrets.yaml',
  'secrets.yml',
  '.env',
  '.netrc',
  '_netrc',
  '.npmrc',
  '.pypirc',
  '.git-credentials',
  '.htpasswd',
  '.pgpass',
]);

/** Endings of secret-looking files. */
const SECRET_ENDINGS = ['.pem', '.key', '.p12', '.pfx', '.jks', '.keystore', '.ppk', '.kdbx', '.secret', '.secrets'];

/** Whether a file named `name` (a base name or a path) looks like it holds a secret. */
export function looksSecret(name: string): boolean {
  const base = (name.split(/[\\/]/).pop() ?? name).toLowerCase();
  return (
    SECRET_NAMES.has(base) ||
    base.startsWith('.env.') ||
    (base.startsWith('id_') &&
      !base.endsWith('.pub') &&
      // eslint-disable-next-line regexp/no-super-linear-move -- a file's base name: at most 255 characters
      SECRET_NAMES.has(base.replace(/[._-][^_]*$/, ''))) ||
    /^service[-_]?account.*\.json$/.test(base) ||
    SECRET_ENDINGS.some((ending) => base.endsWith(ending))
  );
}
