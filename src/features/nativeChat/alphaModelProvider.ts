import * as vscode from 'vscode';
import type { ChatMessage } from '../../core/service/alphaClient';
import { estimateTokens } from '../../core/service/tokenEstimate';
import { describeError, isAbortError } from '../../core/service/errors';
import { abortOnCancel } from '../../host/disposables';
import type { Services } from '../../host/services';
import {
  MESSAGE_ROLE,
  messageText,
  type LanguageModelChatInformation,
  type LanguageModelChatProvider,
  type LanguageModelChatRequestMessage,
} from './chatApi';

/** The vendor id other extensions select ALPHA by: `vscode.lm.selectChatModels({ vendor: 'alpha' })`. */
export const ALPHA_VENDOR = 'alpha';

/** ALPHA's context is 200K tokens (the spec's model table); a share is kept for the reply. */
const CONTEXT_TOKENS = 200_000;
const MAX_OUTPUT_TOKENS = 16_000;

/**
 * ALPHA in VS Code's model picker and `vscode.lm`: one model, the configured `alphaAxo.chat.model`, streamed and
 * cancellable, with estimated token counts (the service publishes no tokenizer).
 */
export class AlphaModelProvider implements LanguageModelChatProvider, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<void>();
  private readonly subscription: vscode.Disposable;
  readonly onDidChangeLanguageModelChatInformation = this.emitter.event;

  constructor(
    private readonly services: Services,
    private readonly TextPart: new (value: string) => unknown,
  ) {
    this.subscription = services.settings.onDidChange((e) => {
      if (e.affectsConfiguration('alphaAxo.chat.model')) {
        this.emitter.fire();
      }
    });
  }

  provideLanguageModelChatInformation(): LanguageModelChatInformation[] {
    const id = this.services.settings.chatModel;
    return [
      {
        id,
        name: 'ALPHA',
        family: 'alpha',
        version: id,
        tooltip: vscode.l10n.t('ALPHA from the ALPHA & AXO service: text, coding and knowledge, 200K context.'),
        detail: 'ALPHA & AXO',
        maxInputTokens: CONTEXT_TOKENS - MAX_OUTPUT_TOKENS,
        maxOutputTokens: MAX_OUTPUT_TOKENS,
        capabilities: { imageInput: false, toolCalling: false },
        isUserSelectable: true,
      },
    ];
  }

  async provideLanguageModelChatResponse(
    model: LanguageModelChatInformation,
    messages: readonly LanguageModelChatRequestMessage[],
    _options: unknown,
    progress: vscode.Progress<unknown>,
    token: vscode.CancellationToken,
  ): Promise<void> {
    const controller = new AbortController();
    const link = abortOnCancel(token, controller);
    try {
      const request = { model: model.id, messages: toServiceMessages(messages) };
      for await (const delta of this.services.alpha.stream(request, controller.signal)) {
        if (token.isCancellationRequested) {
          return;
        }
        progress.report(new this.TextPart(delta));
      }
    } catch (error) {
      if (token.isCancellationRequested || isAbortError(error)) {
        return;
      }
      this.services.log.warn(`Language model request failed: ${describeError(error)}`);
      throw new Error(describeError(error), { cause: error });
    } finally {
      link.dispose();
    }
  }

  async provideTokenCount(
    _model: LanguageModelChatInformation,
    text: string | LanguageModelChatRequestMessage,
  ): Promise<number> {
    // A few tokens per message for the role and separators, as chat formats add them.
    return typeof text === 'string' ? estimateTokens(text) : estimateTokens(messageText(text)) + 4;
  }

  dispose(): void {
    this.subscription.dispose();
    this.emitter.dispose();
  }
}

/** The request's messages as the service takes them; empty messages (tool traffic only) are left out. */
export function toServiceMessages(messages: readonly LanguageModelChatRequestMessage[]): ChatMessage[] {
  return messages
    .map((m): ChatMessage => ({ role: roleOf(m.role), content: messageText(m) }))
    .filter((m) => m.content.trim() !== '');
}

function roleOf(role: number): ChatMessage['role'] {
  if (role === MESSAGE_ROLE.assistant) {
    return 'assistant';
  }
  return role === MESSAGE_ROLE.system ? 'system' : 'user';
}
