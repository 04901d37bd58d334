import * as vscode from 'vscode';
import type { Logger } from '../core/logger';
import type { SecretScrubber } from '../core/service/secretScrubber';

/**
 * The extension's log: a LogOutputChannel ("ALPHA & AXO") behind the core's Logger interface.
 * Every line passes through the session's SecretScrubber, which removes bearer tokens and every key it knows.
 */
export class HostLogger implements Logger, vscode.Disposable {
  readonly channel: vscode.LogOutputChannel;

  constructor(
    private readonly scrubber: SecretScrubber,
    name = 'ALPHA & AXO',
  ) {
    this.channel = vscode.window.createOutputChannel(name, { log: true });
  }

  /** Removes bearer tokens and known secrets from a line. */
  redact(message: string): string {
    return this.scrubber.scrub(message);
  }

  trace(message: string): void {
    this.channel.trace(this.redact(message));
  }
  debug(message: string): void {
    this.channel.debug(this.redact(message));
  }
  info(message: string): void {
    this.channel.info(this.redact(message));
  }
  warn(message: string): void {
    this.channel.warn(this.redact(message));
  }
  error(message: string): void {
    this.channel.error(this.redact(message));
  }

  dispose(): void {
    this.channel.dispose();
  }
}
