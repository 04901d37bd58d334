import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { CLASS, STYLED } from '../../../../src/webview/chat/render/classNames';
import { repoRoot } from '../../../support/repoRoot';

/** The repository root (this file runs from out/test/unit). */
const root = repoRoot;
/** The chat page's folder: each of its parts keeps its stylesheet beside its script. */
const page = path.join(root, 'src', 'webview', 'chat');

/** The files under `dir` whose names end with `ext`, at any depth. */
function filesUnder(dir: string, ext: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full, ext) : name.endsWith(ext) ? [full] : [];
  });
}

/** The page's stylesheets, each without its comments. */
function pageSheets(): Map<string, string> {
  return new Map(
    filesUnder(page, '.css').map((file) => [file, readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '')]),
  );
}

/** The stylesheets a script imports for their effect (`import './x.css'`), as paths. */
function sheetsImportedBy(script: string): string[] {
  const text = readFileSync(script, 'utf8');
  return Array.from(text.matchAll(/^import '(\.[^']*\.css)';$/gm), (m) => path.join(path.dirname(script), m[1]));
}

describe('the long-reply rendering’s class names', () => {
  it('that the page’s stylesheets style are each a selector there, so a rename on one side only fails here', () => {
    const css = Array.from(pageSheets().values()).join('\n');
    const missing = STYLED.filter((name) => !new RegExp(`\\.${name}(?![\\w-])`).test(css));
    assert.deepEqual(missing, []);
    assert.equal(new Set(Object.values(CLASS)).size, Object.keys(CLASS).length, 'no two constants share a name');
  });
});

describe('the chat page’s stylesheets', () => {
  it('are each imported by a script beside them, so none is left out of the bundle', () => {
    const imported = new Set(filesUnder(page, '.ts').flatMap(sheetsImportedBy));
    const sheets = Array.from(pageSheets().keys());
    assert.ok(sheets.length > 1, 'the page has its stylesheets');
    const orphans = sheets.filter((sheet) => !imported.has(sheet)).map((sheet) => path.relative(page, sheet));
    assert.deepEqual(orphans, []);
  });

  it('load the shared base and the page’s own sheet first, so each part’s sheet can override them', () => {
    // esbuild orders the bundle's CSS as the scripts import it: an import of a script before these two would put
    // that script's sheets (and those of all it imports) ahead of the rules they refine (a chip's remove button
    // is an .icon-button of its own size, an edited prompt an .input with a border).
    const main = readFileSync(path.join(page, 'main.ts'), 'utf8');
    const imports = Array.from(main.matchAll(/^import\s[^;]*?['"]([^'"]+)['"];/gm), (m) => m[1]);
    assert.deepEqual(imports.slice(0, 2), ['../shared/base.css', './chat.css']);
  });
});
