import * as vscode from 'vscode';
import { ServiceError, describeError, isAbortError } from '../../core/service/errors';
import { abortOnCancel } from '../../host/disposables';
import { actionCommand } from '../../host/errorActions';
import type { ChatResponseStream, ChatResult } from './chatApi';

/**
 * Answers one chat request: `answer` runs with a signal that VS Code's cancellation aborts (the link is undone when
 * it ends), and a failure ends the turn as {@link failure} says. What `@alpha` and `@axo` share.
 */
export async function answerRequest(
  stream: ChatResponseStream,
  token: vscode.CancellationToken,
  answer: (signal: AbortSignal) => Promise<ChatResult>,
): Promise<ChatResult> {
  const controller = new AbortController();
  const link = abortOnCancel(token, controller);
  try {
    return await answer(controller.signal);
  } catch (error) {
    return failure(error, stream, token);
  } finally {
    link.dispose();
  }
}

/** Ends a failed turn: quiet on cancel, the cut-off notice, or the error with its fitting button. */
export function failure(error: unknown, stream: ChatResponseStream, token: vscode.CancellationToken): ChatResult {
  if (token.isCancellationRequested || isAbortError(error)) {
    return {};
  }
  if (error instanceof ServiceError && error.kind === 'cut') {
    return { errorDetails: { message: vscode.l10n.t('The reply was cut off.'), responseIsIncomplete: true } };
  }
  const command = error instanceof ServiceError ? actionCommand(error.action) : undefined;
  if (command) {
    stream.button(command);
  }
  return { errorDetails: { message: describeError(error) } };
}
