// Packages the extension as the tests and users get it: a production bundle, then
// `vsce package --no-dependencies -o .vscode-test/alpha-axo.vsix`. Fails when the .vsix is over 1 MiB.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, '.vscode-test');
const vsix = join(outDir, 'alpha-axo.vsix');
const MAX_BYTES = 1024 * 1024;

function run(command, args) {
  console.log(`[package] ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`[package] FAILED: ${command} ${args.join(' ')} exited with ${result.status ?? result.signal}`);
    process.exit(1);
  }
}

mkdirSync(outDir, { recursive: true });
rmSync(vsix, { force: true });
// A clean bundle: nothing a development build left in dist/ (source maps, removed entry points) gets packaged.
rmSync(join(root, 'dist'), { recursive: true, force: true });
run(process.execPath, ['esbuild.mjs', '--production']);
// vsce runs `vscode:prepublish` (the same production build) once more by itself; esbuild takes a second.
// The README's screenshots and docs/ stay out of the .vsix (.vscodeignore): its image links and its links to docs/
// point at the repository instead, through package.json's `vsce.baseImagesUrl` and `vsce.baseContentUrl` (vsce works
// them out by itself only for GitHub and GitLab), so a plain `npx @vscode/vsce package` works too.
run(join(root, 'node_modules', '.bin', 'vsce'), ['package', '--no-dependencies', '-o', vsix]);

const size = statSync(vsix).size;
console.log(`[package] ${relative(root, vsix)}: ${(size / 1024).toFixed(1)} KiB`);
if (size > MAX_BYTES) {
  console.error(`[package] FAILED: the .vsix is ${size} bytes, over the 1 MiB limit`);
  process.exit(1);
}
