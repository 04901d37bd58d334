import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { ESLint } from 'eslint';
import { repoRoot } from '../../support/repoRoot';

/** The repository root (this file runs from out/test/unit). */
const root = repoRoot;

/** The rules that hold the layers: zones on resolved paths, module names per layer, and no circles. */
const LAYER_RULES = new Set(['import-x/no-restricted-paths', 'no-restricted-imports', 'import-x/no-cycle']);

/**
 * The layer rules of eslint.config.mjs (docs/architecture.md, "Layers"), checked on code that breaks each one: `npm run lint`
 * fails on it. The files named exist, so the type-aware rules find their project; only the given text is linted.
 * Each zone is tried with a short and a deep relative path (`../../../src/…` resolves to the same file: the zones
 * match resolved paths, not import text).
 */
describe('layer rules (lint zones)', function () {
  this.timeout(120_000);
  const eslint = new ESLint({ cwd: root });

  async function layerErrors(filePath: string, code: string): Promise<string[]> {
    const [result] = await eslint.lintText(code, { filePath: path.join(root, filePath) });
    return result.messages.filter((m) => m.ruleId && LAYER_RULES.has(m.ruleId)).map((m) => m.message);
  }
  const importing = (from: string) => `import type * as M from '${from}';\nexport type X = typeof M;\n`;

  /** [what, the importing file, what it imports (short), the same file by a deep path, the message expected] */
  const zones: [string, string, string, string, RegExp][] = [
    [
      'a feature imports another feature',
      'src/features/keys/walkthrough.ts',
      '../chat/chatController',
      '../../../src/features/chat/chatController',
      /feature/,
    ],
    [
      'src/core imports src/host',
      'src/core/service/links.ts',
      '../../host/settings',
      '../../../src/host/settings',
      /src\/core/,
    ],
    [
      'src/core imports a feature',
      'src/core/chat/runs/chatState.ts',
      '../../../features/chat/chatController',
      '../../../../src/features/chat/chatController',
      /src\/core/,
    ],
    [
      'src/core imports a webview',
      'src/core/chat/runs/chatState.ts',
      '../../../webview/chat/scroller',
      '../../../../src/webview/chat/scroller',
      /src\/core/,
    ],
    [
      'a webview imports src/core',
      'src/webview/chat/scroller.ts',
      '../../core/service/errors',
      '../../../src/core/service/errors',
      /webview/,
    ],
    [
      'a webview imports the host',
      'src/webview/encyclopedia/markdown.ts',
      '../../host/settings',
      '../../../src/host/settings',
      /webview/,
    ],
    [
      'a webview imports the other webview',
      'src/webview/chat/scroller.ts',
      '../encyclopedia/markdown',
      '../../../src/webview/encyclopedia/markdown',
      /webview/,
    ],
    [
      "the webviews' shared folder imports a page",
      'src/webview/shared/dom.ts',
      '../chat/scroller',
      '../../../src/webview/chat/scroller',
      /webview\/shared/,
    ],
    [
      'src/host imports a feature',
      'src/host/display.ts',
      '../features/chat/chatController',
      '../../src/features/chat/chatController',
      /src\/host/,
    ],
    [
      'the protocol imports src/core',
      'src/protocol/validate.ts',
      '../core/service/errors',
      '../../src/core/service/errors',
      /protocol/,
    ],
    [
      'src/shared imports src/core',
      'src/shared/links.ts',
      '../core/service/errors',
      '../../src/core/service/errors',
      /src\/shared/,
    ],
  ];
  for (const [what, file, short, deep, message] of zones) {
    for (const from of [short, deep]) {
      it(`fails when ${what} (${from})`, async () => {
        const messages = await layerErrors(file, importing(from));
        assert.equal(messages.length, 1, `no layer error for ${from} in ${file}: ${messages.join('; ')}`);
        assert.match(messages[0], message);
      });
    }
  }

  const modules: [string, string, string, RegExp][] = [
    ['src/core imports vscode', 'src/core/service/links.ts', 'vscode', /vscode/],
    ['src/core outside net/ opens connections', 'src/core/service/alphaClient.ts', 'node:net', /src\/core\/net/],
    ['src/core outside net/ imports undici', 'src/core/chat/runs/chatState.ts', 'undici', /src\/core\/net/],
    ['src/core outside storage touches the disk', 'src/core/service/alphaClient.ts', 'node:fs', /storage/],
    ['the network layer touches the disk', 'src/core/net/http.ts', 'fs/promises', /storage/],
    ['src/core starts a process', 'src/core/storage/folderLock.ts', 'node:child_process', /processes/],
    ['the network layer starts a process', 'src/core/net/http.ts', 'child_process', /processes/],
    ['src/shared imports a Node module', 'src/shared/links.ts', 'node:path', /webviews/],
    ['a webview imports a Node module', 'src/webview/chat/scroller.ts', 'node:fs', /browser/],
  ];
  for (const [what, file, from, message] of modules) {
    it(`fails when ${what} (${from})`, async () => {
      const messages = await layerErrors(file, importing(from));
      assert.equal(messages.length, 1, `no layer error for ${from} in ${file}: ${messages.join('; ')}`);
      assert.match(messages[0], message);
    });
  }

  it('fails on an import circle', async () => {
    // conversationStore.ts imports conversationSummary.ts: the summary importing the store back closes a circle.
    // A value import: a type-only one makes no circle at run time and is allowed.
    const code = "import { ConversationStore } from './conversationStore';\nexport const X = ConversationStore;\n";
    const messages = await layerErrors('src/core/chat/store/conversationSummary.ts', code);
    assert.ok(
      messages.some((m) => /cycle/i.test(m)),
      `no circle reported: ${messages.join('; ')}`,
    );
  });

  it('lets each layer use what it may', async () => {
    const allowed: [string, string[]][] = [
      [
        'src/features/keys/walkthrough.ts',
        ['../../host/settings', '../../core/service/errors', '../../protocol/chatProtocol'],
      ],
      [
        'src/webview/chat/scroller.ts',
        ['../shared/l10n', '../../protocol/chatProtocol', '../../shared/links', 'marked'],
      ],
      ['src/core/storage/folderLock.ts', ['node:fs', '../service/errors']],
      ['src/core/net/http.ts', ['undici', 'node:net', '../service/errors']],
      ['src/core/net/trust.ts', ['node:fs']],
    ];
    for (const [file, froms] of allowed) {
      const code = froms.map((from, i) => `import type * as M${i} from '${from}';\n`).join('') + 'export type X = 1;\n';
      assert.deepEqual(await layerErrors(file, code), [], file);
    }
  });
});
