import * as l10n from '@vscode/l10n';

/** Which of the two key kinds a request uses. */
export type KeyKind = 'chat' | 'encyclopedia';

/** What went wrong, in terms the UI can act on. */
export type ErrorKind =
  | 'missingKey'
  | 'badKey'
  | 'forbidden'
  | 'notFound'
  | 'badRequest'
  | 'tooLarge'
  | 'rateLimited'
  | 'server'
  | 'network'
  | 'timeout'
  | 'tls'
  | 'badResponse'
  | 'streamError'
  | 'cut'
  | 'config'
  | 'aborted';

/** The one fitting action a message offers next to its sentence. */
export type ErrorAction = 'setChatKey' | 'setEncyclopediaKey' | 'retry' | 'openSettings' | 'none';

/** Plain data describing a ServiceError; safe to post to a webview (never holds a key). */
export interface ErrorInfo {
  kind: ErrorKind;
  message: string;
  action: ErrorAction;
  status?: number;
  retryAfterSeconds?: number;
  keyKind?: KeyKind;
}

/** Options for constructing a ServiceError. */
export interface ServiceErrorOptions {
  status?: number;
  retryAfterSeconds?: number;
  keyKind?: KeyKind;
  detail?: string;
  cause?: unknown;
}

/** Every failure of the service clients is a ServiceError with a sentence a person can read. */
export class ServiceError extends Error {
  readonly kind: ErrorKind;
  readonly status?: number;
  readonly retryAfterSeconds?: number;
  readonly keyKind?: KeyKind;
  /** What the server itself said, if anything (already part of `message`). */
  readonly detail?: string;

  constructor(kind: ErrorKind, message: string, options: ServiceErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ServiceError';
    this.kind = kind;
    this.status = options.status;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.keyKind = options.keyKind;
    this.detail = options.detail;
  }

  /** The action that fits this error. */
  get action(): ErrorAction {
    return actionFor(this.kind, this.keyKind);
  }

  /** Whether trying the same request again may succeed. */
  get retryable(): boolean {
    return this.action === 'retry';
  }

  /** Plain data for messages and webviews. */
  toInfo(): ErrorInfo {
    return {
      kind: this.kind,
      message: this.message,
      action: this.action,
      status: this.status,
      retryAfterSeconds: this.retryAfterSeconds,
      keyKind: this.keyKind,
    };
  }
}

function actionFor(kind: ErrorKind, keyKind: KeyKind | undefined): ErrorAction {
  switch (kind) {
    case 'missingKey':
    case 'badKey':
    case 'forbidden':
      return keyKind === 'encyclopedia' ? 'setEncyclopediaKey' : 'setChatKey';
    case 'config':
      return 'openSettings';
    case 'rateLimited':
    case 'server':
    case 'network':
    case 'timeout':
    case 'cut':
    case 'streamError':
    case 'badResponse':
      return 'retry';
    default:
      return 'none';
  }
}

/** The human name of a key kind, as used in every message. */
export function keyLabel(kind: KeyKind): string {
  return kind === 'chat' ? l10n.t('chat API key') : l10n.t('encyclopedia API key');
}

/** True for an AbortError from fetch/undici/our own signals. */
export function isAbortError(error: unknown): boolean {
  if (error instanceof ServiceError) {
    return error.kind === 'aborted';
  }
  const e = error as { name?: string; code?: string } | undefined;
  return e?.name === 'AbortError' || e?.code === 'ABORT_ERR' || e?.code === 'UND_ERR_ABORTED';
}

/** Turns anything thrown into readable text, never `[object Object]`. */
export function describeError(error: unknown): string {
  if (error instanceof Error) {
    return error.message || error.name;
  }
  if (typeof error === 'string') {
    return error;
  }
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}
