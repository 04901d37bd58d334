import { agentReply } from './agentScript';

/** A chat message as the service receives it. */
export interface ChatMessage {
  role: string;
  content: string;
}

/** The content of the last message with role `user`, or '' when there is none. */
export function lastUserContent(messages: readonly ChatMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i].role === 'user') {
      return messages[i].content;
    }
  }
  return '';
}

/** The framing named by a `#framing:NAME` directive in the text, if any (see `FRAMINGS` in sseStream.ts). */
export function framingDirective(text: string): string | undefined {
  return /#framing:(\S+)/.exec(text)?.[1];
}

/** The fault named by a `#fault:MODE` directive in the text, if any. */
export function faultDirective(text: string): string | undefined {
  return /#fault:(\S+)/.exec(text)?.[1];
}

/** Removes `#fault:MODE` directives (and the white space they leave) from a query or title. */
export function stripFaultDirective(text: string): string {
  return text
    .replace(/#fault:\S+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The reply the fake gives to a conversation; it depends only on the last user message and the count.
 *
 * Directives in the last user message (anywhere in its text), first match wins in this order:
 * `#echo` → that message's content exactly; `#long:N` → `longReply(N)`; `#hostile` → `hostileReply()`;
 * `#reply:B64` → the UTF-8 text whose base64url encoding is B64 (see `replyDirective`), so a test decides the
 * exact reply, code blocks included, from inside a file whose code goes along in a prompt; `#refs` →
 * `referencesReply()` (reference links whose definitions come at the end, as models often write them); `#math` →
 * `mathReply()` (inline and display TeX, dollar amounts, hostile formulas); with the extension's tools message, the
 * scripted agent of `agentScript.ts` when the prompt names a mode; otherwise the canned markdown reply, ending with `Messages received: N.`.
 */
export function chatReply(messages: readonly ChatMessage[]): string {
  const agent = agentReply(messages);
  if (agent !== undefined) {
    return agent;
  }
  const last = lastUserContent(messages);
  if (/#echo\b/.test(last)) {
    return last;
  }
  const long = /#long:(\d+)/.exec(last);
  if (long) {
    return longReply(Number(long[1]));
  }
  if (last.includes('#hostile')) {
    return hostileReply();
  }
  const given = /#reply:([A-Za-z0-9_-]+)/.exec(last);
  if (given) {
    return Buffer.from(given[1], 'base64url').toString('utf8');
  }
  if (/#refs\b/.test(last)) {
    return referencesReply();
  }
  if (/#math\b/.test(last)) {
    return mathReply();
  }
  if (last.startsWith('Sources from the AXO encyclopedia:')) {
    return groundedReply(last);
  }
  return defaultReply(last, messages.length);
}

/**
 * The answer to a grounded request (the extension's "Sources from the AXO encyclopedia" block before the question),
 * as a model that follows the block's instructions writes it: AXO's answer and the facts given, cited `[n]`.
 */
function groundedReply(last: string): string {
  const lines = last.split('\n');
  const answerAt = lines.indexOf("AXO's answer:");
  const sourcesAt = lines.indexOf('Sources:');
  const answer = lines
    .slice(answerAt + 1, sourcesAt)
    .join(' ')
    .trim();
  const facts: string[] = [];
  let source = 0;
  for (const line of lines.slice(sourcesAt + 1)) {
    const numbered = /^\[(\d+)\] /.exec(line);
    if (numbered) {
      source = Number(numbered[1]);
    }
    const fact = /^ {4}- ([^:]+): (.*)$/.exec(line);
    if (fact && facts.length < 4) {
      facts.push(`- **${fact[1]}**: ${fact[2]} [${source}]`);
    }
  }
  const cited = answer && answer !== '(none)' ? `${answer} [1]` : 'The encyclopedia gave no answer of its own.';
  return ['## From the encyclopedia', '', cited, ...(facts.length ? ['', ...facts] : [])].join('\n');
}

/** The `#reply:B64` directive that makes the fake answer exactly `text`. */
export function replyDirective(text: string): string {
  return `#reply:${Buffer.from(text, 'utf8').toString('base64url')}`;
}

function defaultReply(last: string, count: number): string {
  const firstLine = last.split(/\r?\n/)[0].trim();
  const topic = firstLine.length > 80 ? `${firstLine.slice(0, 79)}…` : firstLine;
  return [
    '## Here is what I found',
    '',
    `> You asked: ${topic || '(nothing)'}`,
    '',
    'Some things worth knowing:',
    '',
    '- A **café** in Zürich serves crème brûlée to a naïve visitor from Ærøskøbing.',
    '- Launch it 🚀, approve it 👍🏽, share it with the family 👨‍👩‍👧.',
    '- 東京 is the capital of Japan; 日本語のテキストも表示できます。',
    '',
    '```ts',
    'export function greet(name: string): string {',
    '  return `Hello, ${name}! 👋`;',
    '}',
    '```',
    '',
    'And the same in Python:',
    '',
    '```python',
    'def greet(name: str) -> str:',
    '    return f"Hello, {name}! 👋"',
    '```',
    '',
    `Messages received: ${count}.`,
  ].join('\n');
}

const LONG_BLOCKS = [
  'This is a long reply from the fake ALPHA service. It is made of paragraphs and code blocks, ' +
    'so that scrolling, wrapping and rendering can be tested with realistic text.',
  '```ts\nfor (let i = 0; i < 10; i++) {\n  console.log(`line ${i}`);\n}\n```',
  'Another paragraph follows, with **bold**, *italic* and `inline code`, plus a café and a naïve résumé.',
  '```python\nfor i in range(10):\n    print(f"line {i}")\n```',
];

const FILLER = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. ';

/**
 * A markdown reply of exactly `n` characters (JS string length) made of paragraphs and code blocks.
 * Only BMP characters are used, so no cut can split a surrogate pair; code fences are always closed.
 */
export function longReply(n: number): string {
  const parts: string[] = [];
  let length = 0;
  for (let i = 0; ; i++) {
    const block = LONG_BLOCKS[i % LONG_BLOCKS.length];
    const sep = parts.length === 0 ? 0 : 2;
    if (length + sep + block.length + 2 + 40 > n) {
      break;
    }
    parts.push(block);
    length += sep + block.length;
  }
  const sep = parts.length === 0 ? '' : '\n\n';
  const rest = n - length - sep.length;
  let tail = FILLER.repeat(Math.ceil(rest / FILLER.length) + 1).slice(0, rest);
  if (tail.endsWith(' ')) {
    tail = `${tail.slice(0, -1)}.`;
  }
  return parts.join('\n\n') + sep + tail;
}

/** Markdown full of things a renderer must neutralise, next to one ordinary link. */
export function hostileReply(): string {
  return [
    '## Hostile markdown',
    '',
    'Raw script: <script>alert(1)</script>',
    '',
    'Image handler: <img src=x onerror=alert(1)>',
    '',
    'Frame: <iframe src="https://example.com"></iframe>',
    '',
    'Links: [click](javascript:alert(1)) and [cmd](command:workbench.action.quit).',
    '',
    'Remote image: ![remote](https://example.com/pixel.png)',
    '',
    'A [safe link](https://example.com/docs) that may be opened.',
  ].join('\n');
}

/** The address each reference of `referencesReply()` points to, by its link text. */
export const REFERENCE_URLS = {
  'the guide': 'https://example.com/guide',
  'the API reference': 'https://example.com/api',
  'the diagram': 'https://example.com/diagram.png',
} as const;

/**
 * A reply that uses reference-style links and an image whose definitions come only at its end, after a list: the
 * text using them is finished (drawn) long before they arrive.
 */
export function referencesReply(): string {
  return [
    'Read [the guide][1] first, then [the API reference][api].',
    '',
    '1. Install it as [the guide][1] says.',
    '2. Compare with ![the diagram][fig].',
    '',
    'That is all.',
    '',
    `[1]: ${REFERENCE_URLS['the guide']}`,
    `[api]: ${REFERENCE_URLS['the API reference']} "API"`,
    `[fig]: ${REFERENCE_URLS['the diagram']}`,
  ].join('\n');
}

/** The TeX of the formulas in `mathReply()`, as each one's accessible name: inline, display, and both kinds again. */
export const MATH_FORMULAS = {
  inline: 'ax^2+bx+c=0',
  display: 'x = \\frac{-b \\pm \\sqrt{b^2-4ac}}{2a}',
  parenthesised: '\\alpha + \\beta',
  bracketed: '\\int_{-\\infty}^{\\infty} e^{-x^2}\\,dx = \\sqrt{\\pi}',
} as const;

/**
 * A reply in TeX as models write it: inline `$…$` and `\(…\)`, display `$$…$$` and `\[…\]`, dollar amounts that must
 * stay text, and formulas that must stay inert (`\href` to `javascript:`, `\url` to `command:`, a stretch of macro
 * expansion), each shown as its source.
 */
export function mathReply(): string {
  return [
    `The roots of $${MATH_FORMULAS.inline}$ are`,
    '',
    '$$',
    MATH_FORMULAS.display,
    '$$',
    '',
    `so the sum is \\(${MATH_FORMULAS.parenthesised}\\), and the Gaussian integral is`,
    '\\[',
    MATH_FORMULAS.bracketed,
    '\\]',
    '',
    'It costs $5 and $10, or $5–$10 in bulk.',
    '',
    'Hostile: $\\href{javascript:alert(1)}{click me}$ and $$\\url{command:workbench.action.quit}$$ and',
    '$\\def\\a{\\a\\a}\\a$.',
  ].join('\n');
}
