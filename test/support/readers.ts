/**
 * Every function that reads text from the service, the workspace, a page or an imported file, with the adversarial
 * inputs it is tried on and the growth test (its `it` title in test/unit) that covers it. `pending`: the page's
 * readers whose growth tests are written with the page's own work; test/unit/project/readers.test.ts fails when a module
 * that takes text from an entry point has no row (see there).
 */
export interface ReaderRow {
  /** The module, from `src/`, without `.ts`. */
  module: string;
  /** Its exported function or class that takes the text. */
  entry: string;
  /** Where the text comes from. */
  source: 'service' | 'workspace' | 'page' | 'import' | 'model output';
  /** The inputs its growth test tries. */
  inputs: string;
  /** The growth test's title (an `it` in test/unit), or 'pending'. */
  test: string;
}

const OPENERS = 'unclosed ** $$ \\[ ` [ < repeated; \\r runs; one line without a newline';

export const READERS: readonly ReaderRow[] = [
  // The service: the stream, the replies' shapes, error bodies.
  {
    module: 'core/service/sse',
    entry: 'readContentDeltas',
    source: 'service',
    inputs: 'many tiny events; one event without a line end; \\r runs',
    test: 'the SSE reader takes many tiny events, one event without a line end and CR runs in small chunks in linear time',
  },
  {
    module: 'core/service/sseContent',
    entry: 'simpleContent',
    source: 'service',
    inputs: 'one long data line; escapes repeated',
    test: 'the SSE fast path reads one long data line and repeated escapes in linear time',
  },
  {
    module: 'core/service/normalize',
    entry: 'normalizeChatReply',
    source: 'service',
    inputs: 'deep nesting; long strings',
    test: 'a chat reply nested thousands of levels deep or made of long strings is normalized in linear time',
  },
  {
    module: 'core/service/httpErrors',
    entry: 'messageFromBody',
    source: 'service',
    inputs: 'unclosed < <title> <script> <h1> repeated',
    test: 'an HTML error body of unclosed tags, titles and scripts',
  },
  {
    module: 'core/net/bodyPeek',
    entry: 'canTell',
    source: 'service',
    inputs: 'a JSON line then only line ends',
    test: 'telling a body of blank lines from JSON lines (the peek at its start)',
  },
  {
    module: 'core/net/responseBody',
    entry: 'readText',
    source: 'service',
    inputs: 'many tiny chunks; a body past the limit',
    test: 'a body of many tiny chunks, or one past the limit, is read in linear time',
  },
  // The encyclopedia and its tools.
  {
    module: 'core/encyclopedia/articleMarkdown',
    entry: 'lookupMarkdown',
    source: 'service',
    inputs: OPENERS,
    test: 'an encyclopedia value of unclosed openers, CR runs and one long line is written as Markdown in linear time',
  },
  {
    module: 'core/encyclopedia/hoverText',
    entry: 'hoverMarkdown',
    source: 'service',
    inputs: OPENERS,
    test: 'a hover for an encyclopedia value of unclosed openers, CR runs and one long line is written in linear time',
  },
  {
    module: 'core/encyclopedia/termIndex',
    entry: 'tokenize',
    source: 'workspace',
    inputs: 'one line without a newline; punctuation runs',
    test: 'a long line without a newline, punctuation runs and mixed CJK words are tokenized in linear time',
  },
  {
    module: 'core/mcp/inertMarkdown',
    entry: 'inertText',
    source: 'service',
    inputs: 'unclosed [ and ( repeated; nested brackets',
    test: 'service text made inert in linear time, and an answer cut to its budget in bounded time',
  },
  {
    module: 'core/encyclopedia/articleForTool',
    entry: 'articleForTool',
    source: 'service',
    inputs: 'thousands of headings, duplicate names colliding with numbered ones, fences; one huge section of blanks',
    test: 'splits, outlines and picks in time linear in the headings and in the text',
  },
  // The chat: grounding, citations, transfer, the workspace.
  {
    module: 'core/chat/request/grounding',
    entry: 'groundingQuery',
    source: 'workspace',
    inputs: '```\\r repeated; ```x without a line end',
    test: 'a grounded prompt of fence openers each ended by \\r',
  },
  {
    module: 'core/service/tokenEstimate',
    entry: 'estimateTokens',
    source: 'model output',
    inputs: 'one word; one run of spaces; spaces and tabs alternating; CRLF runs; surrogate halves',
    test: 'estimates a reply of one word, one run of blanks, CRLF runs and surrogate halves in linear time',
  },
  {
    module: 'core/chat/request/citations',
    entry: 'linkCitationMarkers',
    source: 'model output',
    inputs: '`[1] repeated (unclosed code spans)',
    test: 'a grounded reply of unclosed code spans, exported as Markdown',
  },
  {
    module: 'core/chat/transfer/markdownImport',
    entry: 'parseMarkdownExport',
    source: 'import',
    inputs: 'a heading, then blank lines, then text',
    test: 'a Markdown import of a prompt of 200,000 blank lines',
  },
  {
    module: 'core/chat/transfer/conversationImport',
    entry: 'importConversation',
    source: 'import',
    inputs: 'millions of empty lists; deep nesting',
    test: 'an import of millions of empty lists is refused before it is walked',
  },
  {
    module: 'core/chat/transfer/conversationMarkdown',
    entry: 'conversationMarkdown',
    source: 'model output',
    inputs: '`[1] repeated; a reply stopped mid-fence',
    test: 'a grounded reply of unclosed code spans, exported as Markdown',
  },
  {
    module: 'core/chat/conversation/storedSteps',
    entry: 'parseSteps',
    source: 'import',
    inputs: 'many steps over every bound: one id, offsets running backwards, long results, inputs, titles, sources',
    test: 'reads many steps with huge results in linear time',
  },
  {
    module: 'core/chat/transfer/markdownSteps',
    entry: 'readStepBlock',
    source: 'import',
    inputs: 'step blocks never ended, each opening a code block; many step blocks',
    test: 'runs in linear time: a Markdown import of many step blocks, an export of many steps in a long reply',
  },
  {
    module: 'core/chat/transfer/markdownSteps',
    entry: 'replyMarkdown',
    source: 'model output',
    inputs: 'results of long backtick runs; steps inside a code block never closed',
    test: 'runs in linear time: a Markdown import of many step blocks, an export of many steps in a long reply',
  },
  {
    module: 'core/chat/workspace/workspaceIgnore',
    entry: 'IgnoreRules',
    source: 'workspace',
    inputs: 'a line of many **; a file 60 folders deep',
    test: '# applies a .gitignore line of many ** to a file 60 folders deep within 200 ms',
  },
  {
    module: 'features/chat/workspaceFileList',
    entry: 'WorkspaceFileList',
    source: 'workspace',
    inputs: 'an ignored folder of 6,000 files',
    test: '# leaves out ignored files before its cap: an ignored .venv of 6,000 files leaves room for the rest',
  },
  // The chat's tools: workspace text and service values ALPHA asks for.
  {
    module: 'core/chat/tools/fileRange',
    entry: 'sliceLines',
    source: 'workspace',
    inputs: 'many short lines; the last lines of a long file',
    test: 'reads linearly: a file of n lines against 8n, and one long line',
  },
  {
    module: 'core/chat/tools/textSearch',
    entry: 'findInText',
    source: 'workspace',
    inputs: 'a match on every line; near misses on one line; one long line of matches',
    test: 'searches linearly: many matches, one long line full of near misses, many lines',
  },
  {
    module: 'core/chat/tools/editPieces',
    entry: 'applyPieces',
    source: 'model output',
    inputs: 'a search text that almost matches everywhere',
    test: 'applies in linear time: a long file and a search text that almost matches everywhere',
  },
  {
    module: 'core/chat/tools/editPieces',
    entry: 'changedSpan',
    source: 'model output',
    inputs: 'one change in the middle of a long file',
    test: 'is linear in the file: one change in the middle of a long file',
  },
  {
    module: 'core/chat/tools/workspaceResults',
    entry: 'problemsResult',
    source: 'workspace',
    inputs: 'many problems with long messages',
    test: 'formats problems linearly in their number and size',
  },
  {
    module: 'core/chat/tools/axoChatTools',
    entry: 'lookupSources',
    source: 'service',
    inputs: 'many citations with long titles of white space',
    test: 'gives the sources in linear time: many citations with long titles',
  },
  // Assistance commands.
  {
    module: 'core/chat/tools/toolLoop',
    entry: 'runToolLoop',
    source: 'model output',
    inputs: 'thousands of calls between lines of text in one reply',
    test: 'stays linear in a reply of thousands of calls between lines of text',
  },
  {
    module: 'core/assist/codeBlocks',
    entry: 'StreamingCodeBlock',
    source: 'model output',
    inputs: 'a reply growing a line per delta',
    test: '"Generate Tests" reads each delta of a streaming reply once',
  },
  // The page (pure code, run in Node by the page's own tests).
  {
    module: 'webview/chat/render/math',
    entry: 'renderFormula',
    source: 'model output',
    inputs: 'a\\_ repeated; $$x lines; $$ a and \\[ a lines',
    test: 'a paragraph of lines that open formula blocks is lexed in one pass',
  },
  {
    module: 'webview/chat/render/mathMarkup',
    entry: 'mathMarkup',
    source: 'model output',
    inputs: '\\def expansions',
    test: 'the macros a formula defines are bounded by the tokens they produce, not only by their expansions',
  },
  {
    module: 'webview/chat/spokenReply',
    entry: 'spokenText',
    source: 'model output',
    inputs: '**a repeated without a newline; blank lines; [ and | runs',
    test: 'a reply ending in thousands of blank lines, read aloud',
  },
  {
    module: 'webview/chat/panels/markdownMatch',
    entry: 'markdownMayHold',
    source: 'page',
    inputs: ']( repeated',
    test: 'searching sleeping sections full of link brackets',
  },
  {
    module: 'webview/chat/panels/findBar',
    entry: 'findRanges',
    source: 'page',
    inputs: 'many text nodes; a query of one character',
    test: 'finds a query in many text nodes and in one long line in linear time',
  },
  {
    module: 'webview/chat/panels/markdownMatch',
    entry: 'pieceMatches',
    source: 'page',
    inputs: 'many text nodes; a query that almost matches everywhere; one line without a break',
    test: 'finds a query in many text nodes and in one long line in linear time',
  },
];

