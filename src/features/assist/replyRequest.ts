import * as vscode from 'vscode';
import { buildRequest } from '../../core/chat/request/requestBuilder';
import { isAbortError } from '../../core/service/errors';
import { AbortSlot, abortOnCancel } from '../../host/disposables';
import { showServiceError } from '../../host/errorActions';
import type { Services } from '../../host/services';

/** Called with the reply so far after each delta; returning a promise makes the stream wait for it. */
export type ReplyListener = (replySoFar: string) => void | Promise<void>;

/**
 * Sends one prompt to ALPHA (after the repository's instructions, when there are any) under a cancellable progress notification and returns the whole reply; undefined when
 * cancelled or failed (a failure is shown with its fitting action, Retry running `retry`). One request at a time per
 * instance: a new one aborts the previous one.
 */
export class ReplyRequest implements vscode.Disposable {
  private readonly slot = new AbortSlot();

  constructor(private readonly services: Services) {}

  async send(
    prompt: string,
    title: string,
    retry: () => unknown,
    onDelta?: ReplyListener,
  ): Promise<string | undefined> {
    return vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title, cancellable: true },
      async (progress, token) => {
        const controller = this.slot.next();
        const link = abortOnCancel(token, controller);
        try {
          const reply = await this.collect(
            prompt,
            controller.signal,
            (chars) => {
              progress.report({ message: vscode.l10n.t('{0} characters received', chars.toLocaleString('en')) });
            },
            onDelta,
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

  private async collect(
    prompt: string,
    signal: AbortSignal,
    onChars: (chars: number) => void,
    onDelta: ReplyListener | undefined,
  ): Promise<string> {
    const model = this.services.settings.chatModel;
    // The repository's instructions go first, as in the chat (left out when they do not fit beside the prompt).
    const built = buildRequest({
      model,
      earlier: [],
      prompt: { content: prompt },
      instructions: this.services.instructions.current,
    });
    const request = { model, messages: built.error ? [{ role: 'user' as const, content: prompt }] : built.messages };
    if (!this.services.settings.chatStream) {
      const reply = await this.services.alpha.complete(request, signal);
      await onDelta?.(reply);
      return reply;
    }
    let reply = '';
    for await (const delta of this.services.alpha.stream(request, signal)) {
      reply += delta;
      onChars(reply.length);
      await onDelta?.(reply);
      if (signal.aborted) {
        break;
      }
    }
    return reply;
  }

  dispose(): void {
    this.slot.dispose();
  }
}
