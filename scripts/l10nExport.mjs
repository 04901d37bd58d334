// Writes l10n/bundle.l10n.json with @vscode/l10n-dev: every message passed to `l10n.t(…)` under src/ (the host's
// `vscode.l10n.t`, and `@vscode/l10n`'s in the core and the webviews), in order of appearance, each mapped to
// itself. Then names the messages that l10n/bundle.l10n.de.json lacks or no longer needs. `--check` writes nothing
// and fails when the English bundle is out of date.
//   node scripts/l10nExport.mjs [--check]
import { getL10nJson } from '@vscode/l10n-dev';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const bundlePath = join(root, 'l10n', 'bundle.l10n.json');
const germanPath = join(root, 'l10n', 'bundle.l10n.de.json');

/** Every .ts file under `dir`, sorted. */
function sources(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      out.push(...sources(path));
    } else if (entry.isFile() && entry.name.endsWith('.ts')) {
      out.push(path);
    }
  }
  return out;
}

const files = sources(join(root, 'src')).map((file) => ({ extension: '.ts', contents: readFileSync(file, 'utf8') }));
const found = await getL10nJson(files);
const messages = Object.keys(found);

const bundle = `${JSON.stringify(Object.fromEntries(messages.map((m) => [m, m])), null, 2)}\n`;
if (process.argv.includes('--check')) {
  if (!existsSync(bundlePath) || readFileSync(bundlePath, 'utf8') !== bundle) {
    console.error('l10n/bundle.l10n.json is out of date: run node scripts/l10nExport.mjs');
    process.exit(1);
  }
} else {
  writeFileSync(bundlePath, bundle);
  console.log(`${relative(root, bundlePath)}: ${messages.length} messages`);
}
const german = existsSync(germanPath) ? JSON.parse(readFileSync(germanPath, 'utf8')) : {};
const missing = messages.filter((m) => !(m in german));
const unused = Object.keys(german).filter((m) => !messages.includes(m));
for (const [label, list] of [
  ['missing from', missing],
  ['no longer used in', unused],
]) {
  if (list.length > 0) {
    console.log(
      `${list.length} ${label} ${relative(root, germanPath)}:\n${list.map((m) => `  ${JSON.stringify(m)}`).join('\n')}`,
    );
  }
}
