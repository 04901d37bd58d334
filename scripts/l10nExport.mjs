// Writes l10n/bundle.l10n.json: every message passed as a string literal to `l10n.t(…)` under src/ (the host's
// `vscode.l10n.t` and the core's own `l10n.t`) and to `t(…)` under src/webview (the pages' own, fed from the same
// bundle by the host), in order of appearance, each mapped to itself. Then names the
// messages that l10n/bundle.l10n.de.json lacks or no longer needs. `--check` writes nothing and fails when the
// English bundle is out of date.
//   node scripts/l10nExport.mjs [--check]
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const bundlePath = join(root, 'l10n', 'bundle.l10n.json');
const germanPath = join(root, 'l10n', 'bundle.l10n.de.json');
// The one call whose message is not a literal: the host handing the core's messages to vscode.l10n.t.
const FORWARDERS = new Set(['src/extension.ts']);

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

function unescape(body) {
  return body.replace(/\\(u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|.)/gs, (_match, code) => {
    const simple = { n: '\n', r: '\r', t: '\t', b: '\b', f: '\f', v: '\v', 0: '\0', '\n': '' };
    if (code in simple) {
      return simple[code];
    }
    if (code[0] === 'u' || code[0] === 'x') {
      return String.fromCodePoint(parseInt(code.replace(/^u\{?|^x|\}$/g, ''), 16));
    }
    return code;
  });
}

// The message argument: a '…', "…" or `…` literal without substitutions (absent when it is something else).
const LITERAL = String.raw`\s*(?:'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"|\x60((?:[^\x60\\$]|\\.)*)\x60)?`;
// The host and the core call `l10n.t(…)`; the webviews call their own `t(…)` (src/webview/shared/l10n.ts).
const HOST_CALL = new RegExp(String.raw`\bl10n\.t\(` + LITERAL, 'g');
const WEBVIEW_CALL = new RegExp(String.raw`(?<![\w$.])t\(` + LITERAL, 'g');

const messages = [];
const problems = [];
for (const file of sources(join(root, 'src'))) {
  const text = readFileSync(file, 'utf8');
  const name = relative(root, file).split('\\').join('/');
  const webview = name.startsWith('src/webview/');
  // Neither the definition of the webviews' `t` nor a `t(…)` in a comment is a call (blanked, same length).
  const code = webview
    ? text
        .replace(/\/\*[\s\S]*?\*\/|^[ \t]*\/\/.*$/gm, (comment) => comment.replace(/[^\n]/g, ' '))
        .replace(/\bfunction t\(/g, 'function _(')
    : text;
  for (const match of code.matchAll(webview ? WEBVIEW_CALL : HOST_CALL)) {
    const body = match[1] ?? match[2] ?? match[3];
    if (body === undefined) {
      if (!FORWARDERS.has(name)) {
        const line = text.slice(0, match.index).split('\n').length;
        problems.push(`${name}:${line}: ${webview ? 't' : 'l10n.t'} needs a string literal as its message`);
      }
      continue;
    }
    const message = unescape(body);
    if (!messages.includes(message)) {
      messages.push(message);
    }
  }
}
if (problems.length > 0) {
  console.error(problems.join('\n'));
  process.exit(1);
}

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
