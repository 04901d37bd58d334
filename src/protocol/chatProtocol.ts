/**
 * The typed contract between the extension host and the chat webviews (the `alpha.chatView` side view and the
 * editor tabs of `alpha.chat.openInEditor`). Messages are named `area/verb`; each says which side sends it.
 * The host is the source of truth: it holds every message until the page has sent `webview/ready`, then starts
 * with `chat/state`, which is everything the page needs to draw itself from nothing. Stream messages carry the
 * `requestId` the host gave the reply in `chat/started`; the page ignores those of any other request.
 * Nothing here ever carries an API key.
 */

/** What became of a reply. `streaming` only while it arrives; `interrupted` when a reload cut it short. */
export type ReplyStatus = 'streaming' | 'done' | 'stopped' | 'interrupted' | 'error';

/** The actions an error in the conversation can offer (a subset of the core's ErrorAction). */
export type ChatErrorAction = 'setChatKey' | 'retry' | 'openSettings' | 'none';

/** An error shown inside the conversation, with its one fitting action. */
export interface ChatErrorView {
  /** The core's ErrorKind (`cut`, `badKey`, `rateLimited`, …). */
  kind: string;
  /** One readable sentence; a cut stream's starts with "The reply was cut off". */
  message: string;
  action: ChatErrorAction;
  /** The button's label ("Set Chat API Key", "Retry", "Open Settings"); absent when `action` is `none`. */
  actionLabel?: string;
  /** Retry is offered only after this many seconds, counted from `at`. */
  retryAfterSeconds?: number;
  /** When the error happened (ms since the epoch). */
  at: number;
}

/** Context sent with a prompt: a selection, a file excerpt or an encyclopedia article. */
export interface ContextChipView {
  id: string;
  /** "main.ts:10-24", "Alan Turing". */
  label: string;
  /** A tooltip: the language and size. */
  detail?: string;
  /** Its size in tokens, by the one estimator (shown on the chip). */
  tokens?: number;
}

/** What `#` in the composer offers to attach. */
export type AttachKind = 'selection' | 'terminal' | 'openFile' | 'symbol' | 'file';

/** One thing `#` offers: chosen, the host reads it and adds it as a context chip. */
export interface AttachOptionView {
  /** The host's handle for it (valid until the next `attach/options`). */
  id: string;
  kind: AttachKind;
  /** "notes.md", "greet (function)", "Selection: main.ts:3-9", "Terminal: npm test". */
  label: string;
  /** The folder of a file, a symbol's lines. */
  detail?: string;
}

/** One message of the conversation as the page shows it. */
export interface MessageView {
  id: string;
  role: 'user' | 'assistant';
  /** Markdown for the assistant; plain text for the user (shown as is, never as HTML). */
  content: string;
  createdAt: number;
  /** Replies only. */
  status?: ReplyStatus;
  error?: ChatErrorView;
  /** The context that went with a prompt. */
  context?: ContextChipView[];
  /** A remark on the reply, e.g. that older turns were left out to fit the model's context. */
  notice?: string;
  /** The model that wrote a reply. */
  model?: string;
  /** A grounded reply's sources, numbered from 1 as its `[1]` markers count them. */
  sources?: SourceView[];
  /** A reply's tokens and, with prices set, its cost. */
  usage?: UsageView;
  /** How fast a reply came (absent: a reply stored before replies were timed, or one that got no text). */
  speed?: SpeedView;
  /** Where the message stands among its siblings (other versions of an edited prompt or a regenerated reply). */
  branch?: BranchView;
  /** A reply's tool calls, in the order written (absent: it called none). */
  steps?: StepView[];
  /** How many requests the reply took (absent or 1: one; each tool round trip is another billed request). */
  requests?: number;
}

/** What ALPHA may use in a conversation (see src/core/chat/tools/chatTool.ts). */
export type ToolAccessView = 'none' | 'axo' | 'read' | 'edit';

/**
 * One tool call of a reply, drawn as a step in it: "Read `src/app.ts`, lines 1–120" (`title`, code in backticks). It
 * sits at `offset`, the length of the reply's text when the call was written; `result` is what went to ALPHA (absent
 * while it runs); `review`: its proposed edit's review can be opened; `sources`: the reply's source numbers it added.
 */
export interface StepView {
  id: string;
  tool: string;
  title: string;
  status: 'running' | 'done' | 'refused' | 'failed' | 'stopped';
  offset: number;
  result?: string;
  review?: boolean;
  sources?: number[];
}

/** A message's place among its siblings, 1-based: "‹ 2 / 3 ›". */
export interface BranchView {
  index: number;
  count: number;
}

/** A reply's tokens: reported by the service, or estimated; its cost in INR when both prices are set. */
export interface UsageView {
  input: number;
  output: number;
  reported: boolean;
  costInr?: number;
}

