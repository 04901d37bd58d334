import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';

const EXTENSION_ID = 'alpha-axo.alpha-axo';

/** The public contract (the README's Commands table): command id → title as the palette shows it. */
const CONTRACT_COMMANDS: Record<string, string> = {
  'alpha.chat.open': 'ALPHA: Open Chat',
  'alpha.chat.openInEditor': 'ALPHA: Open Chat in Editor',
  'alpha.chat.new': 'ALPHA: New Conversation',
  'alpha.chat.ask': 'ALPHA: Ask…',
  'alpha.chat.addSelection': 'ALPHA: Add Selection to Chat',
  'alpha.chat.export': 'ALPHA: Export Conversation as Markdown',
  'alpha.explain': 'ALPHA: Explain Selection',
  'alpha.document': 'ALPHA: Document Selection',
  'alpha.refactor': 'ALPHA: Refactor Selection…',
  'alpha.generateTests': 'ALPHA: Generate Tests',
  'alpha.fix': 'ALPHA: Fix Problems',
  'axo.ask': 'AXO: Ask the Encyclopedia…',
  'axo.search': 'AXO: Search the Encyclopedia…',
  'axo.article': 'AXO: Open Article…',
  'alpha.setApiKey': 'ALPHA: Set Chat API Key',
  'axo.setApiKey': 'AXO: Set Encyclopedia API Key',
  'alphaAxo.clearApiKeys': 'ALPHA & AXO: Clear API Keys',
  'alphaAxo.testConnection': 'ALPHA & AXO: Test Connection',
  'alphaAxo.showLogs': 'ALPHA & AXO: Show Logs',
};

interface ManifestCommand {
  command: string;
  title: string;
  category?: string;
}

function extension(): vscode.Extension<unknown> {
  const found = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(found, `${EXTENSION_ID} is not installed in the extension host`);
  return found;
}

describe('extension activation', () => {
  it('is present in the extension host', () => {
    assert.equal(extension().id, EXTENSION_ID);
  });

  it('contributes every contract command with its title', () => {
    const manifest = extension().packageJSON as { contributes?: { commands?: ManifestCommand[] } };
    const contributed = new Map(
      (manifest.contributes?.commands ?? []).map((c) => [
        c.command,
        c.category ? `${c.category}: ${c.title}` : c.title,
      ]),
    );
    for (const [id, title] of Object.entries(CONTRACT_COMMANDS)) {
      assert.equal(contributed.get(id), title, `the title of ${id}`);
    }
  });

  it('activates on one of its commands', async () => {
    await vscode.commands.executeCommand('alphaAxo.showLogs');
    assert.equal(extension().isActive, true);
  });

  it('registers every contract command', async () => {
    await extension().activate();
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = Object.keys(CONTRACT_COMMANDS).filter((id) => !registered.has(id));
    assert.deepEqual(missing, [], `commands not registered: ${missing.join(', ')}`);
  });
});
