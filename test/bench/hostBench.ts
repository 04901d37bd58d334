import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { codeServerEntry, repoRoot } from '../e2e/harness/paths';
import type { BenchFigure } from './benchFigure';

/**
 * The start of a bench that needs the test host (code-server and Chromium): prints and returns the load average row;
 * `skipped` is the bench's rows when the test host is not installed (then it does not run); otherwise the extension
 * is packaged first, so the bench measures the .vsix users get.
 */
export function startHostBench(what: string): { loadRow: BenchFigure; skipped?: BenchFigure[] } {
  const [load] = os.loadavg();
  const loadRow = { name: 'load average at start (1 min)', value: load.toFixed(2) };
  console.log(`  ${loadRow.name}: ${loadRow.value}`);
  if (!existsSync(codeServerEntry)) {
    return { loadRow, skipped: [loadRow, { name: what, value: 'not run: the test host is not installed' }] };
  }
  if (spawnSync(process.execPath, [path.join(repoRoot, 'scripts', 'package.mjs')], { stdio: 'ignore' }).status !== 0) {
    throw new Error('packaging the extension failed: run `node scripts/package.mjs` to see why');
  }
  return { loadRow };
}