/** How fast a reply came: "first token 0.8 s · 42 tokens/s" (see src/core/chat/runs/replyTiming.ts). */
export interface SpeedView {
  firstTokenMs: number; // from the request sent to the first token
  /** Output tokens per second (absent: no end or no usable span); `estimated`: counted by estimate, not reported. */
  tokensPerSecond?: number;
  estimated: boolean;
}

/** One source of a grounded reply, as the "Sources" list shows it. */
export interface SourceView {
  title: string;
  /** `article` opens in the Encyclopedia view, `web` its http(s) `url` (shown), `none` nothing (may not open). */
  kind: 'article' | 'web' | 'none';
  url?: string;
}

/** One line of the conversation list. */
export interface ConversationSummaryView {
  id: string;
  title: string;
  updatedAt: number;
  messageCount: number;
  /** `pinned`: listed above the others; `here`: started in this window's workspace ("This workspace" shows these). */
  pinned: boolean;
  here: boolean;
}

/** Which conversations the list shows: those of this window's workspace, or all. */
export type HistoryScope = 'workspace' | 'all';

/** A conversation that matches a search, with a snippet of the message text where it matched. */
export interface ConversationMatchView {
  id: string;
  /** Text around the match (`before` + `match` + `after`, one line); absent when only the title matched. */
  snippet?: { before: string; match: string; after: string; role: 'user' | 'assistant' };
}

/** One model of the lineup. Only `selectable` ones can be chosen; the others say "Coming soon". */
export interface ModelView {
  id: string;
  label: string;
  status: 'available' | 'soon';
  selectable: boolean;
  /** "200K" or "n/a"; the latency "1.2s" or "Render 3.4s". */
  context: string;
  latency: string;
  capability: string;
}

/** How much of the model's context the next request uses, by estimate, before anything is trimmed. */
export interface BudgetView {
  usedTokens: number;
  limitTokens: number;
  /** The parts of `usedTokens` (the gauge's bar): see `Budget` in src/core/chat/runs/chatStateTypes.ts. */
  parts: { conversation: number; attachments: number; instructions: number; grounding: number; tools: number };
  /** The repository's instructions sent with each request (absent: none are read). */
  instructions?: InstructionsView;
}

/** The repository's instructions, as the composer's chip shows them. */
export interface InstructionsView {
  /** The files sent, in order (a chip opens one by its index here), and the whole message's estimate. */
  files: { label: string; tokens: number }[];
  tokens: number;
  /** What was cut, left out or not read for the bounds. */
  notice?: string;
}

/** How the page speaks and sizes its text (`alphaAxo.chat.announceReplies`, `alphaAxo.chat.fontSize`). */
export interface ChatDisplayView {
  /** What a screen reader is told when a reply ends (its first sentence, all, or that it ended); text px (0: VS Code's). */
  announceReplies: 'firstSentence' | 'whole' | 'startAndEnd';
  fontSize: number;
}

/** A prompt waiting its turn in the queue, as the page lists it. */
export interface QueuedPromptView {
  id: string;
  text: string;
  /** What it was queued with: its context chips' labels, its model's label, "Ground with AXO" on or off. */
  attachments: string[];
  model: string;
  grounded: boolean;
  /** This window may edit, remove and send it; false: another window queued it and runs it (shown only). */
  mine: boolean;
}

/** The prompt queue of the conversation shown. */
export interface QueueView {
  /** `alphaAxo.chat.queuePrompts`: Send stays beside "Stop generating" and queues (false: no sending mid-reply). */
  enabled: boolean;
  prompts: QueuedPromptView[];
  /** Some of this window's prompts wait to be resumed (after a Stop, a failed reply, a reload): none goes unasked. */
  waiting: boolean;
}

/** Everything the page draws from: sent first after `webview/ready`, and whenever the whole view changes. */
export interface ChatStateView {
  conversationId: string;
  title: string;
  /** The path's newest messages; `older`: how many precede them, sent on `chat/older` (`key`) once these are drawn. */
  messages: MessageView[];
  older?: { count: number; key: number };
  conversations: ConversationSummaryView[];
  models: ModelView[];
  /** The model id in `alphaAxo.chat.model`. */
  model: string;
  /** Context chips waiting to go with the next prompt. */
  pendingContext: ContextChipView[];
  /** The reply streaming now, if any (its message is the last one). */
  streaming?: { requestId: number; messageId: string };
  budget: BudgetView;
  /** Whether the active editor has a selection ("Replace selection" is offered then). */
  hasSelection: boolean;
  /** "Ground with AXO" is on for this conversation. */
  groundWithAxo: boolean;
  /** What ALPHA may use in this conversation; absent where tool calling is off (the control is hidden). */
  toolAccess?: ToolAccessView;
  /** The list's filter, remembered per window; absent in a window without a workspace (the list shows all). */
  historyScope?: HistoryScope;
  /**
   * The running total counts every request billed: `otherVersions` each reply's off the path shown (present when
   * there are such), `summaries` each compaction's summary (undone ones too).
   */
  otherVersions?: UsageView[];
  summaries?: UsageView[];
  /** The prompts waiting their turn (absent: none, and queueing on). */
  queue?: QueueView;
  /** The compaction in force: its marker follows message `throughId` (absent when none). */
  compaction?: CompactionView;
}