/** The modules where outside text enters the code: a module that imports one of them handles that text. */
export const ENTRY_POINTS: readonly string[] = [
  'core/service/sse',
  'core/service/sseContent',
  'core/service/normalize',
  'core/service/httpErrors',
  'core/net/responseBody',
  'core/chat/transfer/conversationImport',
  'core/chat/workspace/workspaceIgnore',
];

/** Modules that import an entry point but read none of its text (they pass it on, or take only a type). */
export const PASSES_THROUGH: Readonly<Record<string, string>> = {
  'core/service/alphaClient': 'sends requests and hands the stream to readContentDeltas and normalizeChatReply',
  'core/service/axoClient': 'hands bodies to the normalizers',
  'core/service/serviceContext': 'passes response bodies on',
  'core/net/http': 'hands bodies to readText and error bodies to messageFromBody',
  'core/encyclopedia/lookupTypes': 'types only',
  'core/encyclopedia/encyclopediaStore': 'keeps normalized values, reads no text of them',
  'core/chat/request/requestBuilder': 'puts bounded, normalized text into requests',
  'core/chat/conversation/conversation': 'types only',
  'core/chat/tools/chatTool': 'types and the access levels only',
  'features/encyclopedia/encyclopediaPrompts': 'hands values to articleMarkdown',
  'features/nativeChat/alphaParticipant': 'hands the stream to VS Code',
  'features/nativeChat/chatHistory': 'copies messages, reads no text',
  'features/chat/pageData': 'copies values into page messages',
  'core/mcp/toolResults': 'writes normalized values into results through inertText, each part within its budget',
  'features/chat/conversationTransfer': 'reads a bounded file and hands it to importConversation',
  'features/chat/tools/axoTools': 'hands lookups to lookupSources and the runner',
  'core/chat/runs/chatStateTypes': 'types only',
  'core/chat/runs/replyRun': 'hands the request to runReply or runToolLoop',
  'core/chat/tools/stepRun': "keeps a tool's result cut to its budget by length; an error's words are cut before use",
};
