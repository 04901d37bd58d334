import * as assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import * as l10n from '@vscode/l10n';
import { translationsBlock } from '../../../src/host/webviewTranslations';
import { locale, useTranslations } from '../../../src/webview/shared/l10n';
import { repoRoot } from '../../support/repoRoot';

const t = l10n.t;

// Compiled to out/test/unit: the sources and bundles are read from the checkout.
const root = repoRoot;
const LANGUAGES = ['de'];

function readJson(...parts: string[]): Record<string, unknown> {
  return JSON.parse(readFileSync(path.join(root, ...parts), 'utf8')) as Record<string, unknown>;
}

function placeholders(text: string): string[] {
  return [...new Set(text.match(/\{\d+\}/g) ?? [])].sort();
}

/** Every .ts file under src/. */
function sourceFiles(dir = path.join(root, 'src')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      return sourceFiles(full);
    }
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/**
 * The messages passed as literals to `l10n.t(…)` anywhere under src/ (the host's vscode.l10n.t, and @vscode/l10n's
 * in the core and the webviews), comments left out: a scanner of its own, to check what `npm run l10n`
 * (@vscode/l10n-dev) wrote.
 */
function sourceMessages(): { messages: Set<string>; nonLiteral: string[] } {
  const messages = new Set<string>();
  const nonLiteral: string[] = [];
  const literal = String.raw`\s*(?:'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"|\x60((?:[^\x60\\$]|\\.)*)\x60)?`;
  const call = new RegExp(String.raw`\bl10n\.t\(` + literal, 'g');
  for (const file of sourceFiles()) {
    const name = path.relative(root, file).split(path.sep).join('/');
    const text = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|^[ \t]*\/\/.*$/gm, ' ');
    for (const match of text.matchAll(call)) {
      const body = match[1] ?? match[2] ?? match[3];
      if (body === undefined) {
        nonLiteral.push(name);
      } else {
        messages.add(body.replace(/\\(.)/g, '$1'));
      }
    }
  }
  return { messages, nonLiteral };
}

function assertTranslations(english: Record<string, unknown>, other: Record<string, unknown>, what: string): void {
  const missing = Object.keys(english).filter((key) => !(key in other));
  const extra = Object.keys(other).filter((key) => !(key in english));
  assert.deepEqual(missing, [], `${what}: keys without a translation`);
  assert.deepEqual(extra, [], `${what}: keys the English file does not have`);
  for (const [key, value] of Object.entries(other)) {
    assert.equal(typeof value, 'string', `${what}: ${key} is not a string`);
    const text = value as string;
    assert.notEqual(text.trim(), '', `${what}: ${key} is empty`);
    const source = typeof english[key] === 'string' ? (english[key] as string) : key;
    assert.deepEqual(placeholders(text), placeholders(source), `${what}: placeholders of ${JSON.stringify(key)}`);
  }
}

