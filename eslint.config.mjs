import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import regexp from 'eslint-plugin-regexp';
import tseslint from 'typescript-eslint';

/** The feature folders under src/features: none imports another. */
const FEATURES = ['assist', 'chat', 'encyclopedia', 'keys', 'nativeChat', 'status', 'tools'];
/** The webview folders under src/webview besides shared: none imports another. */
const PAGES = ['chat', 'encyclopedia'];
/** Everything in src that is not the given folders (globs relative to the repository). */
const ALL = ['src/core', 'src/host', 'src/features', 'src/webview', 'src/protocol', 'src/shared', 'src/extension.ts'];
const outside = (...allowed) => ALL.filter((layer) => !allowed.includes(layer));

/** Who may import from where (import-x/no-restricted-paths: each zone's target may not import from its from). */
const ZONES = [
  {
    target: 'src/core',
    from: outside('src/core', 'src/shared'),
    message: 'src/core imports neither vscode, src/host, a feature, the protocol nor the webviews.',
  },
  {
    target: 'src/host',
    from: ['src/features', 'src/webview', 'src/extension.ts'],
    message: 'src/host serves the features: it imports neither a feature nor the webviews.',
  },
  {
    target: 'src/protocol',
    from: outside('src/protocol', 'src/shared'),
    message: 'The protocol imports nothing but itself and src/shared (the webviews import it).',
  },
  {
    target: 'src/shared',
    from: outside('src/shared'),
    message: 'src/shared is pure code both the host and the webviews import: it imports only itself.',
  },
  ...FEATURES.map((feature) => ({
    target: `src/features/${feature}`,
    from: 'src/features',
    except: [`./${feature}`],
    message: 'A feature does not import another feature: move what both need to src/host or src/core.',
  })),
  {
    target: 'src/features',
    from: ['src/webview', 'src/extension.ts'],
    message: 'The webviews are bundled apart; share through src/protocol.',
  },
  ...PAGES.map((page) => ({
    target: `src/webview/${page}`,
    from: [
      ...outside('src/webview', 'src/protocol', 'src/shared'),
      ...PAGES.filter((p) => p !== page).map((p) => `src/webview/${p}`),
    ],
    message: 'A webview imports only its own folder, src/webview/shared, src/shared, src/protocol and npm packages.',
  })),
  {
    target: 'src/webview/shared',
    from: [...outside('src/webview', 'src/protocol', 'src/shared'), ...PAGES.map((p) => `src/webview/${p}`)],
    message: 'src/webview/shared serves both pages: it imports neither of them nor the host side.',
  },
];

/** Files that keep data on disk: the only files of src/core that read or write files. */
const STORAGE = [
  'src/core/storage/**/*.ts',
  'src/core/chat/store/**/*.ts',
  'src/core/encyclopedia/cacheSnapshotFile.ts',
];
const withNode = (...names) => names.flatMap((name) => [name, `node:${name}`]);
const VSCODE_IN_CORE = { names: ['vscode'], message: 'src/core stays free of vscode.' };
const CHILD_PROCESS = { names: withNode('child_process'), message: 'src/core starts no processes.' };
const NETWORK = {
  names: [...withNode('net', 'tls', 'dns', 'http', 'https', 'http2', 'dgram'), 'undici'],
  message: 'Only src/core/net opens connections.',
};
const FILES = {
  names: withNode('fs', 'fs/promises'),
  message: 'Only the storage files (src/core/storage, src/core/chat/store, the cache snapshot) touch the disk.',
};

/** `no-restricted-imports` for `files` with exactly these module rules (a later block for a file replaces them). */
function moduleRules(files, rules) {
  const paths = rules.flatMap((rule) => (rule.names ?? []).map((name) => ({ name, message: rule.message })));
  const patterns = rules.filter((rule) => rule.regex).map(({ regex, message }) => ({ regex, message }));
  return [{ files: [files].flat(), rules: { 'no-restricted-imports': ['error', { paths, patterns }] } }];
}

export default tseslint.config(
  {
    ignores: ['out/**', 'dist/**', 'node_modules/**', 'test-host/**', '.vscode-test/**', 'media/**'],
  },
  ...tseslint.configs.recommended,
  // The build and test scripts (esbuild.mjs, this file, scripts/*.mjs): plain Node ES modules, linted without types.
  {
    files: ['*.mjs', 'scripts/**/*.mjs'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      curly: 'error',
      eqeqeq: ['error', 'always'],
    },
  },
  // No file in src over 400 lines, blank lines and comments included (what `wc -l` counts): split it by job.
  {
    files: ['src/**/*.ts'],
    rules: { 'max-lines': ['error', { max: 400, skipBlankLines: false, skipComments: false }] },
  },
  // No regular expression may backtrack super-linearly over text from the service, a workspace or a page
  // (docs/architecture.md, "Hostile input"): each report is fixed, or kept with a disable comment saying why it is safe.
  {
    files: ['src/**/*.ts'],
    plugins: { regexp },
    rules: {
      'regexp/no-super-linear-backtracking': 'error',
      'regexp/no-super-linear-move': 'error',
    },
  },
  {
    files: ['src/**/*.ts', 'test/**/*.ts'],
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: [] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      curly: 'error',
      eqeqeq: ['error', 'always'],
      'no-restricted-syntax': ['error', { selector: 'ExportDefaultDeclaration', message: 'No default exports.' }],
    },
  },
  // Layer rules (docs/architecture.md, "Layers"): where a file may import from, on resolved paths (a deep relative path
  // such as '../../../src/core/x' is caught as well as '../core/x'), and which modules each layer may use.
  {
    files: ['src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      // How import-x reads the files an import leads to (for circles): TypeScript, with the TypeScript parser.
      'import-x/extensions': ['.ts'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['tsconfig.json', 'src/webview/tsconfig.json'],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: ZONES }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  ...moduleRules('src/**/*.ts', []),
  ...moduleRules('src/core/**/*.ts', [VSCODE_IN_CORE, CHILD_PROCESS, NETWORK, FILES]),
  ...moduleRules('src/core/net/**/*.ts', [VSCODE_IN_CORE, CHILD_PROCESS, FILES]),
  // The trust store reads the CA files the user names (NODE_EXTRA_CA_CERTS, http.systemCertificates' fallbacks).
  ...moduleRules('src/core/net/trust.ts', [VSCODE_IN_CORE, CHILD_PROCESS]),
  ...moduleRules(STORAGE, [VSCODE_IN_CORE, CHILD_PROCESS, NETWORK]),
  // The in-editor MCP server listens on 127.0.0.1 (node:http): the one file outside src/core/net that takes connections.
  ...moduleRules('src/core/mcp/mcpHttpServer.ts', [VSCODE_IN_CORE, CHILD_PROCESS, FILES]),
  ...moduleRules('src/shared/**/*.ts', [
    { names: ['vscode'], message: 'src/shared runs in the host and in the webviews.' },
    { regex: '^node:', message: 'src/shared runs in the webviews too.' },
  ]),
  ...moduleRules('src/protocol/**/*.ts', [{ names: ['vscode'], message: 'The protocol is shared with the webviews.' }]),
  ...moduleRules('src/webview/**/*.ts', [
    { names: ['vscode'], message: 'The webview runs in a browser.' },
    { regex: '^node:', message: 'The webview runs in a browser.' },
  ]),
);
