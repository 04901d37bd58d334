// Builds the bundles: the extension (Node, CommonJS, `vscode` external), the MCP server (Node, CommonJS: the stdio
// server, and the in-host server the extension loads from it) and the webviews (browser).
import * as esbuild from 'esbuild';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
// `--analyze`: after the build, what each bundle holds by package (what each package costs it), largest first.
const analyze = process.argv.includes('--analyze');

const common = {
  bundle: true,
  minify: production,
  sourcemap: production ? false : 'linked',
  logLevel: 'warning',
  legalComments: 'none',
  metafile: analyze,
};

/** The webview entry points: a missing one fails the build (a page without its script would load blank). */
const webviewEntries = ['chat', 'encyclopedia'].map((name) => ({ name, file: `src/webview/${name}/main.ts` }));
const missing = webviewEntries.filter((e) => !existsSync(e.file)).map((e) => e.file);
if (missing.length) {
  console.error(`esbuild.mjs: webview entry point not found: ${missing.join(', ')}`);
  process.exit(1);
}

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
  const results = await Promise.all(builds.map((options) => esbuild.build(options)));
  if (analyze) {
    results.forEach((result) => printParts(result.metafile));
  }
}

/** One line per bundle, then its bytes by npm package (`src` for ours), as esbuild's metafile counts them. */
function printParts(metafile) {
  for (const [file, output] of Object.entries(metafile.outputs)) {
    if (file.endsWith('.map') || file.endsWith('.css')) {
      continue;
    }
    const parts = new Map();
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
      const name = match ? match[1] : 'src';
      parts.set(name, (parts.get(name) ?? 0) + bytesInOutput);
    }
    const kb = (bytes) => `${(bytes / 1000).toFixed(0)} KB`;
    const sorted = [...parts].sort((a, b) => b[1] - a[1]);
    console.log(`${file}: ${kb(output.bytes)}; ${sorted.map(([name, bytes]) => `${name} ${kb(bytes)}`).join(', ')}`);
  }
}