describe('localisation', () => {
  const nls = readJson('package.nls.json');
  const bundle = readJson('l10n', 'bundle.l10n.json');

  it('package.json uses only keys package.nls.json defines, and package.nls.json has no unused key', () => {
    const manifest = readFileSync(path.join(root, 'package.json'), 'utf8');
    const used = new Set([...manifest.matchAll(/"%([^"%]+)%"/g)].map((m) => m[1]));
    assert.ok(used.size > 0, 'package.json has no %key% placeholders');
    assert.deepEqual(
      [...used].filter((key) => !(key in nls)),
      [],
      'placeholders missing from package.nls.json',
    );
    assert.deepEqual(
      Object.keys(nls).filter((key) => !used.has(key)),
      [],
      'package.nls.json keys package.json does not use',
    );
    for (const [key, value] of Object.entries(nls)) {
      assert.ok(typeof value === 'string' && value.trim() !== '', `package.nls.json: ${key} is empty`);
    }
  });

  it('package.json shows no user-facing text outside package.nls.json', () => {
    const manifest = readJson('package.json') as { displayName: string; description: string; contributes: unknown };
    assert.match(manifest.displayName, /^%.+%$/);
    assert.match(manifest.description, /^%.+%$/);
    const unplaced: string[] = [];
    const TEXT_FIELDS = ['title', 'label', 'description', 'markdownDescription', 'displayName', 'patternErrorMessage'];
    const visit = (value: unknown, at: string): void => {
      if (typeof value === 'string') {
        const field =
          at
            .replace(/\[\d+\]$/, '')
            .split('.')
            .pop() ?? '';
        // A view's `name` is its label; a chat participant's `name` is its id (`@alpha`).
        const isText =
          TEXT_FIELDS.includes(field) ||
          field === 'enumDescriptions' ||
          (field === 'name' && at.startsWith('contributes.views.'));
        if (isText && !/^%.+%$/.test(value)) {
          unplaced.push(`${at}: ${value}`);
        }
      } else if (Array.isArray(value)) {
        value.forEach((item, i) => visit(item, `${at}[${i}]`));
      } else if (value && typeof value === 'object') {
        for (const [key, inner] of Object.entries(value)) {
          // Setting defaults are data (stored in users' settings as they are), not labels; a tool's input schema is
          // told to language models, as its modelDescription is (the same English the MCP server gives them).
          if (key !== 'default' && key !== 'inputSchema') {
            visit(inner, `${at}.${key}`);
          }
        }
      }
    };
    visit(manifest.contributes, 'contributes');
    assert.deepEqual(unplaced, []);
  });

  for (const language of LANGUAGES) {
    it(`package.nls.${language}.json translates every key of package.nls.json`, () => {
      assertTranslations(nls, readJson(`package.nls.${language}.json`), `package.nls.${language}.json`);
    });

    it(`l10n/bundle.l10n.${language}.json translates every message of l10n/bundle.l10n.json`, () => {
      assertTranslations(bundle, readJson('l10n', `bundle.l10n.${language}.json`), `bundle.l10n.${language}.json`);
    });
  }

  it('l10n/bundle.l10n.json holds every l10n.t message in src (host, core and webviews), and only those', () => {
    const { messages, nonLiteral } = sourceMessages();
    assert.ok(messages.size > 50, `only ${messages.size} l10n.t messages found`);
    for (const webviewMessage of ['Message ALPHA', 'Stop generating', 'Jump to latest', 'Facts', 'Lookup {0} of {1}']) {
      assert.ok(
        messages.has(webviewMessage),
        `the scanner misses the webview's l10n.t(${JSON.stringify(webviewMessage)})`,
      );
    }
    assert.deepEqual(nonLiteral, [], 'l10n.t needs a string literal (npm run l10n reads it)');
    assert.deepEqual(
      [...messages].filter((m) => !(m in bundle)),
      [],
      'messages missing from l10n/bundle.l10n.json (run npm run l10n)',
    );
    assert.deepEqual(
      Object.keys(bundle).filter((m) => !messages.has(m)),
      [],
      'messages no longer used (run npm run l10n)',
    );
    for (const [key, value] of Object.entries(bundle)) {
      assert.equal(value, key, 'the English bundle maps each message to itself');
    }
  });

  it('the webviews format their messages in English until the page brings translations', () => {
    useTranslations(undefined);
    assert.equal(t('Stopped.'), 'Stopped.');
    assert.equal(t('Lookup {0} of {1}', 2, 5), 'Lookup 2 of 5');
    assert.equal(t('Cached result from {0}. {1}', 'just now', ''), 'Cached result from just now. ');
    assert.equal(t('{1}{0}{2}', 'a', 0), '0a{2}');
    assert.equal(locale(), undefined);
  });

  it('the webviews use the translations the host writes into the page', () => {
    const german = readJson('l10n', 'bundle.l10n.de.json');
    const block = translationsBlock({ ...(german as Record<string, string>), 'a </script> b': '<!-- x' });
    assert.doesNotMatch(block.replace(/<\/script>$/, ''), /<\/script|<!--/i, 'text in the JSON closes the element');
    const json = /^\n<script type="application\/json" id="l10n">(.*)<\/script>$/s.exec(block)?.[1];
    assert.ok(json, block.slice(0, 80));
    try {
      useTranslations(JSON.parse(json), 'de');
      assert.equal(t('Stop generating'), 'Generierung beenden');
      assert.equal(t('Lookup {0} of {1}', 2, 5), 'Abfrage 2 von 5');
      assert.equal(t('a </script> b'), '<!-- x');
      assert.equal(t('Not a message of the bundle {0}', 1), 'Not a message of the bundle 1');
      assert.equal(locale(), 'de');
      useTranslations({ Send: 3, Cancel: '' }, 'not a language!');
      assert.equal(t('Send'), 'Send', 'a value that is not a string is ignored');
      assert.equal(t('Cancel'), 'Cancel', 'an empty translation falls back to English');
      assert.equal(locale(), undefined, 'a language Intl rejects leaves dates to the browser');
    } finally {
      useTranslations(undefined);
    }
    assert.equal(translationsBlock(undefined), '', 'nothing is written under English');
  });

  it('the core formats its messages in English until the host gives it a bundle', () => {
    l10n.config({ contents: {} });
    assert.equal(l10n.t('{0} of {1}, {2}', 'a', 2), 'a of 2, {2}');
    assert.equal(l10n.t('Try again in {0} s.', 5), 'Try again in 5 s.');
    l10n.config({ contents: { 'Try again in {0} s.': 'In {0} s erneut versuchen.' } });
    assert.equal(l10n.t('Try again in {0} s.', 5), 'In 5 s erneut versuchen.');
    l10n.config({ contents: {} });
  });
});
