import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { ESLint } from 'eslint';
import { repoRoot } from '../../support/repoRoot';

/** The repository root (this file runs from out/test/unit). */
const root = repoRoot;
const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  engines: { vscode: string };
  devDependencies: Record<string, string>;
  dependencies: Record<string, string>;
};

/** The rules of eslint.config.mjs that hold the build's promises, checked on text that breaks each. */
describe('build rules', function () {
  this.timeout(120_000);
  const eslint = new ESLint({ cwd: root });

  async function ruleIds(filePath: string, code: string): Promise<string[]> {
    const [result] = await eslint.lintText(code, { filePath: path.join(root, filePath) });
    return result.messages.map((m) => m.ruleId ?? m.message);
  }
  const lines = (n: number) => Array.from({ length: n }, (_, i) => `export const x${i} = ${i};`).join('\n') + '\n';

  it('fails a file in src over 400 lines, blank lines and comments counted, and passes one of 400', async () => {
    assert.ok((await ruleIds('src/core/logger.ts', lines(401))).includes('max-lines'));
    assert.ok(!(await ruleIds('src/core/logger.ts', lines(400))).includes('max-lines'));
    const padded = lines(300) + '\n'.repeat(60) + '// why\n'.repeat(41);
    assert.ok((await ruleIds('src/core/logger.ts', padded)).includes('max-lines'), 'blank lines and comments count');
  });

  it('lints the build scripts (scripts/*.mjs and the root *.mjs)', async () => {
    const code = 'const a = process.argv.length;\nif (a == 2) console.log(a);\n';
    for (const file of ['scripts/demo.mjs', 'esbuild.mjs']) {
      const ids = await ruleIds(file, code);
      assert.ok(ids.includes('eqeqeq') && ids.includes('curly'), `${file}: ${ids.join(', ')}`);
    }
  });

  it('pins @types/vscode at the engines floor, so no API newer than the floor type-checks unasked', () => {
    const floor = manifest.engines.vscode.replace(/^\^/, '');
    assert.equal(manifest.devDependencies['@types/vscode'], floor);
    const installed = JSON.parse(readFileSync(path.join(root, 'node_modules/@types/vscode/package.json'), 'utf8'));
    assert.equal(installed.version, floor, 'the installed @types/vscode (run npm ci)');
  });

  it('ships only what runs: eventsource-parser (the SSE bench baseline) is a dev dependency', () => {
    assert.equal(manifest.dependencies['eventsource-parser'], undefined);
    assert.ok(manifest.devDependencies['eventsource-parser']);
  });
});
