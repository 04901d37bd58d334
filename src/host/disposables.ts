import * as vscode from 'vscode';

/** Base class for objects that own disposables: register them once, dispose them all together. */
export abstract class DisposableOwner implements vscode.Disposable {
  private readonly owned: vscode.Disposable[] = [];
  private disposed = false;

  /** Takes ownership of `disposable` and returns it. Disposed at once if the owner is already disposed. */
  protected _register<T extends vscode.Disposable>(disposable: T): T {
    if (this.disposed) {
      disposable.dispose();
    } else {
      this.owned.push(disposable);
    }
    return disposable;
  }

  /** Whether dispose() has run. */
  protected get isDisposed(): boolean {
    return this.disposed;
  }

  dispose(): void {
    if (this.disposed) {
      return;
    }
    this.disposed = true;
    while (this.owned.length) {
      this.owned.pop()?.dispose();
    }
  }
}

/**
 * Holds at most one running operation: setting a new one aborts the previous one.
 * Used for the current stream, so a new request or a closed panel always ends the old request.
 */
export class AbortSlot implements vscode.Disposable {
  private current: AbortController | undefined;

  /** Aborts whatever runs and returns a fresh controller for the next operation. */
  next(): AbortController {
    this.current?.abort();
    this.current = new AbortController();
    return this.current;
  }

  /** Aborts the running operation, if any. Returns true if there was one. */
  abort(): boolean {
    const had = this.current !== undefined && !this.current.signal.aborted;
    this.current?.abort();
    this.current = undefined;
    return had;
  }

  /** Forgets `controller` if it is still the current one (its operation ended normally). */
  release(controller: AbortController): void {
    if (this.current === controller) {
      this.current = undefined;
    }
  }

  dispose(): void {
    this.abort();
  }
}

/** Links a VS Code cancellation token to an AbortController; dispose the result when done. */
export function abortOnCancel(token: vscode.CancellationToken, controller: AbortController): vscode.Disposable {
  if (token.isCancellationRequested) {
    controller.abort();
  }
  return token.onCancellationRequested(() => controller.abort());
}
