import * as vscode from 'vscode';
import type { KeyKind } from '../core/errors';

const STORAGE_KEYS: Record<KeyKind, string> = {
  chat: 'alphaAxo.chatApiKey',
  encyclopedia: 'alphaAxo.encyclopediaApiKey',
};

const ENV_VARS: Record<KeyKind, string> = {
  chat: 'ALPHA_API_KEY',
  encyclopedia: 'AXO_API_KEY',
};

/** Where a key came from. */
export type KeySource = 'stored' | 'environment' | 'none';

/**
 * The two API keys, in SecretStorage only. Falls back to `ALPHA_API_KEY` / `AXO_API_KEY` when nothing is
 * stored (remote machines, Codespaces). Re-fires SecretStorage changes as typed events.
 */
export class SecretStore implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<KeyKind>();
  private readonly subscription: vscode.Disposable;
  /** Fires with the kind of key that changed (in this window or another). */
  readonly onDidChange = this.emitter.event;

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {
    this.subscription = secrets.onDidChange((e) => {
      for (const kind of Object.keys(STORAGE_KEYS) as KeyKind[]) {
        if (e.key === STORAGE_KEYS[kind]) {
          this.emitter.fire(kind);
        }
      }
    });
  }

  /** The key of a kind: stored, else from the environment, else undefined. */
  async get(kind: KeyKind): Promise<string | undefined> {
    return (await this.lookup(kind)).key;
  }

  /** The key and where it came from. */
  async lookup(kind: KeyKind): Promise<{ key?: string; source: KeySource }> {
    const stored = (await this.secrets.get(STORAGE_KEYS[kind]))?.trim();
    if (stored) {
      return { key: stored, source: 'stored' };
    }
    const fromEnv = this.env[ENV_VARS[kind]]?.trim();
    return fromEnv ? { key: fromEnv, source: 'environment' } : { source: 'none' };
  }

  /** Stores a key (trimmed). */
  async set(kind: KeyKind, value: string): Promise<void> {
    await this.secrets.store(STORAGE_KEYS[kind], value.trim());
  }

  /** Removes a stored key. */
  async delete(kind: KeyKind): Promise<void> {
    await this.secrets.delete(STORAGE_KEYS[kind]);
  }

  /** The environment variable a kind falls back to. */
  static envVar(kind: KeyKind): string {
    return ENV_VARS[kind];
  }

  dispose(): void {
    this.subscription.dispose();
    this.emitter.dispose();
  }
}