/** A summary sent instead of the older turns of the path shown (see src/core/chat/conversation/compaction.ts). */
export interface CompactionView {
  id: string;
  /** The last message it stands for (the marker follows it), and how many it stands for. */
  throughId: string;
  messages: number;
  summary: string;
}

/** What a reply's end tells beside how it ended: its tokens, its speed, how many requests it took (`MessageView`'s). */
export interface ReplyEndView {
  usage?: UsageView;
  speed?: SpeedView;
  requests?: number;
}

/** Messages the host sends to the page. */
export type HostToWebview =
  /** Host → webview: draw everything (first message after `webview/ready`; also after switch, new, edit). */
  | { type: 'chat/state'; state: ChatStateView }
  /** Host → webview: of the messages before the state `key`'s, the newest not sent yet; `left`: how many come after. */
  | { type: 'chat/older'; key: number; messages: MessageView[]; left: number }
  /** Host → webview: a prompt was sent; append the user's message and the empty reply that now streams. */
  | {
      type: 'chat/started';
      requestId: number;
      user: MessageView;
      reply: MessageView;
      budget: BudgetView;
      conversations: ConversationSummaryView[];
    }
  /** Host → webview: the next piece of the reply `requestId`, to append as is. */
  | { type: 'chat/delta'; requestId: number; text: string }
  /** Host → webview: a step of the streaming reply began or changed (matched by `step.id`). */
  | { type: 'chat/step'; requestId: number; step: StepView; sources?: SourceView[] }
  /** Host → webview: a remark on the streaming reply known only once it started (a grounding note, a trim). */
  | { type: 'chat/notice'; requestId: number; notice: string }
  /** Host → webview: the reply ended normally or was stopped; what arrived stays. */
  | ({ type: 'chat/done'; requestId: number; status: 'done' | 'stopped'; notice?: string } & ReplyEndView)
  /** Host → webview: the reply failed (a cut stream keeps its text); show the error and its action. */
  | ({ type: 'chat/error'; requestId: number; error: ChatErrorView } & ReplyEndView)
  /** Host → webview: the conversation list changed (title, time, delete). */
  | { type: 'conversations/list'; conversations: ConversationSummaryView[] }
  /** Host → webview: the conversations matching `query` (titles and message text), in list order. */
  | { type: 'conversations/matches'; query: string; matches: ConversationMatchView[] }
  /** Host → webview: the context chips waiting for the next prompt changed. */
  | { type: 'context/chips'; chips: ContextChipView[]; budget: BudgetView }
  /** Host → webview: the estimate of the next request changed by itself (the instructions were read again). */
  | { type: 'budget/changed'; budget: BudgetView }
  /** Host → webview: `alphaAxo.chat.model` changed. */
  | { type: 'model/changed'; model: string; budget: BudgetView }
  /** Host → webview: whether the active editor has a selection changed. */
  | { type: 'editor/selection'; hasSelection: boolean }
  /** Host → webview: put the keyboard focus in the message box, optionally with a draft. */
  | { type: 'composer/focus'; draft?: string }
  /** Host → webview: an image the user clicked to see, as a `data:` URI (the CSP loads no remote images). */
  | { type: 'image/loaded'; url: string; dataUri: string }
  /** Host → webview: the clicked image could not be loaded. */
  | { type: 'image/failed'; url: string; message: string }
  /** Host → webview: a short confirmation for the live region ("Copied"). */
  | { type: 'ui/announce'; text: string }
  /** Host → webview: the display settings (after `chat/state`, and whenever they change). */
  | { type: 'ui/display'; display: ChatDisplayView }
  /** Host → webview: the list's filter changed (in this or another page of the window). */
  | { type: 'history/scope'; scope: HistoryScope }
  /** Host → webview: the prompt queue changed (here, in another page, or in another window). */
  | { type: 'queue/changed'; queue: QueueView }
  /** Host → webview: what `#query` may attach, best first (empty: nothing matches). */
  | { type: 'attach/options'; query: string; options: AttachOptionView[] };

