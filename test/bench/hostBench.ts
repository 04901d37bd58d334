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
  const loadRow = { name: 'load average at start (1 min); fonts', value: `${load.toFixed(2)}; ${fallbackFonts()}` };
  console.log(`  ${loadRow.name}: ${loadRow.value}`);
  if (!existsSync(codeServerEntry)) {
    return { loadRow, skipped: [loadRow, { name: what, value: 'not run: the test host is not installed' }] };
  }
  if (spawnSync(process.execPath, [path.join(repoRoot, 'scripts', 'package.mjs')], { stdio: 'ignore' }).status !== 0) {
    throw new Error('packaging the extension failed: run `node scripts/package.mjs` to see why');
  }
  return { loadRow };
}

/** A character of each kind the fake's replies hold that the page's own fonts lack: an emoji and a CJK one. */
const FALLBACK_SAMPLES = { emoji: '1f680', CJK: '6771' };

/**
 * Whether the machine has a font for the emoji and CJK text the fake's replies hold, as a desktop has (fontconfig's
 * answer). Without one, Chromium looks for a font again on every layout of such a character: a slice of ten fake
 * messages took 34–72 ms to lay out on a machine without them, 16–18 ms with them (`.ci/run` installs them), so the
 * page benches' figures are a desktop's only with them.
 */
export function fallbackFonts(): string {
  const missing = Object.entries(FALLBACK_SAMPLES).flatMap(([kind, code]) => {
    const found = spawnSync('fc-list', [`:charset=${code}`, 'family'], { encoding: 'utf8' });
    return found.status === 0 && found.stdout.trim() ? [] : [kind];
  });
  return missing.length
    ? `no font for ${missing.join(' or ')} text (figures pessimistic: see .ci/run)`
    : 'emoji and CJK fonts present';
}
