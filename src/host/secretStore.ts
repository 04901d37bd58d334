// Only types from vscode: the store runs in plain Node too, where the unit tests give it a SecretStorage that fails.
import type * as vscode from 'vscode';
import type { KeyKind } from '../core/service/errors';

const STORAGE_KEYS: Record<KeyKind, string> = {
  chat: 'alphaAxo.chatApiKey',
  encyclopedia: 'alphaAxo.encyclopediaApiKey',
};

const ENV_VARS: Record<KeyKind, string> = {
  chat: 'ALPHA_API_KEY',
  encyclopedia: 'AXO_API_KEY',
};

/** How long SecretStorage may take before the keyring counts as missing. */
export const KEYRING_TIMEOUT_MS = 5000;

/** Where a key came from. */
export type KeySource = 'stored' | 'session' | 'environment' | 'none';

/** Why the keyring could not be used: it refused (no secret service, locked) or never answered. */
export type KeyringProblem = 'unavailable' | 'timeout';

/** SecretStorage failed or did not answer in time. Never holds the key. */
export class KeyringError extends Error {
  constructor(
    readonly problem: KeyringProblem,
    readonly operation: 'read' | 'store' | 'delete',
    readonly kind: KeyKind,
    /** What SecretStorage itself said, for the log only. */
    readonly detail: string,
  ) {
    super(`SecretStorage ${operation} of the ${kind} key: ${problem === 'timeout' ? 'no answer' : detail}`);
    this.name = 'KeyringError';
  }
}

/** Options of the store; tests shorten the timeout and give their own environment. */
export interface SecretStoreOptions {
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
}

/** A minimal event emitter matching `vscode.Event`, so this file needs no runtime import of vscode. */
class Emitter<T> {
  private readonly listeners = new Set<(value: T) => unknown>();
  readonly event: vscode.Event<T> = (listener, thisArgs?: unknown) => {
    const bound = (value: T) => listener.call(thisArgs, value);
    this.listeners.add(bound);
    return { dispose: () => void this.listeners.delete(bound) };
  };
  fire(value: T): void {
    [...this.listeners].forEach((listener) => listener(value));
  }
  dispose(): void {
    this.listeners.clear();
  }
}

/**
 * The two API keys: in SecretStorage, or for this session only (in memory, never on disk) when the keyring is
 * missing, else from `ALPHA_API_KEY` / `AXO_API_KEY` (remote machines, Codespaces). SecretStorage calls that fail
 * or take longer than the timeout are reported through `onDidFail` and never block a request for longer.
 */
export class SecretStore implements vscode.Disposable {
  private readonly changes = new Emitter<KeyKind>();
  private readonly failures = new Emitter<KeyringError>();
  private readonly session = new Map<KeyKind, string>();
  /**
   * What SecretStorage last answered, per kind: every request needs its key, and each read is a round trip to
   * VS Code's main process. Dropped when SecretStorage reports a change (from this window or another).
   */
  private readonly stored = new Map<KeyKind, string | undefined>();
  /** Counts changes per kind, so a read that overlapped a change does not keep what it read. */
  private readonly generation = new Map<KeyKind, number>();
  /** Reads that outlived the timeout and have not settled: while one hangs, the keyring is not waited for again. */
  private readonly hanging = new Set<KeyKind>();
  private readonly subscription: vscode.Disposable;
  private readonly env: NodeJS.ProcessEnv;
  private readonly timeoutMs: number;
  /** Fires with the kind of key that changed (in this window or another, stored or session-only). */
  readonly onDidChange = this.changes.event;
  /** Fires when SecretStorage fails or does not answer in time. */
  readonly onDidFail = this.failures.event;

  constructor(
    private readonly secrets: vscode.SecretStorage,
    options: SecretStoreOptions = {},
  ) {
    this.env = options.env ?? process.env;
    this.timeoutMs = options.timeoutMs ?? KEYRING_TIMEOUT_MS;
    this.subscription = secrets.onDidChange((e) => {
      for (const kind of Object.keys(STORAGE_KEYS) as KeyKind[]) {
        if (e.key === STORAGE_KEYS[kind]) {
          this.forget(kind);
          this.changes.fire(kind);
        }
      }
    });
  }

  /** The key of a kind: session-only, else stored, else from the environment, else undefined. */
  async get(kind: KeyKind): Promise<string | undefined> {
    return (await this.lookup(kind)).key;
  }

