import * as vscode from 'vscode';

/*
 * VS Code's chat and language-model APIs as this extension uses them. What VS Code 1.90 (the `engines.vscode` floor,
 * and the pinned `@types/vscode`) has is taken from its typings: chat participants, `lm.selectChatModels`,
 * `LanguageModelChatMessage`. What came later is declared here, as in vscode.d.ts: the language-model chat provider
 * (`lm.registerLanguageModelChatProvider`, `LanguageModelTextPart`, 1.104) and `responseIsIncomplete`. Everything is
 * detected at run time: on a VS Code without it, `nativeChatApi()` returns undefined members and the features are
 * not registered.
 */

/** `vscode.ChatRequest`. */
export type ChatRequest = vscode.ChatRequest;

/** What the history reads of a `vscode.ChatRequestTurn`. */
export type ChatRequestTurn = Pick<vscode.ChatRequestTurn, 'prompt' | 'participant' | 'command'>;

/** What the history reads of a `vscode.ChatResponseTurn`: its parts are read as unknown values, whatever their kind. */
export type ChatResponseTurn = Pick<vscode.ChatResponseTurn, 'result' | 'participant' | 'command'> & {
  readonly response: readonly unknown[];
};

/** What the handlers read of a `vscode.ChatContext`. */
export interface ChatContext {
  readonly history: readonly (ChatRequestTurn | ChatResponseTurn)[];
}

/** `vscode.ChatResult`, with `errorDetails.responseIsIncomplete` (after 1.90: older versions ignore it). */
export interface ChatResult extends vscode.ChatResult {
  errorDetails?: vscode.ChatErrorDetails & { responseIsIncomplete?: boolean };
}

/** The parts of `vscode.ChatResponseStream` the handlers write. */
export type ChatResponseStream = Pick<vscode.ChatResponseStream, 'markdown' | 'progress' | 'reference' | 'button'>;

/** `vscode.LanguageModelChatInformation`. */
export interface LanguageModelChatInformation {
  readonly id: string;
  readonly name: string;
  readonly family: string;
  readonly version: string;
  readonly tooltip?: string;
  readonly detail?: string;
  readonly maxInputTokens: number;
  readonly maxOutputTokens: number;
  readonly capabilities: { readonly imageInput?: boolean; readonly toolCalling?: boolean | number };
  /** Shown in the chat's model picker (honoured by VS Code, not yet in the stable d.ts everywhere). */
  readonly isUserSelectable?: boolean;
}

/** `vscode.LanguageModelChatMessageRole`: User 1, Assistant 2, System 3 (proposed). */
export const MESSAGE_ROLE = { user: 1, assistant: 2, system: 3 } as const;

/** `vscode.LanguageModelChatRequestMessage`: content parts (text parts have `value: string`). */
export interface LanguageModelChatRequestMessage {
  readonly role: number;
  readonly content: readonly unknown[] | string;
  readonly name?: string;
}

/** `vscode.LanguageModelChatProvider`. */
export interface LanguageModelChatProvider<T extends LanguageModelChatInformation = LanguageModelChatInformation> {
  readonly onDidChangeLanguageModelChatInformation?: vscode.Event<void>;
  provideLanguageModelChatInformation(
    options: { readonly silent: boolean },
    token: vscode.CancellationToken,
  ): vscode.ProviderResult<T[]>;
  provideLanguageModelChatResponse(
    model: T,
    messages: readonly LanguageModelChatRequestMessage[],
    options: unknown,
    progress: vscode.Progress<unknown>,
    token: vscode.CancellationToken,
  ): Thenable<void>;
  provideTokenCount(
    model: T,
    text: string | LanguageModelChatRequestMessage,
    token: vscode.CancellationToken,
  ): Thenable<number>;
}

/** `vscode.LanguageModelChatTool`: a tool VS Code offers the model with a request. */
export interface LanguageModelChatTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema?: object;
}

/** `vscode.LanguageModelChatToolMode`: Auto 1, Required 2. */
export const TOOL_MODE_REQUIRED = 2;

/** `vscode.ProvideLanguageModelChatResponseOptions` (what we read of it). */
export interface LanguageModelChatResponseOptions {
  readonly tools?: readonly LanguageModelChatTool[];
  readonly toolMode?: number;
}

/** `vscode.LanguageModelChatResponse`. */
export interface LanguageModelChatResponse {
  readonly text: AsyncIterable<string>;
}

/** `vscode.LanguageModelChat`: what `lm.selectChatModels` returns. */
export type LanguageModelChat = vscode.LanguageModelChat;

/** `vscode.lm`: `selectChatModels` from 1.90, `registerLanguageModelChatProvider` from 1.104. */
export type LmNamespace = Pick<typeof vscode.lm, 'selectChatModels'> & {
  registerLanguageModelChatProvider(vendor: string, provider: LanguageModelChatProvider): vscode.Disposable;
};

/** The `vscode.LanguageModelChatMessage` factories. */
export type LanguageModelChatMessageStatic = Pick<typeof vscode.LanguageModelChatMessage, 'User' | 'Assistant'>;

/** The native chat APIs the running VS Code has; each member is undefined when it lacks them. */
export interface NativeChatApi {
  chat?: Pick<typeof vscode.chat, 'createChatParticipant'>;
  lm?: LmNamespace;
  /** `vscode.LanguageModelTextPart`: providers must report instances of this very class. */
  TextPart?: new (value: string) => unknown;
  /** `vscode.LanguageModelToolCallPart` (callId, name, input); undefined where VS Code has no tool calling. */
  ToolCallPart?: new (callId: string, name: string, input: object) => unknown;
  ChatMessage?: LanguageModelChatMessageStatic;
}

/** Detects the native chat APIs on `api` (the `vscode` module unless a test passes another). */
export function nativeChatApi(api: unknown = vscode): NativeChatApi {
  const v = api as {
    chat?: Partial<typeof vscode.chat>;
    lm?: Partial<LmNamespace>;
    LanguageModelTextPart?: unknown;
    LanguageModelToolCallPart?: unknown;
    LanguageModelToolResultPart?: unknown;
    LanguageModelChatMessage?: Partial<LanguageModelChatMessageStatic>;
  };
  const hasChat = typeof v.chat?.createChatParticipant === 'function';
  const hasProvider =
    typeof v.lm?.registerLanguageModelChatProvider === 'function' && typeof v.LanguageModelTextPart === 'function';
  return {
    chat: hasChat ? (v.chat as typeof vscode.chat) : undefined,
    lm: hasProvider ? (v.lm as LmNamespace) : undefined,
    TextPart: hasProvider ? (v.LanguageModelTextPart as new (value: string) => unknown) : undefined,
    ToolCallPart:
      hasProvider &&
      typeof v.LanguageModelToolCallPart === 'function' &&
      typeof v.LanguageModelToolResultPart === 'function'
        ? (v.LanguageModelToolCallPart as new (callId: string, name: string, input: object) => unknown)
        : undefined,
    ChatMessage:
      typeof v.LanguageModelChatMessage?.User === 'function'
        ? (v.LanguageModelChatMessage as LanguageModelChatMessageStatic)
        : undefined,
  };
}

/** The text of a request message: its text parts joined (tool calls, tool results and data parts are skipped). */
export function messageText(message: LanguageModelChatRequestMessage): string {
  if (typeof message.content === 'string') {
    return message.content;
  }
  return message.content
    .map((part) => (part as { value?: unknown }).value)
    .filter((value): value is string => typeof value === 'string')
    .join('');
}
