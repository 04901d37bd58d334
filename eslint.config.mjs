import tseslint from 'typescript-eslint';

/** The feature folders under src/features: none imports another. */
const FEATURES = ['assist', 'chat', 'encyclopedia', 'keys', 'nativeChat', 'status'];

export default tseslint.config(
  {
    ignores: [
      'out/**',
      'dist/**',
      'node_modules/**',
      'test-host/**',
      '.vscode-test/**',
      '*.mjs',
      'scripts/**',
      'media/**',
    ],
  },
  ...tseslint.configs.recommended,
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
  // Layer rules (README "Architecture"): each layer imports only what it may.
  {
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'vscode', message: 'src/core stays free of vscode.' }],
          patterns: [
            {
              regex: '^(\\.\\./)+(host|features|webview)(/|$)',
              message: 'src/core imports neither src/host, a feature nor the webviews.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/host/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+(features|webview)(/|$)',
              message: 'src/host serves the features: it imports neither a feature nor the webviews.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'vscode', message: 'src/shared runs in the host and in the webviews.' }],
          patterns: [
            {
              regex: '^(\\.\\./)+',
              message: 'src/shared is pure code both the host and the webviews import: it imports only itself.',
            },
            { regex: '^node:', message: 'src/shared runs in the webviews too.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/protocol/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'vscode', message: 'The protocol is shared with the webviews.' }],
          patterns: [
            {
              regex: '^(\\.\\./)+(core|host|features|webview)(/|$)',
              message: 'The protocol imports nothing but itself (the webviews import it).',
            },
          ],
        },
      ],
    },
  },
  ...FEATURES.map((feature) => ({
    files: [`src/features/${feature}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^(\\.\\./)+(features/)?(${FEATURES.filter((f) => f !== feature).join('|')})(/|$)`,
              message: 'A feature does not import another feature: move what both need to src/host or src/core.',
            },
            {
              regex: '^(\\.\\./)+webview(/|$)',
              message: 'The webviews are bundled apart; share through src/protocol.',
            },
          ],
        },
      ],
    },
  })),
  {
    files: ['src/webview/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'vscode', message: 'The webview runs in a browser.' }],
          patterns: [
            {
              regex: '^(\\.\\./)+(core|host|features|extension)(/|$)',
              message:
                'A webview imports only its own folders, src/webview/shared, src/shared, src/protocol and npm packages.',
            },
            { regex: '^node:', message: 'The webview runs in a browser.' },
          ],
        },
      ],
    },
  },
);
