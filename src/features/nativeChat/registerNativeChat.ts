import * as vscode from 'vscode';
import { describeError } from '../../core/service/errors';
import type { Services } from '../../host/services';
import { ALPHA_PARTICIPANT_ID, AlphaParticipant } from './alphaParticipant';
import { ALPHA_VENDOR, AlphaModelProvider } from './alphaModelProvider';
import { AXO_PARTICIPANT_ID, AxoParticipant } from './axoParticipant';
import { nativeChatApi, type NativeChatApi } from './chatApi';

/**
 * VS Code's own chat, where the running VS Code has it: the `@alpha` and `@axo` participants and ALPHA in the model
 * picker (`vscode.lm`, vendor `alpha`). Each part is feature-detected; on an older VS Code nothing is registered and
 * the rest of the extension works unchanged. A part that the running VS Code refuses is logged and skipped.
 */
export function registerNativeChat(services: Services, api: NativeChatApi = nativeChatApi()): void {
  const { log, context } = services;
  const attempt = (what: string, register: () => vscode.Disposable[]): void => {
    try {
      context.subscriptions.push(...register());
      log.info(`Native chat: ${what} registered.`);
    } catch (error) {
      log.warn(`Native chat: ${what} not registered: ${describeError(error)}`);
    }
  };

  const chat = api.chat;
  // Shows the walkthrough step that says what VS Code's chat view needs to run the participants.
  void vscode.commands.executeCommand('setContext', 'alphaAxo.hasNativeChat', Boolean(chat));
  if (chat) {
    attempt('@alpha participant', () => {
      const participant = chat.createChatParticipant(ALPHA_PARTICIPANT_ID, new AlphaParticipant(services).handle);
      participant.iconPath = vscode.Uri.joinPath(context.extensionUri, 'media', 'icon.png');
      return [participant];
    });
    attempt('@axo participant', () => {
      const participant = chat.createChatParticipant(AXO_PARTICIPANT_ID, new AxoParticipant(services).handle);
      participant.iconPath = new vscode.ThemeIcon('book');
      return [participant];
    });
  } else {
    log.info('Native chat: this VS Code has no chat participant API; @alpha and @axo are not available.');
  }

  const { lm, TextPart, ToolCallPart } = api;
  if (lm && TextPart) {
    if (!ToolCallPart) {
      log.info('Native chat: this VS Code has no tool-call parts; ALPHA is offered without tool calling.');
    }
    attempt(`ALPHA language model (vendor "${ALPHA_VENDOR}")`, () => {
      const provider = new AlphaModelProvider(services, { TextPart, ToolCallPart });
      return [provider, lm.registerLanguageModelChatProvider(ALPHA_VENDOR, provider)];
    });
    // VS Code asks a provider for its models only when someone selects models; until then its chat view's model
    // picker has no ALPHA (it offers "Sign in to use Copilot" instead). Selecting once lists ALPHA there from the
    // moment the extension is active. It activates only on its own commands, views and participants (never at
    // start-up, which would cost every window), so a first `@alpha` typed before anything else activates it.
    void Promise.resolve(lm.selectChatModels({ vendor: ALPHA_VENDOR })).catch((error: unknown) =>
      log.warn(`Native chat: listing the ALPHA model failed: ${describeError(error)}`),
    );
  } else {
    log.info('Native chat: this VS Code has no language model provider API; ALPHA is not in its model picker.');
  }
}
