import * as path from 'node:path';

/** The repository's root, wherever a test file sits (this file runs from out/test/support). */
export const repoRoot = path.resolve(__dirname, '..', '..', '..');

/** The compiled tree (`out/`), where the tests, the fake service and the MCP server's entry run from. */
export const outRoot = path.join(repoRoot, 'out');