/** Messages the page sends to the host. */
export type WebviewToHost =
  /** Webview → host: the page listens; the host answers with `chat/state` and whatever it held. */
  | { type: 'webview/ready' }
  /** Webview → host: the state `key` is drawn; send the messages before its own (see `ChatStateView.older`). */
  | { type: 'chat/older'; key: number }
  /** Webview → host: send a prompt (with the pending context chips); while a reply streams, the host queues it. */
  | { type: 'chat/send'; text: string }
  /** Webview → host: change the text of a queued prompt. */
  | { type: 'queue/edit'; id: string; text: string }
  /** Webview → host: take a prompt out of the queue. */
  | { type: 'queue/remove'; id: string }
  /** Webview → host: "Send now": stop the running reply and send this queued prompt. */
  | { type: 'queue/sendNow'; id: string }
  /** Webview → host: run the waiting queue. */
  | { type: 'queue/resume' }
  /** Webview → host: stop the reply `requestId` (Stop generating, Esc). */
  | { type: 'chat/cancel'; requestId: number }
  /** Webview → host: write a reply again (`messageId`'s, else the last); the old one stays as a branch. */
  | { type: 'chat/regenerate'; messageId?: string }
  /** Webview → host: send a prompt again as `text`; the old prompt and what followed stay as a branch. */
  | { type: 'chat/edit'; messageId: string; text: string }
  /** Webview → host: show the sibling before (−1) or after (1) a message, and the branch below it. */
  | { type: 'chat/branch'; messageId: string; step: -1 | 1 }
  /** Webview → host: run an error's action (Retry re-sends the last prompt). */
  | { type: 'chat/action'; action: ChatErrorAction }
  /** Webview → host: start a new, empty conversation. */
  | { type: 'conversation/new' }
  /** Webview → host: show another conversation. */
  | { type: 'conversation/switch'; id: string }
  /** Webview → host: delete a conversation (the host offers Undo). */
  | { type: 'conversation/delete'; id: string }
  /** Webview → host: give a conversation a new title. */
  | { type: 'conversation/rename'; id: string; title: string }
  /** Webview → host: pin a conversation to the top of the list, or unpin it. */
  | { type: 'conversation/pin'; id: string; pinned: boolean }
  /** Webview → host: copy a conversation and show the copy. */
  | { type: 'conversation/duplicate'; id: string }
  /** Webview → host: show this workspace's conversations, or all. */
  | { type: 'history/scope'; scope: HistoryScope }
  /** Webview → host: find the conversations whose title or messages contain `query`. */
  | { type: 'conversation/search'; query: string }
  /** Webview → host: open the conversation as Markdown in a new editor. */
  | { type: 'conversation/export' }
  /** Webview → host: "Compact" (the gauge past 80 %): summarise the older turns (the host shows the progress). */
  | { type: 'chat/compact' }
  /** Webview → host: Undo on a compaction's marker: send its turns again. */
  | { type: 'chat/uncompact'; id: string }
  /** Webview → host: open instructions file `index` (0-based) of the last `BudgetView.instructions`. */
  | { type: 'instructions/open'; index: number }
  /** Webview → host: drop a context chip. */
  | { type: 'context/remove'; id: string }
  /** Webview → host: choose a model (the host accepts selectable ones only). */
  | { type: 'model/select'; id: string }
  /** Webview → host: copy text (a message or a code block) to the clipboard. */
  | { type: 'clipboard/copy'; text: string; what: 'message' | 'code' }
  /** Webview → host: a code block's action on the last active editor or a new one. */
  | { type: 'code/apply'; action: 'insert' | 'replace' | 'open'; code: string; language?: string }
  /** Webview → host: open a link outside (the host opens http, https and mailto only). */
  | { type: 'link/open'; url: string }
  /** Webview → host: the user clicked to see a remote image. */
  | { type: 'image/load'; url: string }
  /** Webview → host: the reply that has the keyboard focus (for "Open Reply as Text"); absent when none has. */
  | { type: 'reply/focus'; messageId?: string }
  /** Webview → host: Alt+F2 in the page: open the focused reply (else the last one) as text. */
  | { type: 'reply/openAsText'; messageId?: string }
  /** Webview → host: the "Ground with AXO" toggle of this conversation was switched. */
  | { type: 'chat/ground'; on: boolean }
  /** Webview → host: the control of what ALPHA may use in this conversation was set. */
  | { type: 'chat/tools'; access: ToolAccessView }
  /** Webview → host: open the review of a step's proposed edit again. */
  | { type: 'step/review'; messageId: string; stepId: string }
  /** Webview → host: open source `index` (0-based) of a reply. */
  | { type: 'source/open'; messageId: string; index: number }
  /** Webview → host: `#query` was typed in the composer: what may be attached? */
  | { type: 'attach/query'; query: string }
  /** Webview → host: attach the option `id` of the last `attach/options`. */
  | { type: 'attach/add'; id: string }
  /** Webview → host: files or editor tabs were dropped on the chat (their URIs, as the drop carried them). */
  | { type: 'attach/drop'; uris: string[] };
