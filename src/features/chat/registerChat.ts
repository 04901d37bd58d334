import * as path from 'node:path';
import * as vscode from 'vscode';
import { contextFromArgs, parseAskArgs } from '../../core/chat/request/askArgs';
import { originOf } from '../../core/net/fetchGuard';
import { ConversationStore } from '../../core/chat/store/conversationStore';
import { nodeFolderWatcher } from '../../core/storage/folderWatcher';
import { runErrorAction } from '../../host/errorActions';
import type { Services } from '../../host/services';
import { AttachmentSource } from './attachmentSource';
import { ChatController } from './chatController';
import { affectsDisplay, readDisplay } from '../../host/display';
import { exportMarkdown, promptForQuestion, selectionContext } from './chatCommands';
import type { ChatEntry } from '../../host/chatEntry';
import { CHAT_PANEL_TYPE, ChatPanels } from './chatPanels';
import { ChatRouter } from './chatRouter';
import { ChatSession } from './chatSession';
import type { ChatToolsHost } from './chatTools';
import { ConnectedPages } from './connectedPages';
import { CHAT_VIEW_ID, ChatViewProvider } from './chatViewProvider';
import { CodeActions } from './codeActions';
import { exportConversationJson, importConversationFile, type TransferChat } from './conversationTransfer';
import { REPLY_SCHEME, ReplyTextProvider } from './replyTextProvider';

/** The folder of the conversation files in the extension's global storage. */
const CONVERSATIONS_DIR = 'conversations';

/**
 * Registers the chat: the `alpha.chatView` side view, the editor tab (restored after a reload by its serializer),
 * and the commands `alpha.chat.open`, `.openInEditor`, `.new`, `.ask`, `.addSelection`, `.export`, `.exportJson`,
 * `.import` and `.stop`.
 * Does no I/O now: the current conversation is read when a chat page first asks for it. Returns the chat's entry for
 * the extension's own features (see {@link ChatEntry}). `tools`: ALPHA's tools in this chat, where the window offers
 * them (absent: replies are written without tools and the page shows no tools control).
 */
