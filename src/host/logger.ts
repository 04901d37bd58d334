import * as vscode from 'vscode';
import type { Logger } from '../core/logger';

/** Anything after "Bearer " that is not already redacted. */
const BEARER = /(Bearer\s+)(?!\*\*\*)[^\s"',;]+/gi;

/**
 * The extension's log: a LogOutputChannel ("ALPHA & AXO") behind the core's Logger interface.
 * Every line passes through `redact`, which removes bearer tokens and the current key strings.
 */
export class HostLogger implements Logger, vscode.Disposable {
  readonly channel: vscode.LogOutputChannel;
  private secrets: string[] = [];

  constructor(name = 'ALPHA & AXO') {
    this.channel = vscode.window.createOutputChannel(name, { log: true });
  }

  /** Tells the logger which strings must never be written (the current keys). */
  setSecrets(values: (string | undefined)[]): void {
    this.secrets = values.filter((v): v is string => typeof v === 'string' && v.length >= 4);
  }

  /** Removes bearer tokens and known secrets from a line. */
  redact(message: string): string {
    let out = message.replace(BEARER, '$1***');
    for (const secret of this.secrets) {
      out = out.split(secret).join('***');
    }
    return out;
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
