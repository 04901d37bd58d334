import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { ChatMessage } from '../../core/service/alphaClient';
import { estimateTokens } from '../../core/service/tokenEstimate';
import { describeError, isAbortError } from '../../core/service/errors';
import { encodeConversation, encodeHistory } from '../../core/toolCalls/toolHistory';
import { encodeTools } from '../../core/toolCalls/toolEncoder';
import { fitRequest, MESSAGE_OVERHEAD } from '../../core/toolCalls/toolRequest';
import { runToolReply } from '../../core/toolCalls/toolReply';
import type { ToolSpec } from '../../core/toolCalls/toolSpec';
import { abortOnCancel } from '../../host/disposables';
import type { Services } from '../../host/services';
import {
  TOOL_MODE_REQUIRED,
  type LanguageModelChatInformation,
  type LanguageModelChatProvider,
  type LanguageModelChatRequestMessage,
  type LanguageModelChatResponseOptions,
} from './chatApi';
import { historyMessage } from './toolParts';

/** The vendor id other extensions select ALPHA by: `vscode.lm.selectChatModels({ vendor: 'alpha' })`. */
export const ALPHA_VENDOR = 'alpha';

/** ALPHA's context is 200K tokens (the spec's model table); a share is kept for the reply. */
const CONTEXT_TOKENS = 200_000;
const MAX_OUTPUT_TOKENS = 16_000;
const MAX_INPUT_TOKENS = CONTEXT_TOKENS - MAX_OUTPUT_TOKENS;

/** The part classes a provider reports; `ToolCallPart` is undefined where VS Code has no tool calling. */
export interface ResponseParts {
  TextPart: new (value: string) => unknown;
  ToolCallPart?: new (callId: string, name: string, input: object) => unknown;
}

/**
 * ALPHA in VS Code's model picker and `vscode.lm`: one model, the configured `alphaAxo.chat.model`, streamed and
 * cancellable, with estimated token counts (the service publishes no tokenizer). With `alphaAxo.chat.toolCalling`
 * on and a VS Code that has the tool-call part, it declares tool calling, so VS Code offers it in Agent mode: the
 * tools go to ALPHA in a message (the service has no tool form), and the calls ALPHA writes come back as
 * `LanguageModelToolCallPart`s.
 */
export class AlphaModelProvider implements LanguageModelChatProvider, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<void>();
  private readonly subscription: vscode.Disposable;
  readonly onDidChangeLanguageModelChatInformation = this.emitter.event;

  constructor(
    private readonly services: Services,
    private readonly parts: ResponseParts,
  ) {
    this.subscription = services.settings.onDidChange((e) => {
      if (e.affectsConfiguration('alphaAxo.chat.model') || e.affectsConfiguration('alphaAxo.chat.toolCalling')) {
        this.emitter.fire();
      }
    });
  }

  /** Whether ALPHA takes tools: the setting (the user's own value; application scope) and this VS Code's API. */
  private get toolCalling(): boolean {
    const setting = vscode.workspace.getConfiguration('alphaAxo').inspect<unknown>('chat.toolCalling')?.globalValue;
    return setting !== false && this.parts.ToolCallPart !== undefined;
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
        maxInputTokens: MAX_INPUT_TOKENS,
        maxOutputTokens: MAX_OUTPUT_TOKENS,
        capabilities: { imageInput: false, toolCalling: this.toolCalling },
        isUserSelectable: true,
      },
    ];
  }

  async provideLanguageModelChatResponse(
    model: LanguageModelChatInformation,
    messages: readonly LanguageModelChatRequestMessage[],
    options: unknown,
    progress: vscode.Progress<unknown>,
    token: vscode.CancellationToken,
  ): Promise<void> {
    const controller = new AbortController();
    const link = abortOnCancel(token, controller);
    try {
      const tools = this.toolCalling ? toolsOf(options) : [];
      const mode = (options as LanguageModelChatResponseOptions | undefined)?.toolMode;
      const toolsMessage = tools.length
        ? encodeTools(tools, 'compact', mode === TOOL_MODE_REQUIRED ? 'required' : 'auto')
        : '';
      const conversation = encodeConversation(messages.map(historyMessage));
      const { messages: request, dropped } = fitRequest(
        conversation.messages,
        toolsMessage,
        MAX_INPUT_TOKENS,
        conversation.lastPrompt,
      );
      if (dropped) {
        this.services.log.info(`Language model request: ${dropped} earlier messages left out to fit the context.`);
      }
      const stream = (sent: ChatMessage[], signal: AbortSignal): AsyncIterable<string> =>
        this.services.alpha.stream({ model: model.id, messages: sent }, signal);
      const { TextPart, ToolCallPart } = this.parts;
      if (!tools.length || !ToolCallPart) {
        for await (const delta of stream(request, controller.signal)) {
          if (token.isCancellationRequested) {
            return;
          }
          progress.report(new TextPart(delta));
        }
        return;
      }
      const outcome = await runToolReply(
        stream,
        request,
        tools,
        {
          text: (text) => progress.report(new TextPart(text)),
          call: (call) => progress.report(new ToolCallPart(`call_${randomUUID()}`, call.name, call.input)),
        },
        controller.signal,
      );
      if (outcome.retried) {
        const what = outcome.failed ? `failed again: ${outcome.failed.detail}` : 'was mended on the second try';
        this.services.log.info(`Language model request: a tool call could not be read and ${what}`);
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
    if (typeof text === 'string') {
      return estimateTokens(text);
    }
    // Calls and results count as they are sent: written out in the call form and quoted.
    const sent = toServiceMessages([text]);
    return sent.reduce((sum, m) => sum + estimateTokens(m.content), 0) + MESSAGE_OVERHEAD;
  }

  dispose(): void {
    this.subscription.dispose();
    this.emitter.dispose();
  }
}

/**
 * The request's messages as the service takes them: text parts joined, tool calls written as ALPHA writes them, tool
 * results quoted and named; empty messages are left out.
 */
export function toServiceMessages(messages: readonly LanguageModelChatRequestMessage[]): ChatMessage[] {
  return encodeHistory(messages.map(historyMessage));
}

/** The tools VS Code passed with the request, each checked field by field (another extension made them). */
export function toolsOf(options: unknown): ToolSpec[] {
  const tools = (options as LanguageModelChatResponseOptions | undefined)?.tools;
  if (!Array.isArray(tools)) {
    return [];
  }
  return tools
    .filter((tool): tool is ToolSpec => typeof tool?.name === 'string' && tool.name !== '')
    .map((tool) => ({
      name: tool.name,
      description: typeof tool.description === 'string' ? tool.description : '',
      inputSchema: typeof tool.inputSchema === 'object' && tool.inputSchema !== null ? tool.inputSchema : undefined,
    }));
}