export function registerChat(
  services: Services,
  tools?: ChatToolsHost,
): { onDidChangeStreaming: vscode.Event<boolean>; entry: ChatEntry } {
  const { context, log, settings, http } = services;
  // Other windows write the same folder: the watcher brings their conversations and turns into this one.
  const store = new ConversationStore(
    path.join(context.globalStorageUri.fsPath, CONVERSATIONS_DIR),
    log,
    nodeFolderWatcher,
  );
  // The workspace a conversation is started in: the workspace file, else the first folder (none in an empty window).
  const workspace =
    vscode.workspace.workspaceFile?.toString() ?? vscode.workspace.workspaceFolders?.[0]?.uri.toString();
  const session = new ChatSession(store, context.workspaceState, log, { onSaveFailure: showSaveFailure, workspace });
  const actions = new CodeActions(log, (url, options) =>
    http.fetchPublic(url, { ...options, allowedOrigin: originOf(settings.baseUrl) }),
  );
  const pages = new ConnectedPages();
  const controller = new ChatController(services, session, actions, pages, workspace, tools);
  const attachments = new AttachmentSource(log);
  const exportConversation = () => exportMarkdown(session.conversation);
  const replyText = new ReplyTextProvider(() => session.conversation);
  const transfer: TransferChat = {
    current: () => session.conversation,
    model: () => settings.chatModel,
    add: async (conversation) => {
      await reveal();
      await controller.importConversation(conversation);
    },
  };
  const router = new ChatRouter(controller, pages, actions, {
    log,
    runErrorAction,
    setChatModel: (id) => settings.setChatModel(id),
    exportConversation,
    shownTexts: () => session.conversation.messages.map((m) => m.content),
    onReplyFocus: (id) => replyText.setFocused(id),
    openReplyAsText: async () => {
      await vscode.commands.executeCommand('alpha.chat.openReplyAsText');
    },
    attachments,
    refuse: (reason) => void vscode.window.showWarningMessage(reason),
    tools: tools && {
      setAccess: (access) => controller.setToolAccess(access),
      openReview: (messageId, stepId) => controller.openReview(messageId, stepId),
    },
  });
  const view = new ChatViewProvider(context.extensionUri, router, log);
  const panels = new ChatPanels(context.extensionUri, router, log);

  const reveal = async () => {
    await view.reveal(false);
    pages.broadcast({ type: 'composer/focus' });
  };
  const ask = async (args?: unknown) => {
    const { prompt, context: given, ignored } = parseAskArgs(args);
    if (ignored.length > 0) {
      log.warn(`alpha.chat.ask: ignored the argument field(s) ${ignored.join(', ')}; it takes "prompt" and "context".`);
    }
    // Context given by the caller (an assistance command) replaces the selection, which it usually is.
    const extra = [given ? contextFromArgs(given) : selectionContext(actions.targetEditor())].filter((c) => !!c);
    await reveal();
    controller.addContext(extra);
    const text = prompt ?? (await promptForQuestion(session.pending));
    if (text) {
      await controller.send(text);
    }
  };
  const entry: ChatEntry = {
    ask: (handoff) => ask(handoff),
    record: async (handoff, reply) => {
      await reveal();
      controller.addContext([contextFromArgs(handoff.context)]);
      await controller.record(handoff.prompt, reply);
    },
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
    store,
    session,
    actions,
    controller,
    pages,
    attachments,
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
    vscode.commands.registerCommand('alpha.chat.exportJson', () => exportConversationJson(transfer, log)),
    vscode.commands.registerCommand('alpha.chat.import', (args?: unknown) =>
      importConversationFile(transfer, log, args),
    ),
    vscode.commands.registerCommand('alpha.chat.stop', () => controller.stop()),
    vscode.commands.registerCommand('alpha.chat.compact', async () => {
      await reveal();
      await controller.compact();
    }),
    vscode.commands.registerCommand('alpha.chat.rename', () => controller.rename()),
    vscode.commands.registerCommand('alpha.chat.togglePin', () => controller.setPinned()),
    vscode.commands.registerCommand('alpha.chat.duplicate', () => controller.duplicate()),
    vscode.commands.registerCommand('alpha.chat.delete', () => controller.delete()),
    replyText,
    vscode.workspace.registerTextDocumentContentProvider(REPLY_SCHEME, replyText),
    vscode.commands.registerCommand('alpha.chat.openReplyAsText', () => replyText.open()),
    settings.onDidChange((e) => {
      if (e.affectsConfiguration('alphaAxo.chat.model')) {
        controller.onModelChanged();
      }
      if (e.affectsConfiguration('alphaAxo.chat.queuePrompts')) {
        controller.postQueue();
      }
      if (
        e.affectsConfiguration('alphaAxo.chat.inrPerMillionInputTokens') ||
        e.affectsConfiguration('alphaAxo.chat.inrPerMillionOutputTokens') ||
        e.affectsConfiguration('alphaAxo.chat.toolCalling') ||
        e.affectsConfiguration('alphaAxo.chat.tools')
      ) {
        void controller.redraw();
      }
      if (affectsDisplay(e)) {
        pages.broadcast({ type: 'ui/display', display: readDisplay() });
      }
    }),
    vscode.window.onDidChangeTextEditorSelection(() => controller.onSelectionChanged()),
    vscode.window.onDidChangeActiveTextEditor(() => controller.onSelectionChanged()),
    // Where file events do not arrive (some remote and network folders), coming back to the window catches up.
    vscode.window.onDidChangeWindowState((state) => {
      if (state.focused) {
        store.checkForChanges().catch((error: unknown) => log.warn(`Chat: ${String(error)}`));
      }
    }),
  );
  return { onDidChangeStreaming: controller.onDidChangeStreaming, entry };
}

/** Tells the user a save failed, with a way to the log (the session calls this once per run of failures). */
function showSaveFailure(message: string): void {
  const showLogs = vscode.l10n.t('Show Logs');
  void vscode.window.showErrorMessage(message, showLogs).then((choice) => {
    if (choice === showLogs) {
      void vscode.commands.executeCommand('alphaAxo.showLogs');
    }
  });
}
