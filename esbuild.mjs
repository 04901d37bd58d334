// Builds two bundles: the extension (Node, CommonJS, `vscode` external) and the webviews (browser).
import * as esbuild from 'esbuild';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

const common = {
  bundle: true,
  minify: production,
  sourcemap: production ? false : 'linked',
  logLevel: 'warning',
  legalComments: 'none',
};

/** Webview entry points that exist (each feature adds its own). */
const webviewEntries = ['chat', 'encyclopedia']
  .map((name) => ({ name, file: `src/webview/${name}/main.ts` }))
  .filter((e) => existsSync(e.file));

const builds = [
  {
    ...common,
    entryPoints: ['src/extension.ts'],
    outfile: 'dist/extension.js',
    platform: 'node',
    format: 'cjs',
    target: 'node18',
    external: ['vscode'],
  },
  ...webviewEntries.map((e) => ({
    ...common,
    entryPoints: [e.file],
    outfile: `dist/webview/${e.name}.js`,
    platform: 'browser',
    format: 'iife',
    target: 'chrome114',
  })),
];

// The codicon font and its CSS, for the webviews (the only icons they use).
mkdirSync('dist/webview', { recursive: true });
for (const file of ['codicon.css', 'codicon.ttf']) {
  copyFileSync(`node_modules/@vscode/codicons/dist/${file}`, `dist/webview/${file}`);
}

if (watch) {
  for (const options of builds) {
    const ctx = await esbuild.context(options);
    await ctx.watch();
  }
} else {
  await Promise.all(builds.map((options) => esbuild.build(options)));
}
