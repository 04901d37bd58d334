import * as vscode from 'vscode';
import { collectAssistReply, type AssistReply, type ReplyListener } from '../../core/assist/assistReply';
import { isAbortError } from '../../core/service/errors';
import { AbortSlot, abortOnCancel } from '../../host/disposables';
import { showServiceError } from '../../host/errorActions';
import type { Services } from '../../host/services';

/**
 * Sends one prompt to ALPHA (after the repository's instructions, when there are any) under a cancellable progress
 * notification and returns the whole reply, with what fitting the request trimmed; undefined when cancelled or
 * failed (a failure is shown with its fitting action, Retry running `retry`). One request at a time per instance: a
 * new one aborts the previous one.
 */
export class ReplyRequest implements vscode.Disposable {
  private readonly slot = new AbortSlot();

  constructor(private readonly services: Services) {}

  async send(
    prompt: string,
    title: string,
    retry: () => unknown,
    onDelta?: ReplyListener,
  ): Promise<AssistReply | undefined> {
    return vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title, cancellable: true },
      async (progress, token) => {
        const controller = this.slot.next();
        const link = abortOnCancel(token, controller);
        try {
          const { settings, alpha, instructions } = this.services;
          const reply = await collectAssistReply(
            alpha,
            { model: settings.chatModel, stream: settings.chatStream, instructions: instructions.current },
            prompt,
            controller.signal,
            (soFar) => {
              progress.report({
                message: vscode.l10n.t('{0} characters received', soFar.length.toLocaleString('en')),
              });
              return onDelta?.(soFar);
            },
          );
          return controller.signal.aborted ? undefined : reply;
        } catch (error) {
          if (!controller.signal.aborted && !isAbortError(error)) {
            this.services.log.warn(`${title} failed: ${String(error)}`);
            void showServiceError(error, retry);
          }
          return undefined;
        } finally {
          link.dispose();
          this.slot.release(controller);
        }
      },
    );
  }

  dispose(): void {
    this.slot.dispose();
  }
}
