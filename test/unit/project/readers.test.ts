import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ENTRY_POINTS, PASSES_THROUGH, READERS } from '../../support/readers';
import { repoRoot } from '../../support/repoRoot';

const root = repoRoot;
const src = path.join(root, 'src');

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? sources(full) : entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** A module's name as the table writes it: its path from `src/`, with `/`, without `.ts`. */
function moduleName(file: string): string {
  return path.relative(src, file).split(path.sep).join('/').replace(/\.ts$/, '');
}

/** The modules `file` imports (type imports too: a type of service text means the module handles that text). */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  return [...text.matchAll(/from '(\.[^']+)'/g)].map((m) => moduleName(path.resolve(path.dirname(file), `${m[1]}.ts`)));
}

/*
 * Why this mechanism: outside text enters the code through a few modules (ENTRY_POINTS: the stream, the normalizers,
 * error bodies, response bodies, the import, the ignore rules). Any module that imports one of them takes that text
 * or its types, so the import graph names every candidate reader without anyone having to remember to add it: a new
 * module that takes a reply, a citation or an imported file fails here until it has a row (with its growth test) or
 * says in PASSES_THROUGH why it reads nothing. A reader added to an entry point itself (an export whose name is not
 * in the table) fails the second test unless listed as not reading text.
 */
describe('the readers of outside text: every one has a row and a growth test (test/support/readers.ts)', () => {
  const files = sources(src);
  const rows = new Set(READERS.map((r) => r.module));

  it('every module importing an entry point has a row, or says why it reads nothing', () => {
    const missing = files
      .filter((file) => importsOf(file).some((m) => ENTRY_POINTS.includes(m)))
      .map(moduleName)
      .filter((m) => !ENTRY_POINTS.includes(m) && !rows.has(m) && PASSES_THROUGH[m] === undefined);
    assert.deepEqual(missing, [], 'modules that take outside text without a row in test/support/readers.ts');
  });

  it("every exported function of an entry point is a row's entry or known not to read text", () => {
    const notReaders = new Set([
      'parseRetryAfter',
      'errorFromTransport',
      'errorFromResponse',
      'wrapResponse',
      'decodedBody',
      'drainFor',
      'discard',
      'flattenHeaders',
      'headerOf',
      'readable',
      'unknownShape',
      'normalizeCitations',
      'normalizeAnswer',
      'normalizeSearch',
      'normalizeFacts',
      'normalizeArticle',
      'checkEnvelope',
      'excludeGlob',
      'expandBraces',
      'wildcardGroups',
    ]);
    const entries = new Set(READERS.map((r) => r.entry));
    const missing = ENTRY_POINTS.flatMap((m) => {
      const text = fs.readFileSync(path.join(src, `${m}.ts`), 'utf8');
      return [...text.matchAll(/^export (?:async )?(?:function\*? |class )(\w+)/gm)]
        .map((found) => found[1])
        .filter((name) => !entries.has(name) && !notReaders.has(name))
        .map((name) => `${m}.${name}`);
    });
    assert.deepEqual(missing, []);
  });

  it('every row names an export of its module and a test that exists (or says it is pending)', () => {
    const tests = fs
      .readdirSync(path.join(root, 'test', 'unit'), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.test.ts'))
      .map((f) => fs.readFileSync(path.join(root, 'test', 'unit', f), 'utf8'))
      .join('\n');
    for (const row of READERS) {
      const file = path.join(src, `${row.module}.ts`);
      assert.ok(fs.existsSync(file), `${row.module} does not exist`);
      const text = fs.readFileSync(file, 'utf8');
      assert.match(text, new RegExp(`export (?:async )?(?:function\\*? |class )${row.entry}\\b`), row.module);
      if (row.test !== 'pending') {
        assert.ok(
          tests.includes(`it('${row.test.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`),
          `no test "${row.test}"`,
        );
      }
    }
  });
});
