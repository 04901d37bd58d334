// Builds the bundles: the extension (Node, CommonJS, `vscode` external), the MCP server (Node, CommonJS: the stdio
// server, and the in-host server the extension loads from it) and the webviews (browser).
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

/**
 * The extension loads its MCP server from dist/mcpServer.js (`import()` of core/mcp/mcpHttpServer becomes a
 * `require('./mcpServer.js')` the first time a client asks for the server), so the MCP SDK and zod are bundled once,
 * in the stdio server, and cost the extension's activation nothing.
 */
const mcpServerFromItsBundle = {
  name: 'mcp-server-from-its-bundle',
  setup(build) {
    build.onResolve({ filter: /core\/mcp\/mcpHttpServer$/ }, () => ({ path: './mcpServer.js', external: true }));
  },
};

/**
 * The SDK's server builds a JSON Schema validator (ajv, ~130 KB) by default for one feature, elicitation, which our
 * server never uses and for which it passes a validator of its own; the default is left out of the bundle.
 */
const withoutAjv = {
  name: 'without-ajv',
  setup(build) {
    build.onResolve({ filter: /validation\/ajv-provider\.js$/ }, () => ({ path: 'ajv-provider', namespace: 'no-ajv' }));
    build.onLoad({ filter: /.*/, namespace: 'no-ajv' }, () => ({
      contents:
        'export class AjvJsonSchemaValidator { constructor() { throw new Error("No JSON Schema validator is bundled."); } }',
      loader: 'js',
    }));
  },
};

const builds = [
  {
    ...common,
    entryPoints: ['src/extension.ts'],
    outfile: 'dist/extension.js',
    platform: 'node',
    format: 'cjs',
    target: 'node18',
    external: ['vscode'],
    plugins: [mcpServerFromItsBundle],
    // `import()` becomes `require()`: the extension host loads CommonJS, and so does every VS Code it supports.
    supported: { 'dynamic-import': false },
  },
  {
    ...common,
    entryPoints: ['src/mcpServer.ts'],
    outfile: 'dist/mcpServer.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    plugins: [withoutAjv],
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
