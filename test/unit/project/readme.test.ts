import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from '../../support/repoRoot';

/** The repository root (this file runs from out/test/unit). */
const root = repoRoot;
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const manifest = JSON.parse(read('package.json')) as {
  contributes: { commands: { command: string }[]; configuration: { properties: Record<string, unknown> } };
};

/** The text of one `## ` section of a Markdown file, up to the next. */
function section(markdown: string, heading: string): string {
  const start = markdown.indexOf(`\n## ${heading}\n`);
  assert.ok(start >= 0, `no "## ${heading}" section`);
  const end = markdown.indexOf('\n## ', start + 1);
  return markdown.slice(start, end < 0 ? undefined : end);
}

/** The code spans of the first column of a section's table rows. */
function firstColumnNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const line of text.split('\n')) {
    const first = /^\|([^|]*)\|/.exec(line)?.[1] ?? '';
    for (const match of first.matchAll(/`([^`]+)`/g)) {
      names.add(match[1]);
    }
  }
  return names;
}

/** The README is what a user reads: it names every command and setting the extension contributes. */
describe('README', () => {
  const readme = read('README.md');

  it('stays under 350 lines: what a user needs; the detail lives in docs/', () => {
    const lines = readme.split('\n').length - (readme.endsWith('\n') ? 1 : 0);
    assert.ok(lines < 350, `README.md has ${lines} lines`);
  });

  it('lists every command of package.json in its Commands table', () => {
    const listed = firstColumnNames(section(readme, 'Commands'));
    const missing = manifest.contributes.commands.map((c) => c.command).filter((id) => !listed.has(id));
    assert.deepEqual(missing, []);
  });

  it('lists every setting of package.json in its Settings table', () => {
    const listed = firstColumnNames(section(readme, 'Settings'));
    const missing = Object.keys(manifest.contributes.configuration.properties).filter((key) => !listed.has(key));
    assert.deepEqual(missing, []);
  });

  it('names no command or setting that package.json does not contribute', () => {
    const known = new Set([
      ...manifest.contributes.commands.map((c) => c.command),
      ...Object.keys(manifest.contributes.configuration.properties),
    ]);
    const listed = [...firstColumnNames(section(readme, 'Commands')), ...firstColumnNames(section(readme, 'Settings'))];
    assert.deepEqual(
      listed.filter((name) => !known.has(name)),
      [],
    );
  });

  it('links only to files that exist, from the README, the CHANGELOG and docs/', () => {
    const files = ['README.md', 'CHANGELOG.md', ...readdirSync(path.join(root, 'docs')).map((f) => `docs/${f}`)];
    const broken: string[] = [];
    for (const file of files.filter((f) => f.endsWith('.md'))) {
      for (const match of read(file).matchAll(/\]\(([^)\s#]+)(#[^)\s]*)?\)/g)) {
        const target = match[1];
        if (!/^[a-z]+:/i.test(target) && !existsSync(path.join(root, path.dirname(file), target))) {
          broken.push(`${file}: ${target}`);
        }
      }
    }
    assert.deepEqual(broken, []);
  });
});