  /** The key and where it came from. A keyring that fails or hangs is reported and skipped, never thrown. */
  async lookup(kind: KeyKind): Promise<{ key?: string; source: KeySource }> {
    const session = this.session.get(kind);
    if (session) {
      return { key: session, source: 'session' };
    }
    const stored = (await this.readStored(kind))?.trim();
    if (stored) {
      return { key: stored, source: 'stored' };
    }
    const fromEnv = this.env[ENV_VARS[kind]]?.trim();
    return fromEnv ? { key: fromEnv, source: 'environment' } : { source: 'none' };
  }

  /** Stores a key (trimmed) in SecretStorage; throws a KeyringError when the keyring fails or does not answer. */
  async set(kind: KeyKind, value: string): Promise<void> {
    this.forget(kind);
    try {
      await this.withTimeout('store', kind, () => this.secrets.store(STORAGE_KEYS[kind], value.trim()));
    } finally {
      // Reads made while the write was under way may have seen the old value.
      this.forget(kind);
    }
    if (this.session.delete(kind)) {
      this.changes.fire(kind);
    }
  }

  /** Keeps a key (trimmed) in memory for this window only: it is never written anywhere. */
  setSession(kind: KeyKind, value: string): void {
    this.session.set(kind, value.trim());
    this.changes.fire(kind);
  }

  /** Removes a key: the session-only one at once, then the stored one (a KeyringError if the keyring fails). */
  async delete(kind: KeyKind): Promise<void> {
    if (this.session.delete(kind)) {
      this.changes.fire(kind);
    }
    this.forget(kind);
    try {
      await this.withTimeout('delete', kind, () => this.secrets.delete(STORAGE_KEYS[kind]));
    } finally {
      this.forget(kind);
    }
  }

  /** Whether a key of this kind is at hand without the keyring: kept for this session, or in the environment. */
  hasFallback(kind: KeyKind): boolean {
    return Boolean(this.session.get(kind) || this.env[ENV_VARS[kind]]?.trim());
  }

  /** The environment variable a kind falls back to. */
  static envVar(kind: KeyKind): string {
    return ENV_VARS[kind];
  }

  dispose(): void {
    this.subscription.dispose();
    this.changes.dispose();
    this.failures.dispose();
  }

  /** Drops what SecretStorage last answered for a kind, and any read still on its way. */
  private forget(kind: KeyKind): void {
    this.stored.delete(kind);
    this.generation.set(kind, (this.generation.get(kind) ?? 0) + 1);
  }

  private async readStored(kind: KeyKind): Promise<string | undefined> {
    if (this.stored.has(kind)) {
      return this.stored.get(kind);
    }
    if (this.hanging.has(kind)) {
      return undefined;
    }
    const generation = this.generation.get(kind) ?? 0;
    try {
      const value = await this.withTimeout('read', kind, () => this.secrets.get(STORAGE_KEYS[kind]));
      if ((this.generation.get(kind) ?? 0) === generation) {
        this.stored.set(kind, value);
      }
      return value;
    } catch (error) {
      if (error instanceof KeyringError) {
        return undefined;
      }
      throw error;
    }
  }

  /** Runs one SecretStorage call; a throw or a timeout becomes a KeyringError, fired on `onDidFail` and thrown. */
  private async withTimeout<T>(
    operation: KeyringError['operation'],
    kind: KeyKind,
    call: () => Thenable<T>,
  ): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const pending = Promise.resolve().then(call);
    const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), this.timeoutMs)));
    try {
      const outcome = await Promise.race([pending.then((value) => ({ value })), timeout]);
      if (outcome === 'timeout') {
        if (operation === 'read') {
          this.hanging.add(kind);
          void pending.then(
            () => this.hanging.delete(kind),
            () => this.hanging.delete(kind),
          );
        }
        throw new KeyringError('timeout', operation, kind, `no answer within ${this.timeoutMs} ms`);
      }
      return outcome.value;
    } catch (error) {
      const failure =
        error instanceof KeyringError
          ? error
          : new KeyringError('unavailable', operation, kind, error instanceof Error ? error.message : String(error));
      this.failures.fire(failure);
      throw failure;
    } finally {
      clearTimeout(timer);
    }
  }
}
