import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from '../../support/repoRoot';

/** The repository root (this file runs from out/test/unit). */
const root = repoRoot;
const src = path.join(root, 'src');

/** Every `.ts` file under `dir`. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? sourceFiles(full) : name.endsWith('.ts') ? [full] : [];
  });
}

/** Relative module specifiers of a file: imports, type imports, re-exports and dynamic imports alike. */
function specifiers(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/\b(?:from|import)\s*\(?\s*'(\.{1,2}\/[^'\n]*)'/g)) {
    found.push(match[1]);
  }
  return found;
}

function resolveSpecifier(from: string, specifier: string, known: ReadonlySet<string>): string | undefined {
  const base = path.resolve(path.dirname(from), specifier);
  return [`${base}.ts`, path.join(base, 'index.ts')].find((candidate) => known.has(candidate));
}

/** The import graph of `src`, type-only imports included (a circle of types is still a circle to a reader). */
function importGraph(): Map<string, string[]> {
  const files = sourceFiles(src);
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = specifiers(readFileSync(file, 'utf8'))
      .map((specifier) => resolveSpecifier(file, specifier, known))
      .filter((target): target is string => target !== undefined);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** One circle of the graph as a list of files (the first repeated at the end), or undefined when it has none. */
function findCircle(graph: ReadonlyMap<string, readonly string[]>): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>();
  const trail: string[] = [];
  const visit = (file: string): string[] | undefined => {
    state.set(file, 'open');
    trail.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') {
        return [...trail.slice(trail.indexOf(next)), next];
      }
      if (!state.has(next)) {
        const circle = visit(next);
        if (circle) {
          return circle;
        }
      }
    }
    trail.pop();
    state.set(file, 'done');
    return undefined;
  };
  for (const file of graph.keys()) {
    if (!state.has(file)) {
      const circle = visit(file);
      if (circle) {
        return circle;
      }
    }
  }
  return undefined;
}

describe('the structure of src', () => {
  it('has no import circle, type-only imports included', () => {
    const circle = findCircle(importGraph());
    assert.equal(circle?.map((file) => path.relative(root, file)).join(' → '), undefined);
  });

  it('finds a circle where there is one (the check can fail)', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    assert.deepEqual(findCircle(graph), ['a', 'b', 'c', 'a']);
    assert.equal(
      findCircle(
        new Map([
          ['a', ['b']],
          ['b', []],
        ]),
      ),
      undefined,
    );
    assert.deepEqual(specifiers("import type { A } from './a';\nexport { B } from '../b';\nawait import('./c');"), [
      './a',
      '../b',
      './c',
    ]);
  });

  it('keeps at most 20 source files directly in any folder (a folder past that gets rooms)', () => {
    const crowded: string[] = [];
    const walk = (dir: string): void => {
      const entries = readdirSync(dir);
      const files = entries.filter((name) => /\.(ts|css)$/.test(name) && statSync(path.join(dir, name)).isFile());
      if (files.length > 20) {
        crowded.push(`${path.relative(root, dir)} (${files.length})`);
      }
      for (const name of entries) {
        if (statSync(path.join(dir, name)).isDirectory()) {
          walk(path.join(dir, name));
        }
      }
    };
    walk(src);
    assert.deepEqual(crowded, []);
  });
});
