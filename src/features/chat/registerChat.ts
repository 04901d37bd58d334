import * as path from 'node:path';
import * as vscode from 'vscode';
import { ConversationStore } from '../../core/chat/conversationStore';
import type { Services } from '../../host/services';
import { ChatController } from './chatController';
import { affectsDisplay, readDisplay } from './chatDisplay';
import { exportMarkdown, contextFromArgs, parseAskArgs, promptForQuestion, selectionContext } from './chatCommands';
import { CHAT_PANEL_TYPE, ChatPanels } from './chatPanels';
import { ChatRouter } from './chatRouter';
import { ChatSession } from './chatSession';
import { CHAT_VIEW_ID, ChatViewProvider } from './chatViewProvider';
import { CodeActions } from './codeActions';
import { REPLY_SCHEME, ReplyTextProvider } from './replyTextProvider';

/** The folder of the conversation files in the extension's global storage. */
const CONVERSATIONS_DIR = 'conversations';

/**
 * Registers the chat: the `alpha.chatView` side view, the editor tab (restored after a reload by its serializer),
 * and the commands `alpha.chat.open`, `.openInEditor`, `.new`, `.ask`, `.addSelection`, `.export` and `.stop`.
 * Does no I/O now: the current conversation is read when a chat page first asks for it.
 */
export function registerChat(services: Services): { onDidChangeStreaming: vscode.Event<boolean> } {
  const { context, log, settings, http } = services;
  const store = new ConversationStore(path.join(context.globalStorageUri.fsPath, CONVERSATIONS_DIR), log);
  const session = new ChatSession(store, context.workspaceState, log);
  const actions = new CodeActions(log, (url, options) => http.fetchPublic(url, options));
  const controller = new ChatController(services, session, actions);
  const exportConversation = () => exportMarkdown(session.conversation);
  const replyText = new ReplyTextProvider(() => session.conversation);
  const router = new ChatRouter(controller, actions, services, exportConversation, (id) => replyText.setFocused(id));
  const view = new ChatViewProvider(context.extensionUri, router, log);
  const panels = new ChatPanels(context.extensionUri, router, log);

  const reveal = async () => {
    await view.reveal(false);
    controller.broadcast({ type: 'composer/focus' });
  };
  const ask = async (args?: unknown) => {
    const { prompt, context: given, reply } = parseAskArgs(args);
    // Context given by the caller (an assistance command) replaces the selection, which it usually is.
    const extra = [given ? contextFromArgs(given) : selectionContext(actions.targetEditor())].filter((c) => !!c);
    await reveal();
    controller.addContext(extra);
    if (prompt !== undefined && reply !== undefined) {
      await controller.record(prompt, reply);
      return;
    }
    const text = prompt ?? (await promptForQuestion(session.pending));
    if (text) {
      await controller.send(text);
    }
  };
  const addSelection = async () => {
    const item = selectionContext(actions.targetEditor(), true);
    if (!item) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t('Select some code in an editor first, then add it to the chat.'),
      );
      return;
    }
    await reveal();
    controller.addContext([item]);
  };

  context.subscriptions.push(
    session,
    actions,
    controller,
    view,
    panels,
    vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, view),
    vscode.window.registerWebviewPanelSerializer(CHAT_PANEL_TYPE, panels),
    vscode.commands.registerCommand('alpha.chat.open', reveal),
    vscode.commands.registerCommand('alpha.chat.openInEditor', () => panels.open()),
    vscode.commands.registerCommand('alpha.chat.new', async () => {
      await reveal();
      await controller.newConversation();
    }),
    vscode.commands.registerCommand('alpha.chat.ask', ask),
    vscode.commands.registerCommand('alpha.chat.addSelection', addSelection),
    vscode.commands.registerCommand('alpha.chat.export', exportConversation),
    vscode.commands.registerCommand('alpha.chat.stop', () => controller.stop()),
    replyText,
    vscode.workspace.registerTextDocumentContentProvider(REPLY_SCHEME, replyText),
    vscode.commands.registerCommand('alpha.chat.openReplyAsText', () => replyText.open()),
    settings.onDidChange((e) => {
      if (e.affectsConfiguration('alphaAxo.chat.model')) {
        controller.onModelChanged();
      }
      if (affectsDisplay(e)) {
        controller.broadcast({ type: 'ui/display', display: readDisplay() });
      }
    }),
    vscode.window.onDidChangeTextEditorSelection(() => controller.onSelectionChanged()),
    vscode.window.onDidChangeActiveTextEditor(() => controller.onSelectionChanged()),
  );
  return { onDidChangeStreaming: controller.onDidChangeStreaming };
}
