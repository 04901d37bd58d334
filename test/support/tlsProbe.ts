// Run as a child process by the TLS tests, so NODE_EXTRA_CA_CERTS is read at start-up as Node reads it:
//   node out/test/support/tlsProbe.js URL [OTHER_CA_FILE]
// Sends one GET through the real HttpClient and prints `{"ok":true,"text":…}` or `{"ok":false,"message":…}`.
// With OTHER_CA_FILE, that file stands in for the operating system's store, so the client passes its own CA list
// (Node's roots + NODE_EXTRA_CA_CERTS + the "system" one) instead of keeping Node's default store.
import * as fs from 'node:fs';
import { HttpClient } from '../../src/core/net/http';
import { silentLogger } from '../../src/core/logger';
import { nodeCaSource, type CaSource } from '../../src/core/net/trust';

async function main(): Promise<void> {
  const [url, otherCaFile] = process.argv.slice(2);
  const runtime = nodeCaSource();
  const caSource: CaSource = otherCaFile
    ? { defaults: () => runtime.defaults(), system: () => [fs.readFileSync(otherCaFile, 'utf8')] }
    : runtime;
  const http = new HttpClient(
    () => ({ timeoutMs: 5000, proxy: { strictSSL: true, noProxy: [] }, systemCertificates: true }),
    silentLogger,
    { caSource },
  );
  try {
    const res = await http.send({ method: 'GET', url: new URL(url), key: 'k', keyKind: 'chat' });
    console.log(JSON.stringify({ ok: true, text: await res.text() }));
  } catch (error) {
    console.log(JSON.stringify({ ok: false, message: error instanceof Error ? error.message : String(error) }));
  } finally {
    await http.dispose();
  }
}

void main();
