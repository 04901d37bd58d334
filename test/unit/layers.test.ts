import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { ESLint } from 'eslint';

/** The repository root (this file runs from out/test/unit). */
const root = path.join(__dirname, '..', '..', '..');

/**
 * The layer rules of eslint.config.mjs (README "Architecture"), checked on code that breaks each one: `npm run lint`
 * fails on it. The files named exist, so the type-aware rules find their project; only the given text is linted.
 */
describe('layer rules (lint zones)', function () {
  this.timeout(60_000);
  const eslint = new ESLint({ cwd: root });

  async function restricted(filePath: string, code: string): Promise<string[]> {
    const [result] = await eslint.lintText(code, { filePath: path.join(root, filePath) });
    return result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
  }

  const broken: [string, string, string, RegExp][] = [
    ['a feature imports another feature', 'src/features/keys/walkthrough.ts', '../chat/chatController', /feature/],
    ['src/core imports src/host', 'src/core/links.ts', '../host/services', /src\/core/],
    ['src/core imports vscode', 'src/core/links.ts', 'vscode', /vscode/],
    ['a webview imports src/core', 'src/webview/chat/scroller.ts', '../../core/errors', /webview/],
    ['a webview imports the host', 'src/webview/encyclopedia/markdown.ts', '../../host/settings', /webview/],
    ['src/host imports a feature', 'src/host/display.ts', '../features/chat/chatController', /src\/host/],
    ['the protocol imports src/core', 'src/protocol/validate.ts', '../core/errors', /protocol/],
    ['src/shared imports src/core', 'src/shared/links.ts', '../core/errors', /src\/shared/],
    ['src/shared imports a Node module', 'src/shared/links.ts', 'node:path', /webviews/],
  ];
  for (const [what, file, from, message] of broken) {
    it(`fails when ${what}`, async () => {
      const messages = await restricted(file, `import type * as M from '${from}';\nexport type X = typeof M;\n`);
      assert.equal(messages.length, 1, `no layer error for ${from} in ${file}`);
      assert.match(messages[0], message);
    });
  }

  it('lets a feature use src/host, src/core and src/protocol, and a webview its shared folder and npm packages', async () => {
    assert.deepEqual(
      await restricted(
        'src/features/keys/walkthrough.ts',
        "import type * as A from '../../host/settings';\nimport type * as B from '../../core/errors';\n" +
          "import type * as C from '../../protocol/chatProtocol';\nexport type X = [typeof A, typeof B, typeof C];\n",
      ),
      [],
    );
    assert.deepEqual(
      await restricted(
        'src/webview/chat/scroller.ts',
        "import type * as A from '../shared/l10n';\nimport type * as B from '../../protocol/chatProtocol';\n" +
          "import type * as C from 'marked';\nexport type X = [typeof A, typeof B, typeof C];\n",
      ),
      [],
    );
  });
});
