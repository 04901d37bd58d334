import type { ChatErrorAction, HistoryScope, ToolAccessView, WebviewToHost } from './chatProtocol';
import { MAX_SHORT, bare, isIndex, isOneOf, isShort, isText, type Validator } from './validate';

// The run-time half of chatProtocol.ts: what a chat page sends is checked against this table before the host
// acts on it (a page is untrusted). A message type added to WebviewToHost without a row here fails to compile.

/** Every filter of the list. */
export const HISTORY_SCOPES: readonly HistoryScope[] = ['workspace', 'all'];

/** Every level of what ALPHA may use in a conversation. */
export const TOOL_ACCESS_VIEWS: readonly ToolAccessView[] = ['none', 'axo', 'read', 'edit'];

/** The error actions a page may ask for. */
const CHAT_ERROR_ACTIONS: readonly ChatErrorAction[] = ['setChatKey', 'retry', 'openSettings', 'none'];

/**
 * The check of every message type a chat page may send, field by field (the router drops whatever fails, with a
 * log line). Whether an `image/load` URL is one the page shows, or a link's scheme may be opened, depends on
 * the host's state and is checked where it is handled.
 */
export const CHAT_VALIDATORS: Record<WebviewToHost['type'], Validator> = {
  'webview/ready': bare,
  'chat/older': (m) => isIndex(m.key),
  'chat/send': (m) => isText(m.text),
  'queue/edit': (m) => isShort(m.id) && isText(m.text),
  'queue/remove': (m) => isShort(m.id),
  'queue/sendNow': (m) => isShort(m.id),
  'queue/resume': bare,
  'chat/cancel': (m) => isIndex(m.requestId),
  'chat/regenerate': (m) => m.messageId === undefined || isShort(m.messageId),
  'chat/branch': (m) => isShort(m.messageId) && (m.step === -1 || m.step === 1),
  'chat/edit': (m) => isShort(m.messageId) && isText(m.text),
  'chat/action': (m) => isOneOf(m.action, CHAT_ERROR_ACTIONS),
  'conversation/new': bare,
  'conversation/switch': (m) => isShort(m.id),
  'conversation/delete': (m) => isShort(m.id),
  'conversation/rename': (m) => isShort(m.id) && isText(m.title, MAX_SHORT),
  'conversation/pin': (m) => isShort(m.id) && typeof m.pinned === 'boolean',
  'conversation/duplicate': (m) => isShort(m.id),
  'history/scope': (m) => isOneOf(m.scope, HISTORY_SCOPES),
  'conversation/search': (m) => isText(m.query, MAX_SHORT),
  'conversation/export': bare,
  'chat/compact': bare,
  'chat/uncompact': (m) => isShort(m.id),
  'instructions/open': (m) => isIndex(m.index) && m.index < 1000,
  'context/remove': (m) => isShort(m.id),
  'model/select': (m) => isShort(m.id),
  'clipboard/copy': (m) => isText(m.text) && isOneOf(m.what, ['message', 'code']),
  'code/apply': (m) =>
    isOneOf(m.action, ['insert', 'replace', 'open']) &&
    isText(m.code) &&
    (m.language === undefined || isText(m.language, MAX_SHORT)),
  'link/open': (m) => isShort(m.url),
  'image/load': (m) => isShort(m.url),
  'reply/focus': (m) => m.messageId === undefined || isShort(m.messageId),
  'reply/openAsText': (m) => m.messageId === undefined || isShort(m.messageId),
  'chat/ground': (m) => typeof m.on === 'boolean',
  'source/open': (m) => isShort(m.messageId) && isIndex(m.index),
  'chat/tools': (m) => isOneOf(m.access, TOOL_ACCESS_VIEWS),
  'step/review': (m) => isShort(m.messageId) && isShort(m.stepId),
  'attach/query': (m) => isText(m.query, MAX_SHORT),
  'attach/add': (m) => isShort(m.id),
  'attach/drop': (m) => Array.isArray(m.uris) && m.uris.length <= 100 && m.uris.every(isShort),
};
