import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { CLASS, STYLED } from '../../src/webview/chat/render/classNames';

/** The repository root (this file runs from out/test/unit). */
const root = path.join(__dirname, '..', '..', '..');

describe('the long-reply rendering’s class names', () => {
  it('that chat.css styles are each a selector there, so a rename on one side only fails here', () => {
    const css = readFileSync(path.join(root, 'src', 'webview', 'chat', 'chat.css'), 'utf8').replace(
      /\/\*[\s\S]*?\*\//g,
      '',
    );
    const missing = STYLED.filter((name) => !new RegExp(`\\.${name}(?![\\w-])`).test(css));
    assert.deepEqual(missing, []);
    assert.equal(new Set(Object.values(CLASS)).size, Object.keys(CLASS).length, 'no two constants share a name');
  });
});
