// Runs every benchmark module under out/test/bench (compiled from test/bench/*.bench.ts) and prints its figures.
// Each module exports `run(): Promise<BenchFigure[]>`; figures that vary by machine are ratios against a
// baseline measured in the same process.
import { execSync } from 'node:child_process';
import { readdirSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = resolve(import.meta.dirname, '..');
if (!process.argv.includes('--no-build')) {
  execSync('npx tsc -p . && node esbuild.mjs --production', { cwd: root, stdio: 'inherit' });
}
const dir = join(root, 'out/test/bench');
const only = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.bench.js')) : [];
let failed = 0;
for (const file of files) {
  if (only.length && !only.some((o) => file.includes(o))) {
    continue;
  }
  console.log(`\n== ${file.replace('.bench.js', '')}`);
  const mod = await import(pathToFileURL(join(dir, file)).href);
  const figures = await mod.run();
  for (const f of figures) {
    const ok = f.pass === undefined ? '' : f.pass ? '  ok' : '  MISSED';
    if (f.pass === false) {
      failed++;
    }
    console.log(`  ${f.name}: ${f.value}${f.target ? `  (target ${f.target})` : ''}${ok}`);
  }
}
console.log(failed ? `\n${failed} target(s) missed` : '\nall targets met');
process.exitCode = failed ? 1 : 0;
