import { silentLogger } from '../../src/core/logger';
import { ChatRouter, type RouterActions, type RouterChat } from '../../src/features/chat/chatRouter';
import type { ConnectedPages } from '../../src/features/chat/connectedPages';

/** A chat router over `pages` whose controller has only what a test gives it, with no code actions and no log. */
export function routerOf(controller: Partial<RouterChat>, pages: ConnectedPages): ChatRouter {
  return new ChatRouter(controller as RouterChat, pages, {} as RouterActions, {
    log: silentLogger,
    runErrorAction: async () => undefined,
    setChatModel: async () => undefined,
    exportConversation: async () => undefined,
    shownTexts: () => [],
  });
}
