import * as vscode from 'vscode';

/*
 * The minimal shapes of VS Code's chat and language-model APIs that this extension uses. `@types/vscode` 1.74 (kept
 * below the `engines.vscode` floor, 1.90) has none of them, so they are declared here and detected at run time: on a
 * VS Code without them, `nativeChatApi()` returns undefined members and the features are not registered.
 * Shapes as in vscode.d.ts (chat participants 1.90+, `lm.registerLanguageModelChatProvider` 1.104+).
 */

/** `vscode.ChatPromptReference`. */
export interface ChatPromptReference {
  readonly id: string;
  readonly value: unknown;
  readonly range?: [number, number];
}

/** `vscode.ChatRequest` (what we read of it). */
export interface ChatRequest {
  readonly prompt: string;
  readonly command: string | undefined;
  readonly references: readonly ChatPromptReference[];
}

/** `vscode.ChatRequestTurn`. */
export interface ChatRequestTurn {
  readonly prompt: string;
  readonly participant: string;
  readonly command?: string;
}

/** `vscode.ChatResponseTurn`: `response` holds parts; markdown parts have `value: MarkdownString`. */
export interface ChatResponseTurn {
  readonly response: readonly unknown[];
  readonly result: ChatResult;
  readonly participant: string;
  readonly command?: string;
}

/** `vscode.ChatContext`. */
export interface ChatContext {
  readonly history: readonly (ChatRequestTurn | ChatResponseTurn)[];
}

/** `vscode.ChatResult`. */
export interface ChatResult {
  errorDetails?: { message: string; responseIsIncomplete?: boolean };
  metadata?: Record<string, unknown>;
}

/** `vscode.ChatResponseStream` (the parts we write). */
export interface ChatResponseStream {
  markdown(value: string | vscode.MarkdownString): void;
  progress(value: string): void;
  reference(value: vscode.Uri | vscode.Location): void;
  button(command: vscode.Command): void;
}

/** `vscode.ChatRequestHandler`. */
export type ChatRequestHandler = (
  request: ChatRequest,
  context: ChatContext,
  response: ChatResponseStream,
  token: vscode.CancellationToken,
) => vscode.ProviderResult<ChatResult | void>;

/** `vscode.ChatParticipant` (what we set). */
export interface ChatParticipant extends vscode.Disposable {
  readonly id: string;
  iconPath?: vscode.Uri | { light: vscode.Uri; dark: vscode.Uri } | vscode.ThemeIcon;
}

/** `vscode.chat`. */
export interface ChatNamespace {
  createChatParticipant(id: string, handler: ChatRequestHandler): ChatParticipant;
}

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
export interface LanguageModelChat {
  readonly id: string;
  readonly name: string;
  readonly vendor: string;
  readonly family: string;
  readonly version: string;
  readonly maxInputTokens: number;
  sendRequest(
    messages: unknown[],
    options?: Record<string, unknown>,
    token?: vscode.CancellationToken,
  ): Thenable<LanguageModelChatResponse>;
  countTokens(text: string, token?: vscode.CancellationToken): Thenable<number>;
}

/** `vscode.lm`. */
export interface LmNamespace {
  registerLanguageModelChatProvider(vendor: string, provider: LanguageModelChatProvider): vscode.Disposable;
  selectChatModels(selector?: { vendor?: string; family?: string; id?: string }): Thenable<LanguageModelChat[]>;
}

/** `vscode.LanguageModelChatMessage` factory. */
export interface LanguageModelChatMessageStatic {
  User(content: string): unknown;
  Assistant(content: string): unknown;
}

/** The native chat APIs the running VS Code has; each member is undefined when it lacks them. */
export interface NativeChatApi {
  chat?: ChatNamespace;
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
    chat?: Partial<ChatNamespace>;
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
    chat: hasChat ? (v.chat as ChatNamespace) : undefined,
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
